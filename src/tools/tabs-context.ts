import { z } from 'zod';
import { describeTab, tabInfoSchema } from './tab-info.js';
import { defineTool } from './tool.js';

export const tabsContextTool = defineTool({
  name: 'tabs_context_mcp',
  title: 'List tabs',
  description: 'Lists this session\'s tabs (id, URL, title, active, dialog). Call it first: other tools need a tabId.',
  details:
    "Lists the tabs of this session's tab group (the tabs it opened and the popups they opened), with each tab's id, URL, title, " +
    'whether it is the active one, and an open dialog if a page is waiting on one. Call it first: every other tool needs a tabId from ' +
    'here. With createIfEmpty: true an empty group gets a fresh blank tab, so the answer always has one to use.',
  scope: 'session',
  errors: [],
  input: z.strictObject({
    createIfEmpty: z.boolean().optional().describe('Open a blank tab when the group has none.'),
  }),
  output: z.object({ tabs: z.array(tabInfoSchema), activeTabId: z.number().nullable() }),
  annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
  script: { leftOut: 'it lists tabs; the blank tab createIfEmpty may open is the one run opens for a script by itself' },
  async handler(context, args) {
    const { group } = context;
    let tabs = await group.tabs();
    // Every tab is listed here, so none is left to report in a later reply.
    group.takeOpenedTabs();
    if (tabs.length === 0 && args.createIfEmpty) tabs = [await group.openTab()];
    const described = await Promise.all(tabs.map((tab) => describeTab(tab, group.activeTabId)));
    const activeTabId = described.find((tab) => tab.active)?.tabId ?? null;
    const text = described.length
      ? described.map((tab) => `tab ${tab.tabId}${tab.active ? ' (active)' : ''}: ${tab.title || '(untitled)'} — ${tab.url}${tab.dialog ? ` [dialog open: ${tab.dialog.type} "${tab.dialog.message}"]` : ''}`).join('\n')
      : 'No tabs in this group. Call tabs_create_mcp, or tabs_context_mcp with createIfEmpty: true.';
    return { structured: { tabs: described, activeTabId }, text };
  },
});
