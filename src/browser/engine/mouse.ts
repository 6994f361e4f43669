// The action engine's mouse API by intent: a tool says what to press, where and how many times (click), where to rest
// the pointer (hover) or which way to turn the wheel how far (wheel); the engine aims, decides whether the move goes
// out alone so the press can be checked first, sends the input and reads the probes back (action-engine.ts aims and
// sends). Drags are drag.ts.
import type { Modifier } from './input/keys.js';
import { withModifiers } from './input/keyboard.js';
import { clickActions, mouseSource, moveTo, type Button, type InputSource, type Point } from './input/pointer.js';
import { NOTCH_PX, wheelSource, type ScrollDirection } from './input/wheel.js';
import { aim, newToken, type ActionScope, type Aim, type AimArgs, type Probes } from './aim.js';
import { dispatch, type Dispatched } from './action-engine.js';
import { actionReport, type ActionReport } from './report.js';

/** A click's or hover's report: the input's verdict (none when held back or not probed), a press refused or stopped. */
function pressReport(scope: ActionScope, target: Aim, dispatched: Dispatched, refused?: string): ActionReport {
  const conclusion = dispatched.conclusion;
  return actionReport(
    {
      target: { ref: target.ref, hit: target.preparation.aim?.target, point: target.point, inFrame: target.context !== scope.tab.context },
      preparation: target.preparation,
      dispatched,
      verdicts: target.probed && !refused ? [{ what: 'the input', report: conclusion?.delivery }] : [],
    },
    { refused, stopped: conclusion?.pressStopped, kept: conclusion?.releaseKept },
  );
}

export interface ClickHow {
  button: Button;
  /** 1, 2 (double) or 3 (triple). */
  count: number;
  modifiers?: Modifier[];
}

/** What a click watches at its target, and what must arrive for it to count as delivered. */
function clickProbes(button: Button, count: number): Probes {
  if (count === 2) return { watch: ['pointerdown', 'pointerup', 'dblclick'], need: ['pointerdown', 'dblclick'] };
  return { watch: ['pointerdown', 'pointerup', button === 2 ? 'contextmenu' : 'click'], need: ['pointerdown', 'pointerup'] };
}

/** A hover's delta waits this long for a first change: tooltips and hover menus show after a delay. */
const HOVER_LINGER_MS = 600;

const HOVER: Probes = { watch: ['pointermove', 'pointerover', 'mousemove'], need: ['pointermove'] };

/** Whether the pointer already rests on `point` (top-level viewport): moving there fires no hover events. */
export function pointerAt(scope: ActionScope, point: Point): boolean {
  const at = scope.tab.pointer;
  return Math.round(at.x) === Math.round(point.x) && Math.round(at.y) === Math.round(point.y);
}

/**
 * A press by ref goes out only after the page's answer to the pointer's arrival was checked (a page can swap what
 * lies under the pointer on hover), so the move is sent alone first. Through a tooltip the press is checked even
 * where the pointer already rests: the tooltip must have gone.
 */
export function pressNeedsCheck(scope: ActionScope, target: Aim): boolean {
  return target.ref !== undefined && (!pointerAt(scope, target.point) || target.preparation.aim?.throughTooltip === true);
}

/** How long a tooltip over a click's target may take to go once the pointer has left what it was shown for, ms. */
const TOOLTIP_LEAVE_MS = 1_000;

/**
 * For a press aimed by ref, run once the pointer has arrived and before the button goes down: what the page
 * changed in answer to the hover (the element replaced, covered or renamed), or undefined when it is still there.
 */
export async function pressRefused(scope: ActionScope, target: Aim): Promise<string | undefined> {
  const was = target.preparation.aim?.target;
  if (!target.refArgs || !was || target.intoFrame) return undefined;
  const waitMs = target.preparation.aim?.throughTooltip ? TOOLTIP_LEAVE_MS : undefined;
  const check = await scope.tab.callPage('pressCheck', { ref: target.refArgs, point: target.framePoint, was: { role: was.role, name: was.name }, ...(waitMs ? { waitMs } : {}) }, { context: target.context });
  return check.ok ? undefined : check.changed;
}

/** The move alone, for a press that is checked before it goes out. */
export function moveAlone(target: Aim): InputSource[] {
  return [mouseSource([moveTo(target.framePoint)])];
}

/** Clicks `count` times with `button` at a ref (guarded; the press checked after the pointer's arrival) or a point. */
export async function click(scope: ActionScope, where: AimArgs, how: ClickHow): Promise<ActionReport> {
  const probes: Probes = { ...clickProbes(how.button, how.count), ...(where.ref ? { pressGate: true as const } : {}) };
  const token = newToken();
  const target = await aim(scope, where, token, probes);
  const split = pressNeedsCheck(scope, target);
  const path = clickActions(target.framePoint, how.button, how.count);
  const actions = withModifiers(mouseSource(split ? path.slice(1) : path), how.modifiers ?? []);
  let refused: string | undefined;
  const between = async () => !(refused = await pressRefused(scope, target));
  const batches = split ? [moveAlone(target), actions] : [actions];
  const dispatched = await dispatch(scope, target, batches, { token, need: probes.need }, split ? { between } : {});
  scope.tab.movePointer(target.point);
  return pressReport(scope, target, dispatched, refused);
}

/** Rests the pointer on a ref (guarded) or a point, and waits a little for what the hover shows. */
export async function hover(scope: ActionScope, where: AimArgs, modifiers: Modifier[] = []): Promise<ActionReport> {
  const token = newToken();
  const target = await aim(scope, where, token, HOVER);
  // Where the pointer already rests a move would go nowhere and fire nothing: it steps a pixel aside and back, so the
  // element gets its pointer events and the reply a real delivery check.
  const resting = pointerAt(scope, target.point);
  const aside = { x: target.framePoint.x > 0 ? target.framePoint.x - 1 : target.framePoint.x + 1, y: target.framePoint.y };
  const path = resting ? [moveTo(aside), moveTo(target.framePoint)] : [moveTo(target.framePoint)];
  const actions = withModifiers(mouseSource(path), modifiers);
  const dispatched = await dispatch(scope, target, [actions], { token, need: HOVER.need }, { lingerMs: HOVER_LINGER_MS });
  scope.tab.movePointer(target.point);
  return pressReport(scope, target, dispatched);
}

const WHEEL: Probes = { watch: ['wheel'], need: ['wheel'], scrollProbe: true };

/**
 * Turns the wheel `notches` notches over a ref or a point, so the box under it scrolls; the read-back measures how far
 * (`conclusion.scroll`). Firefox delivers wheel events to a background (hidden) tab but does not scroll it: aim
 * brings a hidden tab forward.
 */
export async function wheel(scope: ActionScope, where: AimArgs, direction: ScrollDirection, notches: number, modifiers: Modifier[] = []): Promise<ActionReport> {
  const token = newToken();
  const target = await aim(scope, where, token, WHEEL);
  const actions = withModifiers(wheelSource(target.framePoint, direction, notches), modifiers);
  const dispatched = await dispatch(scope, target, [actions], { token, need: WHEEL.need, scrollProbe: { expected: notches * NOTCH_PX } });
  scope.tab.movePointer(target.point);
  // The wheel's own answer is how far it scrolled (`conclusion.scroll`), not a page scroll beside it. Its reply has
  // always named the tab's URL for a frame's (inFrame false): kept so.
  return actionReport({
    target: { ref: target.ref, hit: target.preparation.aim?.target, point: target.point, inFrame: false },
    preparation: target.preparation,
    dispatched,
    verdicts: target.probed ? [{ what: 'the wheel', report: dispatched.conclusion?.delivery }] : [],
    pageScroll: false,
  });
}
