import { z } from 'zod';
import { ToolError } from '../errors.js';
import { defineTool, tabIdField } from './tool.js';

export const tabsCloseTool = defineTool({
  name: 'tabs_close_mcp',
  title: 'Close a tab',
  description: 'Closes a tab. A beforeunload prompt answers dialog_open; firefox_dialog then closes (accept) or keeps (dismiss) it.',
  details:
    "Closes one tab of this session's group. If the page asks to confirm leaving (beforeunload), the call fails with dialog_open " +
    'and the tab stays open until firefox_dialog answers: accept closes it, dismiss keeps it. A dialog already open on the tab ' +
    'does not stop the close: the tab goes with it.',
  scope: 'tab',
  errors: ['dialog_open'],
  worksWithDialog: true,
  input: z.strictObject({ tabId: tabIdField }),
  output: z.object({ closed: z.number(), remainingTabIds: z.array(z.number()) }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  script: { step: true, secret: null },
  async handler(context) {
    const { group } = context;
    if (!(await group.closeTab(context.tab))) {
      throw new ToolError('internal_error', `Firefox answered but tab ${context.tab.id} is still open.`, { tabId: context.tab.id });
    }
    const remaining = (await group.tabs()).map((tab) => tab.id);
    if (group.activeTabId === context.tab.id) group.activeTabId = remaining.at(-1) ?? null;
    return {
      structured: { closed: context.tab.id, remainingTabIds: remaining },
      text: `Closed tab ${context.tab.id}. Remaining tabs: ${remaining.length ? remaining.join(', ') : 'none'}.`,
    };
  },
});
