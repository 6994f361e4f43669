// The action engine's mouse API by intent: a tool says what to press, where and how many times (click), where to rest
// the pointer (hover) or which way to turn the wheel how far (wheel); the engine aims, plans the steps (plan.ts: the
// move alone first when the press must be checked), sends them and reads the probes back (action-engine.ts), and says
// what came of it (report.ts). Drags are drag.ts.
import type { Modifier } from './input/keys.js';
import { withModifiers } from './input/keyboard.js';
import { mouseSource, moveTo, type Button, type Point } from './input/pointer.js';
import { NOTCH_PX, wheelSource, type ScrollDirection } from './input/wheel.js';
import { aim, newToken, type ActionScope, type Aim, type AimArgs, type Probes } from './aim.js';
import { dispatch, type Dispatched } from './action-engine.js';
import { pressSteps, samePoint } from './plan.js';
import { actionReport, type ActionReport } from './report.js';

/** A click's or hover's report: the input's verdict (none when held back or not probed), a press refused or stopped. */
function pressReport(scope: ActionScope, target: Aim, dispatched: Dispatched): ActionReport {
  const { conclusion, refused } = dispatched;
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
  return samePoint(scope.tab.pointer, point);
}

/** Clicks `count` times with `button` at a ref (guarded; the press checked after the pointer's arrival) or a point. */
export async function click(scope: ActionScope, where: AimArgs, how: ClickHow): Promise<ActionReport> {
  const probes: Probes = { ...clickProbes(how.button, how.count), ...(where.ref ? { pressGate: true as const } : {}) };
  const token = newToken();
  const target = await aim(scope, where, token, probes);
  const steps = pressSteps(target, scope.tab.pointer, how.button, how.count, how.modifiers);
  const dispatched = await dispatch(scope, target, { steps, conclude: { token, need: probes.need }, read: { when: 'after' } });
  scope.tab.movePointer(target.point);
  return pressReport(scope, target, dispatched);
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
  const dispatched = await dispatch(scope, target, { steps: [{ input: actions }], conclude: { token, need: HOVER.need }, read: { when: 'after', lingerMs: HOVER_LINGER_MS } });
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
  const dispatched = await dispatch(scope, target, { steps: [{ input: actions }], conclude: { token, need: WHEEL.need, scrollProbe: { expected: notches * NOTCH_PX } }, read: { when: 'after' } });
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
