import { z } from 'zod';
import { ToolError, isToolError } from '../errors.js';
import { answerLines } from './page-answer.js';
import { defineTool, tabIdField } from './tool.js';
import type { PageInfo } from '../contract/index.js';
import { pageInfo, type TabHandle } from '../browser/tab/index.js';

const closedDialogSchema = z.object({
  type: z.string(),
  message: z.string(),
  defaultValue: z.string().optional(),
});

/** How long an accepted beforeunload waits for the page it let the tab go to. */
const LEAVE_WAIT_MS = 5_000;

/** Where the tab is once the navigation a beforeunload held has loaded (or, bounded, where it is so far). */
async function afterLeaving(tab: TabHandle): Promise<{ url: string; title: string; loading: boolean } | null> {
  const before = tab.lastUrl;
  const started = Date.now();
  let info: PageInfo | null = null;
  while (Date.now() - started < LEAVE_WAIT_MS && !tab.isClosed && !tab.dialog) {
    info = await pageInfo(tab, { timeout: 1_000 }).catch(() => null);
    // A reload keeps the URL: once a second has passed, a complete document at the same URL is the arrival.
    // The document in between is about:blank, complete at once: not an arrival.
    if (info?.readyState === 'complete' && ((info.url !== before && info.url !== 'about:blank') || Date.now() - started > 1_000)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return info ? { url: info.url, title: info.title, loading: info.readyState !== 'complete' } : null;
}

/**
 * The page's answer to the dialog's closing, as reply lines: the delta of the action that opened it (settled), or
 * the next dialog it opened meanwhile (kept for that one's answer).
 */
async function pageReaction(tab: TabHandle, pending: NonNullable<TabHandle['dialogWatch']>): Promise<string[]> {
  try {
    const outcome = await pending.watch.finish({ again: true, ...(pending.targetRef ? { targetRef: pending.targetRef } : {}) });
    const lines = answerLines(outcome);
    return lines.length ? lines : ['No change on the page.'];
  } catch (error) {
    if (isToolError(error, 'dialog_open') && tab.dialog) {
      tab.dialogWatch = pending;
      return [`Then a ${tab.dialog.type} dialog opened: "${tab.dialog.message}" (answer it with firefox_dialog).`];
    }
    // The dialog was answered: a page that cannot be read now (it went away) does not undo that.
    return [];
  }
}

export const dialogTool = defineTool({
  name: 'firefox_dialog',
  title: 'Answer a dialog',
  description: 'Answers the dialog open on a tab (alert, confirm, prompt, beforeunload); until then other tools fail with dialog_open.',
  details:
    'Closes the native dialog open on a tab (alert, confirm, prompt, or the "leave page?" beforeunload dialog): accept presses ' +
    'OK / Leave, dismiss presses Cancel / Stay. text answers a prompt (accept only). While a dialog is open every other tool on ' +
    'that tab fails with dialog_open, so call this first. Fails with no_dialog, doing nothing, when no dialog is open.',
  scope: 'tab',
  errors: ['no_dialog'],
  worksWithDialog: true,
  input: z.strictObject({
    tabId: tabIdField,
    action: z.enum(['accept', 'dismiss']),
    text: z.string().max(100_000).optional().describe('The answer to a prompt (with accept).'),
  }),
  output: z.object({
    tabId: z.number(),
    action: z.enum(['accept', 'dismiss']),
    closed: closedDialogSchema,
    text: z.string().optional(),
    tabClosed: z.boolean().optional(),
    /** After an accepted beforeunload: where the tab ended up. */
    url: z.string().optional(),
    title: z.string().optional(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  script: { step: true, secret: null },
  async handler(context, args) {
    const { tab } = context;
    const dialog = tab.dialog;
    if (!dialog) {
      throw new ToolError('no_dialog', `No dialog is open on tab ${tab.id}; nothing was done.`, { tabId: tab.id });
    }
    if (args.text !== undefined && (dialog.type !== 'prompt' || args.action !== 'accept')) {
      throw new ToolError('invalid_arguments', `text: only an accepted prompt takes text; the open dialog is a ${dialog.type}. Nothing was done.`, {
        field: 'text',
      });
    }
    const accept = args.action === 'accept';
    // A tab that tabs_close_mcp asked to close goes away once its beforeunload dialog is accepted.
    const closing = accept && tab.closeRequested ? tab.waitClosed(3_000) : null;
    const pending = tab.dialogWatch;
    await tab.answerDialog(accept, args.text);
    tab.dialogWatch = null;
    const tabClosed = closing ? await closing : undefined;
    // What the page did once the dialog closed (a row deleted, "Cancelled" shown), read through the watch of the
    // action that opened it. A beforeunload's answer is the navigation, said below.
    const reaction = pending && !tabClosed && dialog.type !== 'beforeunload' ? await pageReaction(tab, pending) : [];
    // Leaving was allowed: the navigation that asked goes on. Say where the tab is once it has loaded.
    const arrived = dialog.type === 'beforeunload' && accept && !tabClosed && !tab.isClosed ? await afterLeaving(tab) : null;
    const closed = { type: dialog.type, message: dialog.message, ...(dialog.defaultValue !== undefined ? { defaultValue: dialog.defaultValue } : {}) };
    const answered = args.text !== undefined ? ` with "${args.text}"` : '';
    const after = tabClosed ? ` Tab ${tab.id} is now closed.` : arrived ? ` Tab ${tab.id} is now at ${arrived.title || '(untitled)'} — ${arrived.url}${arrived.loading ? ' (still loading)' : ''}.` : '';
    return {
      structured: {
        tabId: tab.id,
        action: args.action,
        closed,
        ...(args.text !== undefined ? { text: args.text } : {}),
        ...(tabClosed ? { tabClosed } : {}),
        ...(arrived ? { url: arrived.url, title: arrived.title } : {}),
      },
      text: [`${accept ? 'Accepted' : 'Dismissed'} the ${dialog.type} dialog "${dialog.message}"${answered} on tab ${tab.id}.${after}`, ...reaction].join('\n'),
    };
  },
});
