// The action engine's drag by intent: press at a start point (or where the pointer rests), move in steps, release at
// a ref or a point. The engine aims at the end, watches the press at the start, decides which document the input
// goes to, and says what counts as delivered.
import { aim, assertInViewport, engineScope, newToken, type AimArgs, type HandleScope, type Probes } from './aim.js';
import { dispatch } from './action-engine.js';
import { actionReport, type ActionReport } from './report.js';
import type { Modifier } from './input/keys.js';
import { withModifiers } from './input/keyboard.js';
import { dragActions, mouseSource } from './input/pointer.js';

/** A drag ends in a release; under an HTML5 drag Firefox's drag session swallows it, and the drop is the end. */
const DRAG_END = ['pointerup', 'mouseup', 'dragover', 'drop', 'dragend'];

/**
 * Drags from `from` (start_coordinate; the pointer's resting place if left out) to `to`. Delivered means the press
 * reached the element under the start and the release reached the end's document (a pointer-capturing slider gets it
 * on its thumb, not under the end point) or the HTML5 drag ended in a drop there. Delivery is unknown when the start
 * or the end lies where no probe could be armed.
 */
export async function drag(handle: HandleScope, from: readonly [number, number] | undefined, to: AimArgs, modifiers: Modifier[] = []): Promise<ActionReport> {
  const scope = engineScope(handle);
  const { tab } = scope;
  const start = from ? assertInViewport(scope, from, 'start_coordinate') : tab.pointer;
  const token = newToken();
  // The end is aimed (and guarded) first; the probes watch the document of the end point.
  const probes: Probes = { watch: DRAG_END, need: [], dragWatch: true, startWatch: { point: start, types: ['pointerdown'] } };
  const end = await aim(scope, to, token, probes);
  // Inside one frame the whole drag goes to that frame's document; across documents it is sent from the top.
  const sameFrame = end.inputContext !== tab.context && end.startContext === end.context;
  const offset = { x: end.point.x - end.framePoint.x, y: end.point.y - end.framePoint.y };
  const path = sameFrame ? dragActions({ x: start.x - offset.x, y: start.y - offset.y }, end.framePoint) : dragActions(start, end.point);
  const actions = withModifiers(mouseSource(path), modifiers);
  const inputContext = sameFrame || end.inputContext === tab.context ? end.inputContext : tab.context;
  const conclude = { token, need: [], startNeed: ['pointerdown'], dragEnd: end.framePoint };
  const dispatched = await dispatch(scope, { ...end, inputContext }, { steps: [{ input: actions }], conclude, read: { when: 'after' } });
  tab.movePointer(end.point);
  const conclusion = dispatched.conclusion;
  const released = conclusion?.delivery;
  const release = released && { ...released, delivered: released.seen.length > 0 || (released.stray ?? []).some((type) => DRAG_END.includes(type)) || conclusion?.drag?.html5 === 'completed' };
  const known = end.startProbed !== false && end.probed;
  // The drag's reply has always named the tab's URL for a frame's (inFrame false): kept so.
  return actionReport(
    {
      target: { ref: end.ref, hit: end.preparation.aim?.target, point: end.point, inFrame: false },
      preparation: end.preparation,
      dispatched,
      verdicts: known ? [{ what: 'the release', report: release }, { what: 'the press', report: conclusion?.startDelivery }] : [],
    },
    { start },
  );
}
