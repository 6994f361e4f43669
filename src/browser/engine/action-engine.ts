// The click engine, the shared path of every input action: aim (aim.ts: guarded, probes armed), dispatch trusted
// input, read back. A pointer action is data (an AimedAction: where, the probes, how its steps follow from the aim, how
// its report reads; mouse.ts makes them) that a tool hands `perform`; drag.ts and typing.ts (click then type, type at
// focus) aim and hand `dispatch` a plan themselves (plan.ts: steps, checks, when to read).
// Round trips are the cost here: one page call before the input (guard + probes + the delta's start) and one
// after (probes + the delta), plus one per frame level when the target is inside an iframe.
import type { ActionConclusion, ConcludeArgs, FocusCheck, PageDelta } from '../../contract/index.js';
import type { InputSource } from './input/pointer.js';
import type { ActionPlan, StepCheck } from './plan.js';
import { ToolError, isToolError } from '../../errors.js';
import type { NavigationEvent, Tab } from '../tab/tab.js';
import type { DeltaOutcome } from '../observe/delta.js';
import { downloadsDuring, type Download } from '../group/downloads.js';
import { aim, engineScope, newToken, type ActionScope, type Aim, type AimArgs, type HandleScope, type Probes } from './aim.js';
import type { Point } from './input/pointer.js';
import type { ActionReport } from './report.js';

export interface Dispatched {
  conclusion: ActionConclusion | null;
  delta?: DeltaOutcome;
  /** A dialog the action opened; the action itself happened. */
  dialog?: string;
  /** Downloads the action started, finished (or said to be still running). */
  downloads?: Download[];
  /** The steps that were sent (a check may stop before the rest). */
  sent: number;
  /** The press check failed: what the page changed when the pointer reached the target. Nothing more was sent. */
  refused?: string;
  /** The focus check's answer: when focus is not on the field, no key was sent. */
  focus?: FocusCheck;
}

/**
 * An action aimed at a ref or a point, held as data: where it aims and what it watches there, the plan that follows
 * from the aim (its steps depend on where the target is and where the pointer rests), and how its report reads.
 */
export interface AimedAction {
  where: AimArgs;
  probes: Probes;
  plan(target: Aim, pointer: Point, token: string): ActionPlan;
  report(target: Aim, dispatched: Dispatched, topContext: string): ActionReport;
}

/** Runs an aimed action: aim, the plan's steps behind their checks, the read-back; the pointer rests at the target. */
export async function perform(scope: HandleScope, action: AimedAction): Promise<ActionReport> {
  const context = engineScope(scope);
  const token = newToken();
  const target = await aim(context, action.where, token, action.probes);
  const dispatched = await dispatch(context, target, action.plan(target, context.tab.pointer, token));
  context.tab.movePointer(target.point);
  return action.report(target, dispatched, context.tab.context);
}

/**
 * How long a frame's read-back waits for the needed events: input into an out-of-process iframe goes through
 * the parent process and can arrive after input.performActions has answered. Only a miss waits this long.
 */
export const FRAME_EVENT_WAIT_MS = 500;

/** After the keys went out: how long the read-back sent with them may still wait for keyups before it is released. */
const RELEASE_AFTER_MS = 5;

/**
 * Runs a plan: sends its steps (each behind its check, if it has one), then reads the probes and the delta back with
 * one page call in the target's document (and one per other watched document), or with the last keys. A dialog the
 * input raised is an outcome, not a failure.
 */
export async function dispatch(
  context: ActionScope,
  target: Pick<Aim, 'context' | 'ref' | 'delta'> & { startContext?: string; inputContext?: string },
  plan: ActionPlan,
): Promise<Dispatched> {
  const { tab } = context;
  const { conclude, read } = plan;
  const batches = plan.steps.map((step) => step.input);
  const checked: Pick<Dispatched, 'refused' | 'focus'> = {};
  let sent = 0;
  let started = false;
  // A new document committed meanwhile: if reading back then times out, the action's effect is known all the same.
  let committed = false;
  const onNavigation = (kind: NavigationEvent[0]) => {
    if (kind === 'committed') committed = true;
  };
  tab.on('navigation', onNavigation);
  try {
    // A click on a download link is a navigation whose response is a file: the action then says where it went.
    const { result, downloads, pageLoaded } = await downloadsDuring(
      tab,
      async () => {
        const lingerMs = read.when === 'after' ? read.lingerMs : undefined;
        const deltaOptions = { targetRef: target.ref, ...(lingerMs ? { lingerMs } : {}) };
        const { startNeed, ...rest } = conclude;
        // The drag's start probe lives in another document than the end's when the end is inside a frame.
        const startElsewhere = startNeed && target.startContext && target.startContext !== target.context;
        const inFrame = target.context !== tab.context;
        const finish = target.delta.finishArgs(target.context, deltaOptions);
        const readBackHere = (extra: Partial<ConcludeArgs> = {}) =>
          readBack(context, target.context, {
            ...rest,
            ...(startNeed && !startElsewhere ? { startNeed } : {}),
            ...(finish ? { delta: finish } : {}),
            ...(inFrame ? { waitMs: FRAME_EVENT_WAIT_MS } : {}),
            ...extra,
          });
        const keyUps = read.when === 'after' ? 0 : keyUpsOf(batches);
        let early: Promise<ActionConclusion | null> | undefined;
        let keysSeen = false;
        for (const [index, step] of plan.steps.entries()) {
          if (step.check && !(await passes(context, step.check, checked))) break;
          started = true;
          const input = tab.performActions(step.input, target.inputContext);
          if (keyUps && index === batches.length - 1) early = read.when === 'along' ? read.answer : readBackHere({ afterKeyUps: keyUps });
          const ended = await heldBy(input, early);
          sent++;
          if (ended === 'keysAllUp') keysSeen = true;
        }
        if (early && !keysSeen) releaseLate(context, target.context, conclude.token, early, inFrame ? FRAME_EVENT_WAIT_MS : RELEASE_AFTER_MS);
        const concluded = early ?? readBackHere();
        const startRead = startElsewhere
          ? readBack(context, target.startContext!, { token: conclude.token, need: [], startNeed, ...(finishArgsFor(target, target.startContext!)) })
          : undefined;
        const joined = new Map<string, Promise<PageDelta | null | undefined>>();
        if (finish) joined.set(target.context, concluded.then((c) => (c ? (c.delta ?? null) : null)));
        if (startRead) {
          const startFinish = finishArgsFor(target, target.startContext!);
          if (startFinish.delta) joined.set(target.startContext!, startRead.then((c) => (c ? (c.delta ?? null) : null)));
        }
        const [conclusion, delta, startConclusion] = await Promise.all([concluded, target.delta.finish({ ...deltaOptions, joined }), startRead]);
        if (conclusion && startConclusion?.startDelivery) conclusion.startDelivery = startConclusion.startDelivery;
        return [conclusion, delta] as const;
      },
      { navigationWaitMs: 2_000, expectsLoad: ([conclusion]) => conclusion?.leaving === true },
    );
    const [conclusion, finished] = result;
    // A navigation that began after the delta had read the old page (a form submission): show the new page.
    const delta = pageLoaded && finished && !finished.navigated ? await target.delta.afterNavigation() : finished;
    return { conclusion, delta, sent, ...checked, ...(downloads.length ? { downloads } : {}) };
  } catch (error) {
    if (isToolError(error, 'dialog_open') && tab.dialog) {
      // The page's watch records on through the dialog: its answer reads what the page did next.
      tab.dialogWatch = { watch: target.delta, ...(target.ref ? { targetRef: target.ref } : {}) };
      return { conclusion: null, sent, ...checked, dialog: `a ${tab.dialog.type} dialog opened: "${tab.dialog.message}" (answer it with firefox_dialog)` };
    }
    // Whatever was left pressed by a failed sequence must not stick to the next action.
    if (!isToolError(error, 'timeout')) await tab.releaseActions(target.inputContext);
    if (started && isToolError(error, 'timeout')) {
      // The action loaded a new page that holds its own main thread: the read-back landed on it and got no answer,
      // but the action is done and where the tab went is known (the reply says the page did not answer).
      if (committed && !tab.isClosed) return { conclusion: null, delta: await target.delta.afterNavigation(), sent, ...checked };
      // Otherwise any silence once input went out (the page hung in its handler) leaves the action's effects unknown.
      throw inputSentTimeout(error);
    }
    throw error;
  } finally {
    tab.off('navigation', onNavigation);
  }
}

/** Runs a step's check (one page call) and keeps its answer; false: the step and the rest are not sent. */
async function passes(context: ActionScope, check: StepCheck, checked: Pick<Dispatched, 'refused' | 'focus'>): Promise<boolean> {
  if (check.kind === 'press') {
    const answer = await context.tab.callPage('pressCheck', check.args, { context: check.context });
    if (!answer.ok && answer.changed) checked.refused = answer.changed;
    return checked.refused === undefined;
  }
  checked.focus = await context.tab.callPage('focusCheck', check.args, { context: check.context });
  return checked.focus.focused;
}

/** Keyups in the batches, or 0 when a key may take the page away (Enter submits, loads): those are read after. */
export function keyUpsOf(batches: InputSource[][]): number {
  let ups = 0;
  for (const source of batches.flat()) {
    if (source.type !== 'key') continue;
    for (const action of source.actions) {
      if (action.type === 'keyDown' && LEAVING_KEYS.has(action.value)) return 0;
      if (action.type === 'keyUp') ups++;
    }
  }
  return ups;
}

/** Enter and Return (WebDriver's key codes) and a newline typed as text. */
const LEAVING_KEYS = new Set(['\uE006', '\uE007', '\n', '\r']);

/**
 * `input` once settled, or sooner: once a read-back sent with the keys saw every keyup they bring in the page
 * ('keysAllUp'). Firefox answers performActions only after one more round trip into the page (`_finalizeAction`),
 * and queues the next performActions behind this one, so the keys are done and nothing of the next action can
 * overtake them. A read-back that fails meanwhile is left to whoever awaits it later.
 */
async function heldBy(input: Promise<void>, early: Promise<ActionConclusion | null> | undefined): Promise<'input' | 'keysAllUp'> {
  // Marked handled now: if the input fails, the read-back's own failure (the same dialog, the same closed tab) is moot.
  early?.catch(() => undefined);
  if (!early) {
    await input;
    return 'input';
  }
  const allUp = early.then(
    (conclusion) => (conclusion?.keysAllUp ? ('keysAllUp' as const) : input.then(() => 'input' as const)),
    () => input.then(() => 'input' as const),
  );
  const ended = await Promise.race([input.then(() => 'input' as const), allUp]);
  // Every key reached the page; Firefox's late answer (or failure) changes nothing of what happened.
  if (ended === 'keysAllUp') input.catch(() => undefined);
  return ended;
}

/**
 * The keys are all out. A read-back still waiting for keyups after `ms` will not see the rest (focus went to another
 * document): tell it to read what it has.
 */
function releaseLate(context: ActionScope, frame: string, token: string, early: Promise<unknown>, ms: number): void {
  let settled = false;
  const done = () => (settled = true);
  early.then(done, done);
  setTimeout(() => {
    if (!settled) void context.tab.callPage('releaseKeys', { token: `${token}:focus` }, { context: frame }).catch(() => undefined);
  }, ms);
}

function inputSentTimeout(error: ToolError): ToolError {
  return new ToolError(
    'timeout',
    `${error.message} The input had been sent, so the action may have happened (the page may be hung by its own handler); it was not sent again. Look (screenshot or read_page) before you retry.`,
    { ...error.details, unknown_effects: true },
  );
}

function finishArgsFor(target: Pick<Aim, 'ref' | 'delta'>, context: string): Pick<ConcludeArgs, 'delta'> {
  const delta = target.delta.finishArgs(context, { targetRef: target.ref });
  return delta ? { delta } : {};
}

function readBack(context: ActionScope, frame: string, args: ConcludeArgs): Promise<ActionConclusion | null> {
  return readingBack(context.tab, frame, context.tab.callPage('concludeAction', args, { context: frame }));
}

/** A page call that reads an action back in `frame`: null when the action took that document away meanwhile. */
export function readingBack<T>(tab: Tab, frame: string, call: Promise<T>): Promise<T | null> {
  const read = call.catch((error: unknown) => {
    // The frame went away with a navigation the action caused: nothing left to read.
    if (isToolError(error, 'tab_closed') && !tab.isClosed) return null;
    throw error;
  });
  // The action's new page replaced the document mid-read: nothing left to read there either.
  return frame === tab.context ? tab.orWhenReplaced(read, null) : read;
}
