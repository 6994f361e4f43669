import { z } from 'zod';
import { CallCancelled } from '../abort.js';
import { cancelWaits, findInPage, waitInPage } from '../browser/tab/index.js';
import { ToolError } from '../errors.js';
import { defineTool, tabIdField } from './tool.js';


const DEFAULT_TIMEOUT_S = 5;

export const waitForTool = defineTool({
  name: 'wait_for',
  title: 'Wait for text or an element',
  description: 'Waits until a text or element (ref) is shown, or with gone: true is gone, up to timeout seconds; met: false if not (not an error).',
  details:
    'Waits, in one call, until a text is shown on the page (case-insensitive, spaces collapsed) or an element (ref) is shown, ' +
    'or with gone: true until it is no longer shown (removed or hidden), at most timeout seconds. Answers as soon as the ' +
    'condition holds, with how long it took; when time runs out it says so (met: false), it is not an error. Use it after an ' +
    'action whose result arrives later (a search, a saved toast, a spinner going away) instead of repeated reads or fixed waits.',
  scope: 'tab',
  input: z.strictObject({
    tabId: tabIdField,
    text: z.string().trim().min(1).max(500).optional(),
    ref: z
      .string()
      .regex(/^ref_\d+$/, 'must look like "ref_12"')
      .optional(),
    gone: z.boolean().optional(),
    timeout: z.number().min(0.1).max(30).optional().describe(`Seconds (default ${DEFAULT_TIMEOUT_S}).`),
  }),
  output: z.object({
    met: z.boolean(),
    waited_ms: z.number(),
    match: z.object({ ref: z.string(), role: z.string(), name: z.string() }).optional(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  script: 'waits',
  errors: ['ref_stale'],
  async handler({ tab, signal }, args) {
    if ((args.text === undefined) === (args.ref === undefined)) {
      throw new ToolError('invalid_arguments', 'text: give text or ref (one of them).', { field: args.text === undefined ? 'text' : 'ref' });
    }
    const gone = args.gone ?? false;
    const timeoutMs = Math.round((args.timeout ?? DEFAULT_TIMEOUT_S) * 1000);
    let context = tab.context;
    let ref: { docId: string; id: number } | undefined;
    if (args.ref) {
      // A ref whose element is already removed counts as gone; waiting for it to appear can never succeed.
      const target = tab.refs.lookup(args.ref, tab.id);
      context = target.frameContext;
      ref = { docId: target.docId, id: target.localId };
    }
    // A cancelled call ends the page's wait too, so nothing is left watching the page.
    const cancel = () => void cancelWaits(tab, context).catch(() => undefined);
    signal.addEventListener('abort', cancel, { once: true });
    const report = await waitInPage(tab, { text: args.text, ref, gone, timeoutMs }, { context, timeout: timeoutMs + 5_000 }).finally(() => signal.removeEventListener('abort', cancel));
    if (signal.aborted) throw new CallCancelled();
    const what = args.text ? `Text "${args.text}"` : args.ref!;
    const seconds = (report.waitedMs / 1000).toFixed(1);
    if (!report.met) {
      const text = `${what} ${gone ? 'was still shown' : 'was not shown'} after ${seconds} s (timeout).`;
      return { structured: { met: false, waited_ms: report.waitedMs }, text };
    }
    let text = `${what} ${gone ? 'is gone' : 'is shown'}${report.waitedMs ? ` after ${seconds} s` : ' already'}.`;
    let match: { ref: string; role: string; name: string } | undefined;
    if (args.text && !gone) {
      // Where the text is, so the next call can act on it.
      const found = await findInPage(tab, args.text, 1).catch(() => null);
      const best = found?.matches[0];
      if (best && !best.missing) {
        match = { ref: tab.refs.refFor(tab.id, tab.context, found.docId, best.id), role: best.role, name: best.name };
        text += `\n- ${match.role}${match.name ? ` "${match.name.replace(/"/g, '\\"')}"` : ''} [ref=${match.ref}]`;
      }
    }
    return { structured: { met: true, waited_ms: report.waitedMs, ...(match ? { match } : {}) }, text };
  },
});
