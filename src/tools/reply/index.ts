// Replies from sections: action (head and verdict), effects (dialog, downloads, URL and title), changes (scroll, popup,
// the delta), the opened tabs; and the page's answer to a tool that is not input.
import type { ActionReport } from '../../browser/engine/index.js';
import { ToolError } from '../../errors.js';
import type { ToolResponse } from '../tool.js';
import { actionSection } from './action.js';
import { changesSection } from './changes.js';
import { effectsSection } from './effects.js';
import { Reply, type Fields } from './reply.js';

export { Reply, type Fields, type Section } from './reply.js';
export { actionSection, hitText, summaryText } from './action.js';
export { effectsSection } from './effects.js';
export { changesSection } from './changes.js';
export { downloadsSection } from './downloads.js';
export { openedTabsSection } from './tabs.js';
export { pageAnswerSection } from './answer.js';

/** Every field an action's reply may carry, in the order it writes them. */
export const actionReplyFields = { ...actionSection.schema, ...effectsSection.schema, ...changesSection.schema };

type ActionFields = Fields<typeof actionReplyFields> & { action: string; ok: boolean };

/**
 * An input action's reply: the head and verdict, the action's effects, the page's changes. Input that did not reach
 * its target is an error, with what it did meanwhile (the page's change) in its text.
 * `fields`: the tool's own fields, written right after `action` and `ok`.
 */
export function actionReply<T extends ActionFields>(fields: T, report: ActionReport, details?: string[]): ToolResponse<T> {
  const reply = new Reply<T>(fields);
  const { failure } = actionSection.render(reply, { action: fields.action, report, ...(details ? { details } : {}) });
  effectsSection.render(reply, report.effects);
  changesSection.render(reply, { changes: report.changes, effects: report.effects });
  const ref = report.target.ref;
  if (failure) throw new ToolError(failure, reply.text, { ...(ref ? { ref } : {}), delivered: false });
  return reply.response();
}
