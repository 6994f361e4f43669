import { z } from 'zod';
import { defineTool, tabIdField } from './tool.js';

export const tabsCloseTool = defineTool({
  name: 'tabs_close_mcp',
  title: 'Close a tab',
  description:
    "Closes one tab of this session's group. The page's beforeunload handler is not run, so no dialog can hold it open; " +
    'if a dialog is already open on the tab, the tab is closed with it.',
  scope: 'tab',
  worksWithDialog: true,
  input: z.strictObject({ tabId: tabIdField }),
  output: z.object({ closed: z.number(), remainingTabIds: z.array(z.number()) }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async handler(context) {
    await context.browserNow.closeTab(context.tab);
    const remaining = context.session.tabs(context.browserNow).map((tab) => tab.id);
    if (context.session.activeTabId === context.tab.id) context.session.activeTabId = remaining.at(-1) ?? null;
    return {
      structured: { closed: context.tab.id, remainingTabIds: remaining },
      text: `Closed tab ${context.tab.id}. Remaining tabs: ${remaining.length ? remaining.join(', ') : 'none'}.`,
    };
  },
});
