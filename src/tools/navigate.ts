import { z } from 'zod';
import { unlessCancelled } from '../abort.js';
import { downloadsDuring } from '../browser/group/index.js';
import type { AuthAnswer } from '../browser/tab/index.js';
import { navigateTab, navigationTargetSchema } from '../browser/tab/index.js';
import { dialogNoun } from '../browser/tab/index.js';
import { DEFAULT_MAX_CHARS } from '../browser/observe/index.js';
import { snapshotReply } from '../browser/observe/index.js';
import { SETTLE_MAX_MS, settleTab } from '../browser/observe/index.js';
import { isToolError, type ToolError } from '../errors.js';
import { downloadsSection, Reply, type Fields } from './reply/index.js';
import { defineTool, tabIdField, type TabToolContext } from './tool.js';

/** The line and field that report the page's HTTP authentication challenge (http-auth.ts answered it). */
function authLine(answer: AuthAnswer | undefined): { line: string; field: AuthAnswer } | null {
  if (!answer) return null;
  const line =
    answer.answer === 'cancelled'
      ? `The page asked for HTTP authentication (status ${answer.status}) at ${answer.url}; it was cancelled, so this is the server's ${answer.status} page. Start the server with --http-credentials to sign in.`
      : `The page asked for HTTP authentication (status ${answer.status}) at ${answer.url}; answered with --http-credentials.`;
  return { line, field: answer };
}

export const navigateTool = defineTool({
  name: 'navigate',
  title: 'Navigate',
  description: 'Loads a URL or goes "back"/"forward"; waits for it to settle and returns url, title and a snapshot with refs.',
  details:
    'Loads a URL in the tab and waits until it has loaded and settled (DOM quiet, no request in flight; at most 3 s more, said when ' +
      'cut short; redirects and same-page #hash changes count as arrived), or goes ' +
    '"back" / "forward" in its history. Returns the final URL and title and a snapshot of the new page with refs, so no ' +
    'separate read_page is needed. A URL without a scheme gets https:// (http:// for localhost). A dialog raised while ' +
    'loading or leaving ends the call at once with dialog_open; one raised once the page has loaded is in the reply (`dialog`), the page unread. When the page starts its own navigation before yours ' +
    'loads, yours is re-issued once; `outcome` and `note` then say what happened (reissued, superseded: the page won ' +
    'twice, navigated_on: your page loaded and moved on by itself, which is waited for) and url/title are where the tab ' +
    'ended up. A move of the page\'s own that the origin rules refuse leaves the tab on your page, and `note` says so. ' +
    'HTTP authentication is cancelled (the 401 page loads) unless the server has --http-credentials; `http_auth` says which.',
  scope: 'tab',
  errors: ['navigation_timeout', 'navigation_failed', 'origin_blocked'],
  input: z.strictObject({
    tabId: tabIdField,
    url: navigationTargetSchema.describe('A URL, or "back" / "forward".'),
  }),
  output: z.object({
    url: z.string(),
    title: z.string(),
    snapshot: z.string().optional(),
    truncated: z.boolean().optional(),
    hint: z.string().optional(),
    outcome: z.enum(['reissued', 'superseded', 'navigated_on']).optional(),
    note: z.string().optional(),
    snapshot_error: z.string().optional(),
    /** The page asked for HTTP authentication: cancelled (the 401 page shows) or answered with --http-credentials. */
    http_auth: z.object({ url: z.string(), status: z.number(), answer: z.enum(['cancelled', 'credentials']) }).optional(),
    /** A dialog the page opened once it had loaded: it must be answered (firefox_dialog) before anything else. */
    dialog: z.object({ type: z.string(), message: z.string(), defaultValue: z.string().optional() }).optional(),
    /** The URL answered with a file: where it was saved; the tab stayed on `url`. */
    ...downloadsSection.schema,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  script: { step: true, secret: null },
  async handler(context, args) {
    context.tab.takeAuthAnswers();
    // A URL whose response is a file starts a download and leaves the old page in place: say so, not "arrived".
    const { result: arrived, downloads } = await downloadsDuring(context.tab, () => unlessCancelled(navigateTab(context.tab, args.url, context.options), context.signal), {
      navigationWaitMs: 2_000,
    });
    if (downloads.length) {
      const files = new Reply<Arrived & Fields<typeof downloadsSection.schema>>({ ...arrived });
      downloadsSection.render(files, downloads);
      const text = `That URL is a download, not a page. ${files.text}.\nTab ${context.tab.id} stays on ${arrived.title || '(untitled)'} — ${arrived.url}`;
      return { structured: files.structured, text };
    }
    const header = `${arrived.title || '(untitled)'} — ${arrived.url}`;
    try {
      return await settledReply(context, arrived, header);
    } catch (error) {
      // The page loaded, then raised a dialog (a script's alert a moment later): the navigation still happened.
      if (!isToolError(error, 'dialog_open')) throw error;
      return dialogAfterLoad(arrived, header, error);
    }
  },
});

type Arrived = Awaited<ReturnType<typeof navigateTab>>;

function dialogAfterLoad(arrived: Arrived, header: string, error: ToolError) {
  const dialog = error.details.dialog as { type: string; message: string; defaultValue?: string };
  const text = `${header}\nThe page loaded, then opened ${dialogNoun(dialog.type)}: "${dialog.message}". ` +
    'Call firefox_dialog (accept or dismiss) before anything else on this tab; read_page then shows the page.';
  return { structured: { ...arrived, dialog, ...(arrived.note ? { note: arrived.note } : {}) }, text };
}

async function settledReply(context: TabToolContext, arrived: Arrived, header: string) {
  // Apps render after the load event (a viewer fetching its document, an SPA its data): wait for quiet first.
  const settle = await settleTab(context.tab, Math.min(SETTLE_MAX_MS, context.tab.timeouts.navigation));
  const unsettled = settle.settled ? undefined : `Still changing after ${(settle.waitedMs / 1000).toFixed(1)} s (${settle.busy}): this snapshot may be incomplete; wait_for a text or read_page again.`;
  // The load is done; a snapshot that fails (a frame mid-swap) must not turn the navigation into an error.
  const reply = await snapshotReply(context.tab, () => header, { maxChars: DEFAULT_MAX_CHARS }, arrived.note).catch((error: unknown) => {
    if (context.tab.isFatal(error)) throw error;
    return null;
  });
  const auth = authLine(context.tab.takeAuthAnswers().at(-1));
  const note = [arrived.note, unsettled].filter(Boolean).join(' ');
  const authFields = auth ? { http_auth: auth.field } : {};
  if (!reply) return { structured: { ...arrived, ...authFields, snapshot_error: 'The page snapshot failed; call read_page.', ...(note ? { note } : {}) } };
  const { snap, text } = reply;
  const structured = { ...arrived, snapshot: snap.snapshot, truncated: snap.truncated, ...(snap.hint ? { hint: snap.hint } : {}), ...(note ? { note } : {}), ...authFields };
  return { structured, text: [auth?.line, text, unsettled].filter(Boolean).join('\n') };
}
