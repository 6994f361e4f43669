// The shared path of every input action: aim (guarded), arm the probes, dispatch trusted input, read back.
import { randomUUID } from 'node:crypto';
import type { Input } from 'webdriver-bidi-protocol';
import type { ActionConclusion, ActionPreparation, ConcludeArgs, PrepareArgs } from '../../browser/page-types.js';
import type { Point } from '../../browser/input/pointer.js';
import { ToolError, isToolError } from '../../errors.js';
import type { ComputerArgs } from '../computer.js';
import type { TabToolContext } from '../tool.js';
import { frameOffset } from './frames.js';

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
}

export interface Probes {
  /** Trusted event types to watch at the target, and those that must all arrive to count as delivered. */
  watch: string[];
  need: string[];
  scrollProbe?: boolean;
  dragWatch?: boolean;
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
  if (args.ref && args.coordinate) throw new ToolError('invalid_arguments', 'coordinate: give coordinate or ref, not both.', { field: 'coordinate' });
  if (args.ref) {
    const target = browserNow.refs.lookup(args.ref, tab.id);
    const refArgs = { docId: target.docId, localId: target.localId };
    const prepare: PrepareArgs = { token, ref: refArgs, watch: probes.watch, scrollProbe: probes.scrollProbe, dragWatch: probes.dragWatch };
    const preparation = await tab.callPage<ActionPreparation>('prepareAction', prepare, { context: target.frameContext }).catch((error: unknown) => {
      throw withRef(error, args.ref!);
    });
    const framePoint = preparation.aim!.point;
    const offset = target.frameContext === tab.context ? { x: 0, y: 0 } : await frameOffset(browserNow, tab, target.frameContext);
    return { context: target.frameContext, point: { x: framePoint.x + offset.x, y: framePoint.y + offset.y }, framePoint, ref: args.ref, refArgs, preparation };
  }
  if (!args.coordinate) throw new ToolError('invalid_arguments', `${field}: give coordinate or ref.`, { field });
  const point = assertInViewport(context, args.coordinate, field);
  const prepare: PrepareArgs = { token, point, watch: probes.watch, scrollProbe: probes.scrollProbe, dragWatch: probes.dragWatch };
  const preparation = await tab.callPage<ActionPreparation>('prepareAction', prepare);
  return { context: tab.context, point, framePoint: point, preparation };
}

function withRef(error: unknown, ref: string): unknown {
  if (isToolError(error) && ['ref_stale', 'ref_hidden', 'target_occluded'].includes(error.code)) {
    return new ToolError(error.code, `${ref}: ${error.message}`, { ...error.details, ref });
  }
  return error;
}

export interface Dispatched {
  conclusion: ActionConclusion | null;
  /** A dialog the action opened; the action itself happened. */
  dialog?: string;
}

/** Sends the input, then reads the probes back in the same frame. A dialog the input raised is an outcome, not a failure. */
export async function dispatch(context: TabToolContext, target: Pick<Aim, 'context'>, actions: Input.SourceActions[], conclude: ConcludeArgs): Promise<Dispatched> {
  const { tab } = context;
  try {
    await tab.performActions(actions);
    const conclusion = await tab.callPage<ActionConclusion>('concludeAction', conclude, { context: target.context }).catch((error: unknown) => {
      // The frame went away with a navigation the action caused: nothing left to read.
      if (isToolError(error, 'tab_closed') && !tab.isClosed) return null;
      throw error;
    });
    return { conclusion };
  } catch (error) {
    if (isToolError(error, 'dialog_open') && tab.dialog) {
      return { conclusion: null, dialog: `a ${tab.dialog.type} dialog opened: "${tab.dialog.message}" (answer it with firefox_dialog)` };
    }
    // Whatever was left pressed by a failed sequence must not stick to the next action.
    if (!isToolError(error, 'timeout')) await tab.releaseActions();
    throw error;
  }
}
