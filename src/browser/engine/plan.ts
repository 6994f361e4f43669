// An aimed action as a plan held as data: the steps of input to send, the check the page must pass before a step goes
// out (the press check, the focus check), and when the probes and the delta are read back. The builders here are pure
// (an aim and where the pointer rests in, a plan out); action-engine.ts's dispatch runs a plan.
import type { ActionConclusion, ConcludeArgs, PageOperations } from '../../contract/index.js';
import type { Aim } from './aim.js';
import { withModifiers } from './input/keyboard.js';
import type { Modifier } from './input/keys.js';
import { clickActions, mouseSource, moveTo, type Button, type InputSource, type Point } from './input/pointer.js';

/** A page call made before a step goes out; the step and those after it go out only if the page says yes. */
export type StepCheck =
  /** The pointer has arrived: is the target still what was aimed at (not replaced, covered or renamed)? */
  | { kind: 'press'; context: string; args: PageOperations['pressCheck']['args'] }
  /** The click is done: is focus on the ref's field (the keys go nowhere else)? */
  | { kind: 'focus'; context: string; args: PageOperations['focusCheck']['args'] };

export interface Step {
  input: InputSource[];
  check?: StepCheck;
}

/** When the probes and the delta are read back. */
export type ReadBack =
  /** After the input; `lingerMs`: wait that long for a first change when there is none yet (a tooltip's delay). */
  | { when: 'after'; lingerMs?: number }
  /**
   * Typing into a pinned field: sent with the last step instead of after it (one round trip less), answered once the
   * page has seen that step's keyups. Keys that may leave the page (Enter) are read after all the same.
   */
  | { when: 'withKeys' }
  /** Already on its way, sent with the page call that went out just before the keys (typing's typeAlong). */
  | { when: 'along'; answer: Promise<ActionConclusion | null> };

export interface ActionPlan {
  steps: Step[];
  conclude: ConcludeArgs;
  read: ReadBack;
}

/** How long a tooltip over a click's target may take to go once the pointer has left what it was shown for, ms. */
export const TOOLTIP_LEAVE_MS = 1_000;

/** Whether the pointer rests on `point` (top-level viewport): moving there fires no hover events. */
export function samePoint(at: Point, point: Point): boolean {
  return Math.round(at.x) === Math.round(point.x) && Math.round(at.y) === Math.round(point.y);
}

/**
 * A press by ref goes out only after the page's answer to the pointer's arrival was checked (a page can swap what
 * lies under the pointer on hover), so the move is sent alone first. Through a tooltip the press is checked even
 * where the pointer already rests: the tooltip must have gone.
 */
export function pressNeedsCheck(pointer: Point, target: Aim): boolean {
  return target.ref !== undefined && (!samePoint(pointer, target.point) || target.preparation.aim?.throughTooltip === true);
}

/** The press check of a target aimed by ref; none for an iframe by ref (its document holds no element of the ref). */
export function pressCheck(target: Aim): StepCheck | undefined {
  const was = target.preparation.aim?.target;
  if (!target.refArgs || !was || target.intoFrame) return undefined;
  const waitMs = target.preparation.aim?.throughTooltip ? TOOLTIP_LEAVE_MS : undefined;
  return { kind: 'press', context: target.context, args: { ref: target.refArgs, point: target.framePoint, was: { role: was.role, name: was.name }, ...(waitMs ? { waitMs } : {}) } };
}

/** The move alone, for a press that is checked before it goes out. */
function moveAlone(target: Aim): InputSource[] {
  return [mouseSource([moveTo(target.framePoint)])];
}

/**
 * A press at the target (`count` clicks of `button`, `modifiers` held): in one step, or, when it must be checked
 * first, the move alone and then the press behind its check.
 */
export function pressSteps(target: Aim, pointer: Point, button: Button, count: number, modifiers: Modifier[] = []): Step[] {
  const path = clickActions(target.framePoint, button, count);
  if (!pressNeedsCheck(pointer, target)) return [{ input: withModifiers(mouseSource(path), modifiers) }];
  const check = pressCheck(target);
  return [{ input: moveAlone(target) }, { input: withModifiers(mouseSource(path.slice(1)), modifiers), ...(check ? { check } : {}) }];
}

/**
 * A type by ref: the click that gives the field focus (unless it has it), then the keys behind the focus check. An
 * iframe by ref gets no focus check: its keys go wherever the click put focus in its document, which the read-back
 * watches. `frameWaitMs`: how long the check waits for focus to arrive in a frame's document.
 */
export function clickThenKeysSteps(target: Aim, pointer: Point, keys: InputSource[][], token: string, frameWaitMs: number, topContext: string): Step[] {
  const typing = target.preparation.typing;
  if (typing?.focused) return keys.map((input) => ({ input }));
  const clicks = pressSteps(target, pointer, 0, 1);
  const caretToEnd = typing?.append === 'selection';
  const waitMs = target.context === topContext ? 0 : frameWaitMs;
  // Aimed by ref, so the target has its element's ids.
  const focus: StepCheck | undefined = target.intoFrame
    ? undefined
    : { kind: 'focus', context: target.context, args: { ref: target.refArgs!, token, waitMs, ...(caretToEnd ? { caretToEnd } : {}) } };
  return [...clicks, ...keys.map((input, index) => ({ input, ...(index === 0 && focus ? { check: focus } : {}) }))];
}
