import { z } from 'zod';
import { downloadsDuring } from '../browser/group/index.js';
import { elementNodes, identifyNodes, renderRemoteValue, toJson, type EvaluateResult, type RemoteValue } from '../browser/tab/index.js';
import { ToolError } from '../errors.js';
import { downloadsSection, Reply, type Fields } from './reply/index.js';
import { defineTool, tabIdField, type TabToolContext } from './tool.js';

const MAX_TEXT = 20_000;
/**
 * Code that may start a navigation (and so a download) a moment after it returns. Only such code pays for the
 * short wait that catches it; a download started otherwise still lands in the output dir, unreported here.
 */
const MAY_NAVIGATE = /click|submit|location|href|open\(|download|navigat|assign|replace|reload|dispatchEvent/i;

/**
 * Runs code as a script (its last expression is the result); code that only parses as a function body (top-level
 * await or return) runs again wrapped in an async function. A syntax error means nothing ran, so that is safe.
 */
async function run(context: TabToolContext, code: string): Promise<EvaluateResult> {
  const first = await context.tab.evaluateInPage(code);
  // Only the errors a function body cures: a redeclared `const` run again inside a function would answer undefined.
  if (first.type !== 'exception' || !/^SyntaxError: .*\b(await|return)\b/.test(first.exceptionDetails.text)) return first;
  const second = await context.tab.evaluateInPage(`(async () => {\n${code}\n})()`);
  if (second.type === 'exception' && /^SyntaxError/.test(second.exceptionDetails.text)) return first;
  return second;
}

/** Refs for the element nodes of a result, issued through the sandbox's registry. */
async function refsFor(context: TabToolContext, value: RemoteValue): Promise<Map<string, string>> {
  const refs = new Map<string, string>();
  const nodes = elementNodes(value).slice(0, 200);
  if (nodes.length === 0) return refs;
  const { tab } = context;
  const ids = await identifyNodes(tab, nodes.map((node) => ({ sharedId: node.sharedId! }))).catch(() => null); // nodes of another frame's document cannot be named from the top one
  ids?.forEach((id, index) => {
    if (id) refs.set(nodes[index]!.sharedId!, tab.refs.refFor(tab.id, tab.context, id.docId, id.localId));
  });
  return refs;
}

export const javascriptTool = defineTool({
  name: 'javascript_tool',
  title: 'Run JavaScript in the page',
  description: 'Runs JavaScript in the page; returns the last expression\'s value or a top-level return (await works). Elements come back with refs.',
  details:
    'Runs JavaScript in the tab\'s page (its own window, with the page\'s globals) and returns the result: the value of the last ' +
    'expression, or what a top-level return gives (top-level await works). Promises are awaited; DOM elements come back with ' +
    'refs usable by computer, form_input and file_upload; cycles, bigint, undefined, Map and Set are shown as such. A thrown ' +
    'exception is a javascript_error with its message. Times out after the action timeout (the code may have run partly).',
  scope: 'tab',
  errors: ['javascript_error'],
  enabled: (options) => options.allowJavascript,
  input: z.strictObject({
    tabId: tabIdField,
    text: z.string().min(1).max(100_000).describe('The code, e.g. "document.title".'),
  }),
  output: z.object({
    type: z.string(),
    result: z.string(),
    value: z.unknown().optional(),
    truncated: z.boolean().optional(),
    ...downloadsSection.schema,
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  script: { step: true, secret: null },
  async handler(context, args) {
    const { result: outcome, downloads } = await downloadsDuring(context.tab, () => run(context, args.text), {
      settleMs: MAY_NAVIGATE.test(args.text) ? 500 : 0,
      navigationWaitMs: 3_000,
    });
    if (outcome.type === 'exception') {
      const details = outcome.exceptionDetails;
      const where = details.lineNumber !== undefined ? ` (line ${details.lineNumber + 1}, column ${details.columnNumber + 1})` : '';
      throw new ToolError('javascript_error', `${details.text}${where}`, { tabId: context.tab.id });
    }
    const refs = await refsFor(context, outcome.result);
    const refOf = (sharedId: string) => refs.get(sharedId);
    let rendered = renderRemoteValue(outcome.result, { refOf });
    const truncated = rendered.length > MAX_TEXT;
    if (truncated) rendered = `${rendered.slice(0, MAX_TEXT)}… (${rendered.length} chars)`;
    const reply = new Reply<{ type: string; result: string; value: unknown; truncated?: boolean } & Fields<typeof downloadsSection.schema>>({ type: outcome.result.type, result: rendered, value: toJson(outcome.result, refOf), ...(truncated ? { truncated } : {}) }, [rendered]);
    downloadsSection.render(reply, downloads);
    return reply.response();
  },
});
