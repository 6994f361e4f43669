import { z } from 'zod';
import { pageInfo, type TabHandle } from '../browser/tab/index.js';

export const tabInfoSchema = z.object({
  tabId: z.number(),
  url: z.string(),
  title: z.string(),
  active: z.boolean(),
  dialog: z.object({ type: z.string(), message: z.string(), defaultValue: z.string().optional() }).optional(),
});

export type TabInfo = z.infer<typeof tabInfoSchema>;

/** URL from the browser (answers even when the page is frozen), title from the page with a short deadline. */
export async function describeTab(tab: TabHandle, activeTabId: number | null): Promise<TabInfo> {
  if (tab.untouchedBlank && !tab.dialog) return { tabId: tab.id, url: 'about:blank', title: '', active: tab.id === activeTabId };
  // A page behind a dialog cannot answer: its title as last read stands in. Both asked at once.
  const [url, page] = await Promise.all([
    tab.currentUrl(2_000).catch(() => ''),
    tab.dialog ? null : pageInfo(tab, { timeout: 1_000 }).catch(() => null),
  ]);
  const title = page?.title ?? tab.lastTitle;
  const info: TabInfo = { tabId: tab.id, url, title, active: tab.id === activeTabId };
  if (tab.dialog) {
    info.dialog = { type: tab.dialog.type, message: tab.dialog.message, ...(tab.dialog.defaultValue !== undefined ? { defaultValue: tab.dialog.defaultValue } : {}) };
  }
  return info;
}

/**
 * A tab a page just opened, once it has left its first about:blank and parsed enough to have a title (bounded:
 * a popup that stays blank, or a slow page, is described as it is then).
 */
export async function describeOpenedTab(tab: TabHandle, waitMs: number): Promise<TabInfo> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (tab.isClosed) break;
    const info = await pageInfo(tab, { timeout: 500 }).catch(() => null);
    if (info && info.url !== 'about:blank' && info.readyState !== 'loading') break;
    if (Date.now() > deadline || tab.dialog) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return describeTab(tab, null);
}
