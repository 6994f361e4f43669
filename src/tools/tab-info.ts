import { z } from 'zod';
import type { Tab } from '../browser/tab.js';

export const tabInfoSchema = z.object({
  tabId: z.number(),
  url: z.string(),
  title: z.string(),
  active: z.boolean(),
  dialog: z.object({ type: z.string(), message: z.string(), defaultValue: z.string().optional() }).optional(),
});

export type TabInfo = z.infer<typeof tabInfoSchema>;

/** URL from the browser (answers even when the page is frozen), title from the page with a short deadline. */
export async function describeTab(tab: Tab, activeTabId: number | null): Promise<TabInfo> {
  const url = await tab.currentUrl(2_000).catch(() => '');
  let title = '';
  if (!tab.dialog) {
    const info = await tab.callPage('pageInfo', {}, { timeout: 1_000 }).catch(() => null);
    title = info?.title ?? '';
  }
  const info: TabInfo = { tabId: tab.id, url, title, active: tab.id === activeTabId };
  if (tab.dialog) {
    info.dialog = { type: tab.dialog.type, message: tab.dialog.message, ...(tab.dialog.defaultValue !== undefined ? { defaultValue: tab.dialog.defaultValue } : {}) };
  }
  return info;
}
