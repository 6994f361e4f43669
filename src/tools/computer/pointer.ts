// Clicks, hover and drag: mouse input at a coordinate or at a guarded ref, with modifiers held.
import { parseModifiers } from '../../browser/input/keys.js';
import { withModifiers } from '../../browser/input/keyboard.js';
import { clickActions, dragActions, mouseSource, moveTo, type Button } from '../../browser/input/pointer.js';
import type { ActionHandler, ComputerArgs } from '../computer.js';
import type { TabToolContext } from '../tool.js';
import { actionResult } from './result.js';
import { aim, assertInViewport, dispatch, newToken, pointerAt, pressRefused, type Probes } from '../../browser/action-engine.js';

interface ClickKind {
  button: Button;
  count: number;
  probes: Probes;
}

const CLICKS: Record<string, ClickKind> = {
  left_click: { button: 0, count: 1, probes: { watch: ['pointerdown', 'pointerup', 'click'], need: ['pointerdown', 'pointerup'] } },
  right_click: { button: 2, count: 1, probes: { watch: ['pointerdown', 'pointerup', 'contextmenu'], need: ['pointerdown', 'pointerup'] } },
  double_click: { button: 0, count: 2, probes: { watch: ['pointerdown', 'pointerup', 'dblclick'], need: ['pointerdown', 'dblclick'] } },
  triple_click: { button: 0, count: 3, probes: { watch: ['pointerdown', 'pointerup', 'click'], need: ['pointerdown', 'pointerup'] } },
};

/** A hover's delta waits this long for a first change: tooltips and hover menus show after a delay. */
const HOVER_LINGER_MS = 600;

const HOVER: Probes = { watch: ['pointermove', 'pointerover', 'mousemove'], need: ['pointermove'] };

async function pointerAction(
  context: TabToolContext,
  args: ComputerArgs,
  probes: Probes,
  build: (p: { x: number; y: number }) => ReturnType<typeof clickActions>,
  press = false,
) {
  const modifiers = parseModifiers(args.modifiers);
  const token = newToken();
  const target = await aim(context, args, token, probes);
  // A press by ref goes out only after the page's answer to the pointer's arrival was checked (a page can swap
  // what lies under the pointer on hover); the move is then sent alone first.
  // Through a tooltip the press is checked even where the pointer already rests: the tooltip must have gone.
  const split = press && target.ref !== undefined && (!pointerAt(context, target.point) || target.preparation.aim?.throughTooltip === true);
  // A hover where the pointer already rests would move nowhere and fire nothing: it steps a pixel aside and back,
  // so the element gets its pointer events and the reply a real delivery check.
  const resting = args.action === 'hover' && pointerAt(context, target.point);
  const aside = { x: target.framePoint.x > 0 ? target.framePoint.x - 1 : target.framePoint.x + 1, y: target.framePoint.y };
  const path = resting ? [moveTo(aside), ...build(target.framePoint)] : build(target.framePoint);
  const actions = withModifiers(mouseSource(split ? path.slice(1) : path), modifiers);
  let refused: string | undefined;
  const between = async () => !(refused = await pressRefused(context, target));
  const batches = split ? [[mouseSource([moveTo(target.framePoint)])], actions] : [actions];
  const options = { ...(args.action === 'hover' ? { lingerMs: HOVER_LINGER_MS } : {}), ...(split ? { between } : {}) };
  const dispatched = await dispatch(context, target, batches, { token, need: probes.need }, options);
  context.tab.movePointer(target.point);
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

const click: ActionHandler = (context, args) => {
  const kind = CLICKS[args.action]!;
  return pointerAction(context, args, kind.probes, (point) => clickActions(point, kind.button, kind.count), true);
};

const hover: ActionHandler = (context, args) => pointerAction(context, args, HOVER, (point) => [moveTo(point)]);

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
