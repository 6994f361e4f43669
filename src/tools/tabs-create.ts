import { z } from 'zod';
import { checkedUrl, navigateTab, navigationTargetSchema } from '../browser/tab/index.js';
import { describeTab, tabInfoSchema } from './tab-info.js';
import { defineTool } from './tool.js';

export const tabsCreateTool = defineTool({
  name: 'tabs_create_mcp',
  title: 'Open a tab',
  description: 'Opens a tab, loading url if given. Returns its tabId.',
  details:
    "Opens a new tab in this session's group, in front in the group's window, optionally loading `url` (waits for it to load). " +
    'Returns the new tab id; pass it as tabId to the other tools.',
  scope: 'session',
  errors: ['tab_closed', 'dialog_open', 'navigation_timeout', 'navigation_failed', 'origin_blocked', 'limit_reached'],
  input: z.strictObject({
    url: navigationTargetSchema.optional().describe('Page to load; blank if left out.'),
  }),
  output: tabInfoSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  script: { step: true, secret: null },
  async handler(context, args) {
    // A refused URL opens no tab at all.
    if (args.url) checkedUrl(args.url, context.options);
    const tab = await context.group.openTab();
    if (args.url) await tab.serialize(() => navigateTab(tab, args.url!, context.options));
    const info = await describeTab(tab, tab.id);
    return { structured: info, text: `Opened tab ${info.tabId}: ${info.title || '(untitled)'} — ${info.url}` };
  },
});
