// Aiming an action: the ref looked up and guarded (hit-tested, gated through each parent frame), or a point followed
// down into frames, or the focused element for keys; the probes armed where the events will land, and the delta
// started, all in the one page call before the input (one more per frame level).
import { randomUUID } from 'node:crypto';
import type { ActionPreparation, PrepareArgs } from '../../contract/index.js';
import type { Point } from './input/pointer.js';
import { ToolError, isToolError } from '../../errors.js';
import type { Tab } from '../tab/tab.js';
import { tabOf, type TabHandle } from '../tab/handle.js';
import { DeltaWatch } from '../observe/delta.js';
import { walkDown, walkUp } from '../tab/frames.js';


/** The tab an action works on, as the engine drives it (inside src/browser). */
export interface ActionScope {
  tab: Tab;
}

/** What a tool hands the engine: its context, of which the engine reads only the tab (a TabHandle). */
export interface HandleScope {
  readonly tab: TabHandle;
}

/** The engine's entrances take a tool's scope and narrow its handle to the Tab here, once. */
export function engineScope(scope: HandleScope): ActionScope {
  return { tab: tabOf(scope.tab) };
}

/** Where an action aims: an element ref, or a top-level viewport point. */
export interface AimArgs {
  ref?: string;
  coordinate?: readonly [number, number];
}

export interface Aim {
  /** The browsing context whose document holds the target. */
  context: string;
  /** Top-level viewport point the pointer goes to. */
  point: Point;
  /** The same point in the target frame's viewport. */
  framePoint: Point;
  /**
   * Where input is sent: the target's own context when it is a frame (Firefox does not route synthesized input
   * from the top-level document into an out-of-process iframe), with `framePoint`; else the top-level one.
   */
  inputContext: string;
  ref?: string;
  refArgs?: { docId: string; localId: number };
  /** The target document's answer (aim, url, title). */
  preparation: ActionPreparation;
  /** Watches what the action changes (the snapshot delta). */
  delta: DeltaWatch;
  /** False when the events' document could not be reached (a frame not mapped): delivery is then unknown. */
  probed: boolean;
  /** Where the drag's start probe was armed, if it was. */
  startContext?: string;
  /**
   * The ref is an iframe: input and probes are in the frame's document (`context`), which holds no element of the
   * ref, so checks by ref (the press check, typing's focus check) do not apply there.
   */
  intoFrame?: true;
  /** False when the drag's start lies on an iframe (its press goes to a document not watched). */
  startProbed?: boolean;
}

export interface Probes {
  /** Trusted event types to watch at the target, and those that must all arrive to count as delivered. */
  watch: string[];
  need: string[];
  scrollProbe?: boolean;
  dragWatch?: boolean;
  /** Key events to watch at whatever holds focus when they arrive. */
  focusWatch?: string[];
  /** Typing: every key must reach the ref's element (PrepareArgs.focusPin). */
  focusPin?: boolean;
  /** Events to watch at the element under the drag's start point (top-level viewport). */
  startWatch?: { point: Point; types: string[] };
  /** A press by ref: press events that would reach another control are stopped in the page (PrepareArgs.pressGate). */
  pressGate?: true;
}

export function newToken(): string {
  return randomUUID();
}

export function assertInViewport(context: ActionScope, point: readonly [number, number], field: string): Point {
  const { width, height } = context.tab.viewport;
  const [x, y] = point;
  if (x < 0 || y < 0 || x >= width || y >= height) {
    throw new ToolError('out_of_viewport', `${field} (${x}, ${y}) is outside the ${width}x${height} viewport; nothing was done. Scroll first or aim by ref.`, {
      field,
      viewport: { width, height },
    });
  }
  return { x, y };
}

function prepareArgs(token: string, probes: Probes): PrepareArgs {
  return {
    token,
    watch: probes.watch,
    ...(probes.scrollProbe ? { scrollProbe: true } : {}),
    ...(probes.dragWatch ? { dragWatch: true } : {}),
    ...(probes.focusWatch ? { focusWatch: probes.focusWatch } : {}),
    ...(probes.focusPin ? { focusPin: true } : {}),
    ...(probes.pressGate ? { pressGate: true } : {}),
  };
}

/**
 * Aims at `ref` (resolved, unhidden, scrolled into view, hit-tested, and for a frame also hit-tested in each
 * parent) or at `coordinate` (used as given; over an iframe, the probes go into the frame's document), arms the
 * probes and starts the delta. Throws the guard's error with nothing dispatched.
 */
export async function aim(context: ActionScope, args: AimArgs, token: string, probes: Probes, field = 'coordinate'): Promise<Aim> {
  const { tab } = context;
  if (args.ref && args.coordinate) throw new ToolError('invalid_arguments', 'coordinate: give coordinate or ref, not both.', { field: 'coordinate' });
  // Typing by ref (keys follow the click): its change is the field's value, so the delta reads it as keys'.
  const delta = new DeltaWatch(tab, probes.focusWatch ? { keys: true } : {});
  // Sent now, answered while the aim's own calls run: the frames a click here may change (an editor's body).
  const frames = delta.watchFrames();
  frames.catch(() => undefined);
  const start = probes.startWatch;
  let result: Aim;
  let topPreparation: ActionPreparation;
  if (args.ref) {
    const ref = args.ref;
    const target = tab.refs.lookup(ref, tab.id);
    const refArgs = { docId: target.docId, localId: target.localId };
    if (!tab.contexts.has(target.frameContext)) {
      throw new ToolError('ref_stale', `${ref}: its frame no longer exists. Call read_page or find for current refs.`, { reason: 'other_document', ref });
    }
    const inTop = target.frameContext === tab.context;
    const prepare: PrepareArgs = { ...prepareArgs(token, probes), ref: refArgs, delta: delta.startArgs, ...(inTop && start ? { startWatch: start } : {}) };
    const preparation = await tab.callPage('prepareAction', prepare, { context: target.frameContext }).catch((error: unknown) => {
      throw withRef(error, ref);
    });
    delta.joinedStart(target.frameContext, preparation.delta);
    // Only a press (checked after the pointer's arrival) or a hover may aim through a tooltip; a wheel or a drag's
    // end there would land on the tooltip.
    if (preparation.aim?.throughTooltip && !probes.need.includes('pointerdown') && !probes.need.includes('pointermove')) {
      throw new ToolError('target_occluded', `${ref}: it is covered by a tooltip; nothing was dispatched. Hover somewhere else first, so that it goes.`, { ref, covered_by: 'tooltip' });
    }
    const framePoint = preparation.aim!.point;
    let point = framePoint;
    topPreparation = preparation;
    if (!inTop) ({ point, top: topPreparation } = await gateUp(context, target.frameContext, framePoint, token, delta, ref, start, probes.pressGate));
    result = { context: target.frameContext, point, framePoint, inputContext: target.frameContext, ref, refArgs, preparation, delta, probed: true, ...(start ? { startContext: tab.context } : {}) };
    if (preparation.aim?.frame) {
      // The ref is an iframe: its press lands in the frame's document (a rich-text editor's body); watch it there.
      const inner = await descend(context, target.frameContext, preparation, framePoint, (innerPoint) => ({
        ...prepareArgs(token, probes),
        point: innerPoint,
        delta: delta.startArgs,
      }));
      if (inner.context !== target.frameContext) delta.joinedStart(inner.context, inner.preparation.delta);
      result = { ...result, context: inner.context, framePoint: inner.point, inputContext: inner.context, preparation: inner.preparation, probed: !inner.preparation.aim?.frame, intoFrame: true };
    }
    if (!inTop && start && topPreparation.startOnFrame) {
      // The drag starts over the frame too: watch its press there (one more call; drags only).
      const offset = { x: point.x - framePoint.x, y: point.y - framePoint.y };
      const startWatch = { point: { x: start.point.x - offset.x, y: start.point.y - offset.y }, types: start.types };
      const again = await tab.callPage('prepareAction', { token, startWatch }, { context: target.frameContext });
      if (!again.startOnFrame) {
        result.startContext = target.frameContext;
        topPreparation = { ...topPreparation, startOnFrame: undefined };
      }
    }
  } else {
    if (!args.coordinate) throw new ToolError('invalid_arguments', `${field}: give coordinate or ref.`, { field });
    const point = assertInViewport(context, args.coordinate, field);
    const prepare: PrepareArgs = { ...prepareArgs(token, probes), point, delta: delta.startArgs, ...(start ? { startWatch: start } : {}) };
    topPreparation = await tab.callPage('prepareAction', prepare);
    delta.joinedStart(tab.context, topPreparation.delta);
    // A drag whose start also lies over the frame: its press is watched in the frame's document too.
    const startInFrames = start && topPreparation.startOnFrame;
    const inner = await descend(context, tab.context, topPreparation, point, (framePoint) => ({
      ...prepareArgs(token, probes),
      point: framePoint,
      delta: delta.startArgs,
      ...(startInFrames ? { startWatch: { point: { x: start.point.x - (point.x - framePoint.x), y: start.point.y - (point.y - framePoint.y) }, types: start.types } } : {}),
    }));
    if (inner.context !== tab.context) delta.joinedStart(inner.context, inner.preparation.delta);
    const startHere = startInFrames && inner.context !== tab.context && !inner.preparation.startOnFrame;
    result = {
      context: inner.context,
      point,
      framePoint: inner.point,
      inputContext: inner.context,
      preparation: inner.preparation,
      delta,
      probed: !inner.preparation.aim?.frame,
      ...(start ? { startContext: startHere ? inner.context : tab.context } : {}),
    };
    if (startHere) topPreparation = { ...topPreparation, startOnFrame: undefined };
  }
  // The top-level document is started with the aim's call or the gate's; a frame-only start covers it here.
  await Promise.all([delta.startIn([tab.context]), frames]);
  if (topPreparation.hidden) await tab.bringToFront();
  if (start) result.startProbed = !topPreparation.startOnFrame;
  return result;
}

/**
 * The aim of a type into a field of the top-level document that the last type left focus in (typing's fast path):
 * nothing is asked before the keys. The page call's arguments, sent with the keys (`gateKeys`: the page closes its
 * key gate when the field lost focus or the guard refuses), the delta's watch, and the Aim once the page has answered.
 * Null when the ref is in a frame.
 */
export function aimAlong(
  context: ActionScope,
  ref: string,
  token: string,
  watch: string[],
  gateKeys: number,
): { prepare: PrepareArgs; delta: DeltaWatch; aimAt: (point: Point, preparation: ActionPreparation) => Aim } | null {
  const { tab } = context;
  const found = tab.refs.lookup(ref, tab.id);
  if (found.frameContext !== tab.context) return null;
  const delta = new DeltaWatch(tab, { keys: true });
  const refArgs = { docId: found.docId, localId: found.localId };
  // No click watch: the field has focus, only the keys are judged.
  const prepare: PrepareArgs = { token, focusWatch: watch, focusPin: true, ref: refArgs, delta: delta.startArgs, gateKeys };
  delta.joinedStart(tab.context, { docId: found.docId });
  const aimAt = (point: Point, preparation: ActionPreparation): Aim => ({ context: tab.context, point, framePoint: point, inputContext: tab.context, ref, refArgs, preparation, delta, probed: true });
  return { prepare, delta, aimAt };
}

/**
 * Follows a point that lands on an iframe into the frame's document (and further down), arming the probes
 * there: events at that point go to the innermost document, not to the iframe element.
 */
async function descend(
  context: ActionScope,
  from: string,
  preparation: ActionPreparation,
  point: Point,
  build: (framePoint: Point) => PrepareArgs,
): Promise<{ context: string; point: Point; preparation: ActionPreparation }> {
  const { tab } = context;
  const { at } = await walkDown(
    tab,
    { context: from, point, preparation },
    (at) => (at.preparation.aim?.frame ? { docId: at.preparation.aim.docId, id: at.preparation.aim.frame.id } : undefined),
    async (child, at) => {
      const origin = at.preparation.aim!.frame!.origin;
      const framePoint = { x: at.point.x - origin.x, y: at.point.y - origin.y };
      return { context: child, point: framePoint, preparation: await tab.callPage('prepareAction', build(framePoint), { context: child }) };
    },
  );
  return at;
}

/**
 * Arms the key probe where key events will go: the focused element of the top-level document, or of the frame
 * that holds focus (followed down), and starts the delta there. One page call when focus is in the top document.
 * `probed` is false when the focused frame's document could not be reached.
 */
export async function aimAtFocus(
  context: ActionScope,
  token: string,
  delta: DeltaWatch,
  watch: string[],
  pin = false,
): Promise<{ context: string; preparation: ActionPreparation; probed: boolean }> {
  const { tab } = context;
  const args = { token, focusWatch: watch, delta: delta.startArgs, ...(pin ? { focusPin: true } : {}) };
  const top = await tab.callPage('prepareAction', args);
  delta.joinedStart(tab.context, top.delta);
  const { at, lost } = await walkDown(
    tab,
    { context: tab.context, preparation: top },
    (at) => at.preparation.focusFrame,
    async (child) => {
      const inner = await tab.callPage('prepareAction', args, { context: child });
      delta.joinedStart(child, inner.delta);
      return { context: child, preparation: inner };
    },
  );
  if (top.hidden) await tab.bringToFront();
  return { ...at, probed: !lost };
}

/**
 * The parents' half of the guard for a target inside a frame: in each parent up to the top, the iframe must show
 * the point (scrolled into view if needed) with nothing of the parent drawn over it. The top-level call also
 * starts the delta there. Returns the top-level point.
 */
async function gateUp(
  context: ActionScope,
  frameContext: string,
  framePoint: Point,
  token: string,
  delta: DeltaWatch,
  ref: string,
  start: Probes['startWatch'],
  pressGate?: true,
): Promise<{ point: Point; top: ActionPreparation }> {
  const { tab } = context;
  let point = framePoint;
  let top: ActionPreparation | undefined;
  try {
    await walkUp(
      tab,
      frameContext,
      async (parent, link) => {
        const atTop = parent === tab.context;
        const prepare: PrepareArgs = {
          token,
          gate: { frame: { docId: link.docId, localId: link.id }, point },
          ...(pressGate ? { pressGate } : {}),
          ...(atTop ? { delta: delta.startArgs, ...(start ? { startWatch: start } : {}) } : {}),
        };
        const answer = await tab.callPage('prepareAction', prepare, { context: parent });
        if (!answer.gate) return false;
        if (atTop) {
          delta.joinedStart(parent, answer.delta);
          top = answer;
        }
        point = answer.gate.point;
        return true;
      },
      (what) =>
        new ToolError('ref_stale', what === 'frame' ? 'its frame no longer exists. Call read_page or find for current refs.' : 'the iframe holding it is gone from its page.', {
          reason: 'other_document',
        }),
    );
  } catch (error) {
    throw withRef(error, ref);
  }
  if (!top) throw withRef(new ToolError('ref_stale', 'the iframe holding it is gone from its page.', { reason: 'other_document' }), ref);
  return { point, top };
}

export function withRef(error: unknown, ref: string): unknown {
  if (isToolError(error) && ['ref_stale', 'ref_hidden', 'target_occluded'].includes(error.code)) {
    return new ToolError(error.code, `${ref}: ${error.message}`, { ...error.details, ref });
  }
  return error;
}
