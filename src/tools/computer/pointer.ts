// Clicks, hover and drag: mouse input at a coordinate or at a guarded ref, with modifiers held.
import { parseModifiers } from '../../browser/input/keys.js';
import { withModifiers } from '../../browser/input/keyboard.js';
import { dragActions, mouseSource, type Button } from '../../browser/input/pointer.js';
import { aim, assertInViewport, dispatch, newToken, type Probes } from '../../browser/action-engine.js';
import { click as clickAt, hover as hoverAt, type Pressed } from '../../browser/press.js';
import type { ActionHandler, ComputerArgs } from '../computer.js';
import { actionResult } from './result.js';

const CLICKS: Record<string, { button: Button; count: number }> = {
  left_click: { button: 0, count: 1 },
  right_click: { button: 2, count: 1 },
  double_click: { button: 0, count: 2 },
  triple_click: { button: 0, count: 3 },
};

/** The reply of a click or hover: whether the input arrived, or the press held back and why. */
function pointerResult(args: ComputerArgs, { target, dispatched, refused }: Pressed, modifiers: string[]) {
  return actionResult({
    action: args.action,
    ref: target.ref,
    target: target.preparation.aim?.target,
    point: target.point,
    preparation: target.preparation,
    dispatched,
    verdicts: target.probed && !refused ? [{ what: 'the input', report: dispatched.conclusion?.delivery }] : [],
    details: modifiers.length && !refused ? [`Held: ${modifiers.join('+')}.`] : undefined,
    ...(refused ? { refused } : {}),
  });
}

const click: ActionHandler = async (context, args) => {
  const modifiers = parseModifiers(args.modifiers);
  return pointerResult(args, await clickAt(context, args, { ...CLICKS[args.action]!, modifiers }), modifiers);
};

const hover: ActionHandler = async (context, args) => {
  const modifiers = parseModifiers(args.modifiers);
  return pointerResult(args, await hoverAt(context, args, modifiers), modifiers);
};

/** A drag ends in a release; under an HTML5 drag Firefox's drag session swallows it, and the drop is the end. */
const DRAG_END = ['pointerup', 'mouseup', 'dragover', 'drop', 'dragend'];

/**
 * Press at start_coordinate (or where the pointer is), move in steps, release at coordinate / ref. Delivered
 * means the press reached the element under the start and the release reached the end's document (a pointer-
 * capturing slider gets it on its thumb, not under the end point) or the HTML5 drag ended in a drop there.
 */
const drag: ActionHandler = async (context, args) => {
  const { tab } = context;
  const modifiers = parseModifiers(args.modifiers);
  const start = args.start_coordinate ? assertInViewport(context, args.start_coordinate, 'start_coordinate') : tab.pointer;
  const token = newToken();
  // The end is aimed (and guarded) first; the probes watch the document of the end point.
  const probes: Probes = { watch: DRAG_END, need: [], dragWatch: true, startWatch: { point: start, types: ['pointerdown'] } };
  const end = await aim(context, args, token, probes);
  // Inside one frame the whole drag goes to that frame's document; across documents it is sent from the top.
  const sameFrame = end.inputContext !== tab.context && end.startContext === end.context;
  const offset = { x: end.point.x - end.framePoint.x, y: end.point.y - end.framePoint.y };
  const path = sameFrame ? dragActions({ x: start.x - offset.x, y: start.y - offset.y }, end.framePoint) : dragActions(start, end.point);
  const actions = withModifiers(mouseSource(path), modifiers);
  const inputContext = sameFrame || end.inputContext === tab.context ? end.inputContext : tab.context;
  const dispatched = await dispatch(context, { ...end, inputContext }, [actions], { token, need: [], startNeed: ['pointerdown'], dragEnd: end.framePoint });
  tab.movePointer(end.point);
  const conclusion = dispatched.conclusion;
  const drop = conclusion?.drag;
  const details = [`From (${Math.round(start.x)}, ${Math.round(start.y)}).`];
  if (drop?.html5 === 'completed') details.push(`HTML5 drag: the server fired drop on ${drop.dropTarget} and dragend (Firefox ends synthesized drags without a drop).`);
  if (drop?.html5 === 'refused') details.push(`HTML5 drag: ${drop.dropTarget} did not accept the drop (its dragover was not cancelled); dragleave and dragend fired.`);
  if (drop?.html5 === 'dropped') details.push('HTML5 drag: Firefox dropped it.');
  if (modifiers.length) details.push(`Held: ${modifiers.join('+')}.`);
  // The release counts wherever it landed in the end's document; the press must reach the start's element.
  const released = conclusion?.delivery;
  const endReport = released && { ...released, delivered: released.seen.length > 0 || (released.stray ?? []).some((type) => DRAG_END.includes(type)) || drop?.html5 === 'completed' };
  const startKnown = end.startProbed !== false && end.probed;
  const result = actionResult({
    action: args.action,
    ref: end.ref,
    target: end.preparation.aim?.target,
    point: end.point,
    preparation: end.preparation,
    dispatched,
    verdicts: startKnown ? [{ what: 'the release', report: endReport }, { what: 'the press', report: conclusion?.startDelivery }] : [],
    details,
    extra: drop && drop.html5 !== 'none' ? { note: `html5 drop ${drop.html5}${drop.html5 === 'completed' ? ' (drop and dragend fired by the server)' : ''}` } : undefined,
  });
  return result;
};

export const pointerHandlers = {
  left_click: click,
  right_click: click,
  double_click: click,
  triple_click: click,
  hover,
  left_click_drag: drag,
} satisfies Record<string, ActionHandler>;
