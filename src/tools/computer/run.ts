// The shared path of every input action: aim (guarded), arm the probes, dispatch trusted input, read back.
import { randomUUID } from 'node:crypto';
import type { Input } from 'webdriver-bidi-protocol';
import type { ActionConclusion, ActionPreparation, ConcludeArgs, PrepareArgs } from '../../browser/page-types.js';
import type { Point } from '../../browser/input/pointer.js';
import { ToolError, isToolError } from '../../errors.js';
import type { ComputerArgs } from '../computer.js';
import type { TabToolContext } from '../tool.js';
import { beginDelta, type DeltaHandle, type DeltaOutcome } from '../../browser/delta.js';
import { downloadsDuring, type Download } from '../../browser/downloads.js';
import { frameOffset } from '../../browser/frames.js';

export interface Aim {
  /** The browsing context whose document holds the target. */
  context: string;
  /** Top-level viewport point the pointer goes to. */
  point: Point;
  /** The same point in the target frame's viewport. */
  framePoint: Point;
  ref?: string;
  refArgs?: { docId: string; localId: number };
  preparation: ActionPreparation;
  /** Watches what the action changes (the snapshot delta). */
  delta: DeltaHandle;
}

export interface Probes {
  /** Trusted event types to watch at the target, and those that must all arrive to count as delivered. */
  watch: string[];
  need: string[];
  scrollProbe?: boolean;
  dragWatch?: boolean;
}

const foreground = new WeakMap<object, string>();

/**
 * Makes the tab the active one. Tabs open in the background, and Firefox runs a hidden document's timers at
 * one per second and does not scroll it on wheel input; input itself arrives either way. `always` skips the
 * cache (a page may have raised another tab since).
 */
export async function bringToFront(context: TabToolContext, always = false): Promise<void> {
  const { tab, browserNow } = context;
  if (!always && foreground.get(browserNow) === tab.context) return;
  await tab.race(tab.bidi.send('browsingContext.activate', { context: tab.context }, { timeout: tab.timeouts.action }));
  foreground.set(browserNow, tab.context);
}

export function newToken(): string {
  return randomUUID();
}

export function assertInViewport(context: TabToolContext, point: readonly [number, number], field: string): Point {
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

/**
 * Aims at `ref` (resolved, unhidden, scrolled into view, hit-tested) or at `coordinate` (used as given) and arms
 * the probes in the target's document. Throws the guard's error with nothing dispatched.
 */
export async function aim(context: TabToolContext, args: Pick<ComputerArgs, 'ref' | 'coordinate'>, token: string, probes: Probes, field = 'coordinate'): Promise<Aim> {
  const { tab, browserNow } = context;
  await bringToFront(context);
  if (args.ref && args.coordinate) throw new ToolError('invalid_arguments', 'coordinate: give coordinate or ref, not both.', { field: 'coordinate' });
  if (args.ref) {
    const target = browserNow.refs.lookup(args.ref, tab.id);
    const refArgs = { docId: target.docId, localId: target.localId };
    const prepare: PrepareArgs = { token, ref: refArgs, watch: probes.watch, scrollProbe: probes.scrollProbe, dragWatch: probes.dragWatch };
    if (!browserNow.contexts.has(target.frameContext)) {
      throw new ToolError('ref_stale', `${args.ref}: its frame no longer exists. Call read_page or find for current refs.`, { reason: 'other_document', ref: args.ref });
    }
    // The guard and the delta's observer start together: one round trip.
    const [preparation, delta] = await Promise.all([
      tab.callPage<ActionPreparation>('prepareAction', prepare, { context: target.frameContext }).catch((error: unknown) => {
        throw withRef(error, args.ref!);
      }),
      beginDelta(tab, { frameContext: target.frameContext }),
    ]);
    const framePoint = preparation.aim!.point;
    const offset = target.frameContext === tab.context ? { x: 0, y: 0 } : await frameOffset(tab, target.frameContext);
    return { context: target.frameContext, point: { x: framePoint.x + offset.x, y: framePoint.y + offset.y }, framePoint, ref: args.ref, refArgs, preparation, delta };
  }
  if (!args.coordinate) throw new ToolError('invalid_arguments', `${field}: give coordinate or ref.`, { field });
  const point = assertInViewport(context, args.coordinate, field);
  const prepare: PrepareArgs = { token, point, watch: probes.watch, scrollProbe: probes.scrollProbe, dragWatch: probes.dragWatch };
  const [preparation, delta] = await Promise.all([tab.callPage<ActionPreparation>('prepareAction', prepare), beginDelta(tab)]);
  return { context: tab.context, point, framePoint: point, preparation, delta };
}

function withRef(error: unknown, ref: string): unknown {
  if (isToolError(error) && ['ref_stale', 'ref_hidden', 'target_occluded'].includes(error.code)) {
    return new ToolError(error.code, `${ref}: ${error.message}`, { ...error.details, ref });
  }
  return error;
}

export interface Dispatched {
  conclusion: ActionConclusion | null;
  delta?: DeltaOutcome;
  /** A dialog the action opened; the action itself happened. */
  dialog?: string;
  /** Downloads the action started, finished (or said to be still running). */
  downloads?: Download[];
}

/** Sends the input, then reads the probes back in the same frame. A dialog the input raised is an outcome, not a failure. */
export async function dispatch(
  context: TabToolContext,
  target: Pick<Aim, 'context' | 'ref'> & { delta?: DeltaHandle },
  actions: Input.SourceActions[],
  conclude: ConcludeArgs,
): Promise<Dispatched> {
  const { tab } = context;
  try {
    // A click on a download link is a navigation whose response is a file: the action then says where it went.
    const { result, downloads, pageLoaded } = await downloadsDuring(
      tab,
      async () => {
        await tab.performActions(actions);
        return Promise.all([
          tab.callPage<ActionConclusion>('concludeAction', conclude, { context: target.context }).catch((error: unknown) => {
            // The frame went away with a navigation the action caused: nothing left to read.
            if (isToolError(error, 'tab_closed') && !tab.isClosed) return null;
            throw error;
          }),
          target.delta?.finish({ targetRef: target.ref }),
        ]);
      },
      { navigationWaitMs: 2_000 },
    );
    const [conclusion, finished] = result;
    // A navigation that began after the delta had read the old page (a form submission): show the new page.
    const delta = pageLoaded && finished && !finished.navigated && target.delta ? await target.delta.afterNavigation() : finished;
    return { conclusion, delta, ...(downloads.length ? { downloads } : {}) };
  } catch (error) {
    if (isToolError(error, 'dialog_open') && tab.dialog) {
      return { conclusion: null, dialog: `a ${tab.dialog.type} dialog opened: "${tab.dialog.message}" (answer it with firefox_dialog)` };
    }
    // Whatever was left pressed by a failed sequence must not stick to the next action.
    if (!isToolError(error, 'timeout')) await tab.releaseActions();
    throw error;
  }
}
