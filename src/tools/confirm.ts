// Ask before acting (--confirm-actions): an acting call that matches the policy waits for a person's yes before
// anything is dispatched. Here the call's facts are read without acting (its arguments checked, its ref resolved, the
// control it would activate read by one page call); confirm-policy.ts decides; the session asks (services.confirm,
// MCP elicitation in src/mcp). A no, a timeout or nobody to ask is not_confirmed, with nothing done.
import { parseKeySequence } from '../browser/engine/index.js';
import { describeActionTarget, normalizeUrl, resolveRef, type TabHandle } from '../browser/tab/index.js';
import { ToolError } from '../errors.js';
import { escapeControls, pageLine } from '../text-safety.js';
import type { ConfirmAnswer, TabToolContext, ToolContext } from './context.js';
import { confirmPolicy, matchedKinds, type ConfirmKind, type PlannedAction, type TargetFacts } from './confirm-policy.js';

type Args = Readonly<Record<string, unknown>>;

const ENTER = '\uE007';
const SPACE = '\uE00D';
const CLICKS = new Set(['left_click', 'double_click', 'triple_click']);
/** computer actions that only look or wait. */
const NOT_ACTING = new Set(['screenshot', 'zoom', 'wait']);

/** A call as the question names it, beside the facts the policy reads. */
interface Described {
  planned: PlannedAction;
  /** "left_click on button "Buy now"" */
  what: string;
}

/**
 * Asks the person first when the policy says so; returns when the call may go on, throws not_confirmed otherwise.
 * `acting`: the call changes something (no look, no wait). Costs nothing without --confirm-actions.
 */
export async function askBeforeActing(tool: string, acting: boolean, context: ToolContext, args: Args): Promise<void> {
  const policy = confirmPolicy(context.options);
  if (!policy || !acting || (tool === 'computer' && NOT_ACTING.has(textArg(args, 'action') ?? ''))) return;
  const tab = 'tab' in context ? (context as TabToolContext).tab : null;
  const described = await describeCall(tool, args, tab);
  const kinds = matchedKinds(policy, described.planned);
  if (kinds.length === 0) return;
  await ask(context, tool, described, kinds);
}

/**
 * The same, for a tool that asks at its own point (file_upload: once its paths and its input are checked): the
 * planned action is the tool's, the rest as above.
 */
export async function askBeforeUpload(context: TabToolContext, ref: string): Promise<void> {
  const policy = confirmPolicy(context.options);
  if (!policy) return;
  const summary = await resolveRef(context.tab, ref);
  const described: Described = { planned: { pageUrl: context.tab.lastUrl, upload: true }, what: `file_upload into ${named(summary)}` };
  const kinds = matchedKinds(policy, described.planned);
  if (kinds.length) await ask(context, 'file_upload', described, kinds);
}

async function ask(context: ToolContext, tool: string, described: Described, kinds: ConfirmKind[]): Promise<void> {
  const origin = originOf(described.planned.pageUrl);
  const what = described.what.replace(/\s+/g, ' ').trim();
  // The tool is named where the action alone does not say it ("left_click ..." is computer's).
  const by = what.startsWith(tool) ? '' : `${tool}; `;
  const message = escapeControls(`Allow ${what}${origin ? ` on ${origin}` : ''}? (${by}--confirm-actions ${kinds.join(', ')})`);
  const seconds = context.options.confirmTimeout;
  const answer = await context.services.confirm({ message, timeoutMs: seconds * 1000 });
  if (answer === 'yes') return;
  const asked = answer === 'unavailable' ? 'The question would have been' : 'Asked';
  throw new ToolError('not_confirmed', `${refusal(answer, seconds)} Nothing was done. ${asked}: ${message}`, { answer, kinds });
}

function refusal(answer: Exclude<ConfirmAnswer, 'yes'>, seconds: number): string {
  switch (answer) {
    case 'no':
      return 'The person answered no.';
    case 'dismissed':
      return 'The question was dismissed without an answer.';
    case 'timeout':
      return `No answer came within ${seconds} s (--confirm-timeout).`;
    case 'unavailable':
      return 'This server asks a person before such actions (--confirm-actions), and no person could be asked: the MCP client does not support elicitation.';
  }
}

/** What the call is about to do, read without doing it; the normal checks (a ref that resolves, keys that parse) come first. */
async function describeCall(tool: string, args: Args, tab: TabHandle | null): Promise<Described> {
  const pageUrl = tab?.lastUrl;
  if (tool === 'navigate' && tab && typeof args['url'] === 'string') {
    const url = args['url'];
    if (url === 'back' || url === 'forward') return { planned: { pageUrl }, what: `going ${url} in the tab's history` };
    const toUrl = normalizeUrl(url);
    return { planned: { pageUrl, toUrl }, what: `loading ${toUrl}` };
  }
  if (tool === 'computer' && tab) return describeComputer(args, tab);
  if (typeof args['ref'] === 'string' && tab) {
    const summary = await resolveRef(tab, args['ref']);
    return { planned: { pageUrl }, what: `${tool} on ${named(summary)}` };
  }
  return { planned: pageUrl === undefined ? {} : { pageUrl }, what: tool };
}

async function describeComputer(args: Args, tab: TabHandle): Promise<Described> {
  const action = textArg(args, 'action') ?? '';
  const pageUrl = tab.lastUrl;
  const ref = typeof args['ref'] === 'string' ? args['ref'] : undefined;
  const coordinate = Array.isArray(args['coordinate']) ? (args['coordinate'] as [number, number]) : undefined;
  if (CLICKS.has(action)) {
    const click = await targetOf(tab, ref, coordinate);
    return { planned: { pageUrl, click }, what: `${action} ${where(click, coordinate)}` };
  }
  if (action === 'key' && typeof args['text'] === 'string') {
    const chords = parseKeySequence(args['text']);
    const enter = chords.some((chord) => chord.key === ENTER);
    const space = chords.some((chord) => chord.key === SPACE);
    const target = enter || space ? await targetOf(tab, undefined, undefined) : null;
    return { planned: { pageUrl, keys: { target, enter, space } }, what: `key "${pageLine(args['text'], 40)}" ${where(target, undefined, 'in')}` };
  }
  if (action === 'type' && typeof args['text'] === 'string') {
    // A line break is typed as Enter, which submits the form of a field.
    const enter = /[\r\n]/.test(args['text']);
    const target = enter || ref ? await targetOf(tab, ref, undefined) : null;
    return { planned: { pageUrl, keys: { target, enter, space: false } }, what: `type ${enter ? 'text ending a line (Enter) ' : ''}${where(target, undefined, 'into')}` };
  }
  const target = ref ? await targetOf(tab, ref, undefined) : null;
  return { planned: { pageUrl }, what: `${action} ${where(target, coordinate)}` };
}

/** The control a ref (resolved first: ref_stale as ever), a point or the focus would act on. */
async function targetOf(tab: TabHandle, ref: string | undefined, coordinate: [number, number] | undefined): Promise<TargetFacts | null> {
  if (ref) return describeActionTarget(tab, { ref: (await resolveRef(tab, ref)).target });
  if (coordinate) return describeActionTarget(tab, { point: { x: coordinate[0], y: coordinate[1] } });
  return describeActionTarget(tab, { focused: true });
}

function where(target: TargetFacts | null, coordinate: [number, number] | undefined, preposition = 'on'): string {
  const at = coordinate ? ` at (${Math.round(coordinate[0])}, ${Math.round(coordinate[1])})` : '';
  if (!target) return at ? at.trim() : preposition === 'on' ? '' : `${preposition} the focused element`;
  if (target.frame) return `${preposition} an element inside a frame${at}`;
  return `${preposition} ${named(target)}${at}`;
}

function named(target: { role: string; name: string }): string {
  // One line: what a page wrote into a name cannot add lines, controls or bidi overrides to the question.
  return target.name ? `${target.role} "${pageLine(target.name, 80)}"` : target.role;
}

function textArg(args: Args, name: string): string | undefined {
  const value = args[name];
  return typeof value === 'string' ? value : undefined;
}

function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? url.split(/[?#]/)[0]!.slice(0, 60) : origin;
  } catch {
    return null;
  }
}

