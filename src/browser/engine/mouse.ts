// The action engine's mouse actions by intent, as data: a tool says what to press, where and how many times (click),
// where to rest the pointer (hover) or which way to turn the wheel how far (wheel), and hands the action to `perform`
// (action-engine.ts), which aims, takes the steps from it (plan.ts: the move alone first when the press must be
// checked), sends them, reads the probes back and has it say what came of it (report.ts). Drags are drag.ts.
import type { Modifier } from './input/keys.js';
import { withModifiers } from './input/keyboard.js';
import { mouseSource, moveTo, type Button } from './input/pointer.js';
import { NOTCH_PX, wheelSource, type ScrollDirection } from './input/wheel.js';
import type { Aim, AimArgs, Probes } from './aim.js';
import type { AimedAction, Dispatched } from './action-engine.js';
import { pressSteps, samePoint } from './plan.js';
import { actionReport, type ActionReport } from './report.js';

/** A click's or hover's report: the input's verdict (none when held back or not probed), a press refused or stopped. */
function pressReport(target: Aim, dispatched: Dispatched, topContext: string): ActionReport {
  const { conclusion, refused } = dispatched;
  return actionReport(
    {
      target: { ref: target.ref, hit: target.preparation.aim?.target, point: target.point, inFrame: target.context !== topContext },
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

/** `count` clicks of `button` at a ref (guarded; the press checked after the pointer's arrival) or a point. */
export function click(where: AimArgs, how: ClickHow): AimedAction {
  const probes: Probes = { ...clickProbes(how.button, how.count), ...(where.ref ? { pressGate: true as const } : {}) };
  return {
    where,
    probes,
    plan: (target, pointer, token) => ({ steps: pressSteps(target, pointer, how.button, how.count, how.modifiers), conclude: { token, need: probes.need }, read: { when: 'after' } }),
    report: pressReport,
  };
}

/** The pointer rested on a ref (guarded) or a point, with a little wait for what the hover shows. */
export function hover(where: AimArgs, modifiers: Modifier[] = []): AimedAction {
  return {
    where,
    probes: HOVER,
    plan: (target, pointer, token) => {
      // Where the pointer already rests a move would go nowhere and fire nothing: it steps a pixel aside and back, so
      // the element gets its pointer events and the reply a real delivery check.
      const aside = { x: target.framePoint.x > 0 ? target.framePoint.x - 1 : target.framePoint.x + 1, y: target.framePoint.y };
      const path = samePoint(pointer, target.point) ? [moveTo(aside), moveTo(target.framePoint)] : [moveTo(target.framePoint)];
      return { steps: [{ input: withModifiers(mouseSource(path), modifiers) }], conclude: { token, need: HOVER.need }, read: { when: 'after', lingerMs: HOVER_LINGER_MS } };
    },
    report: pressReport,
  };
}

const WHEEL: Probes = { watch: ['wheel'], need: ['wheel'], scrollProbe: true };

/**
 * The wheel turned `notches` notches over a ref or a point, so the box under it scrolls; the read-back measures how
 * far (`conclusion.scroll`). Firefox delivers wheel events to a background (hidden) tab but does not scroll it: aim
 * brings a hidden tab forward.
 */
export function wheel(where: AimArgs, direction: ScrollDirection, notches: number, modifiers: Modifier[] = []): AimedAction {
  return {
    where,
    probes: WHEEL,
    plan: (target, _pointer, token) => ({
      steps: [{ input: withModifiers(wheelSource(target.framePoint, direction, notches), modifiers) }],
      conclude: { token, need: WHEEL.need, scrollProbe: { expected: notches * NOTCH_PX } },
      read: { when: 'after' },
    }),
    // The wheel's own answer is how far it scrolled (`conclusion.scroll`), not a page scroll beside it. Its reply has
    // always named the tab's URL for a frame's (inFrame false): kept so.
    report: (target, dispatched) =>
      actionReport({
        target: { ref: target.ref, hit: target.preparation.aim?.target, point: target.point, inFrame: false },
        preparation: target.preparation,
        dispatched,
        verdicts: target.probed ? [{ what: 'the wheel', report: dispatched.conclusion?.delivery }] : [],
        pageScroll: false,
      }),
  };
}
