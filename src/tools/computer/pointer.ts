// Clicks, hover and drag: mouse input at a coordinate or at a guarded ref, with modifiers held.
import { parseModifiers } from '../../browser/input/keys.js';
import { withModifiers } from '../../browser/input/keyboard.js';
import { clickActions, dragActions, mouseSource, moveTo, type Button } from '../../browser/input/pointer.js';
import type { ActionHandler, ComputerArgs } from '../computer.js';
import type { TabToolContext } from '../tool.js';
import { actionResult } from './result.js';
import { aim, assertInViewport, dispatch, newToken, type Probes } from './run.js';

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

const HOVER: Probes = { watch: ['pointermove', 'pointerover', 'mousemove'], need: ['pointermove'] };

async function pointerAction(context: TabToolContext, args: ComputerArgs, probes: Probes, build: (p: { x: number; y: number }) => ReturnType<typeof clickActions>) {
  const modifiers = parseModifiers(args.modifiers);
  const token = newToken();
  const target = await aim(context, args, token, probes);
  const actions = withModifiers(mouseSource(build(target.point)), modifiers);
  const dispatched = await dispatch(context, target, actions, { token, need: probes.need });
  context.tab.pointer = { ...target.point };
  return actionResult({
    action: args.action,
    ref: target.ref,
    target: target.preparation.aim?.target,
    point: target.point,
    preparation: target.preparation,
    dispatched,
    checkDelivery: !target.preparation.aim?.frame,
    details: modifiers.length ? [`Held: ${modifiers.join('+')}.`] : undefined,
  });
}

const click: ActionHandler = (context, args) => {
  const kind = CLICKS[args.action]!;
  return pointerAction(context, args, kind.probes, (point) => clickActions(point, kind.button, kind.count));
};

const hover: ActionHandler = (context, args) => pointerAction(context, args, HOVER, (point) => [moveTo(point)]);

const DRAG: Probes = { watch: ['pointerdown', 'pointerup', 'drop', 'dragend'], need: [], dragWatch: true };

/** Press at start_coordinate (or where the pointer is), move in steps, release at coordinate / ref. */
const drag: ActionHandler = async (context, args) => {
  const { tab } = context;
  const modifiers = parseModifiers(args.modifiers);
  const start = args.start_coordinate ? assertInViewport(context, args.start_coordinate, 'start_coordinate') : { ...tab.pointer };
  const token = newToken();
  // The end is aimed (and guarded) first; the probes watch the document of the end point.
  const end = await aim(context, args, token, DRAG);
  const actions = withModifiers(mouseSource(dragActions(start, end.point)), modifiers);
  const dispatched = await dispatch(context, end, actions, { token, need: [], dragEnd: end.framePoint });
  tab.pointer = { ...end.point };
  const drop = dispatched.conclusion?.drag;
  const details = [`From (${Math.round(start.x)}, ${Math.round(start.y)}).`];
  if (drop?.html5 === 'completed') details.push(`HTML5 drag: dropped on ${drop.dropTarget} (Firefox ends synthesized drags without a drop; the server fired drop/dragend).`);
  if (drop?.html5 === 'refused') details.push(`HTML5 drag: ${drop.dropTarget} did not accept the drop.`);
  if (drop?.html5 === 'dropped') details.push('HTML5 drag: dropped.');
  if (modifiers.length) details.push(`Held: ${modifiers.join('+')}.`);
  const result = actionResult({
    action: args.action,
    ref: end.ref,
    target: end.preparation.aim?.target,
    point: end.point,
    preparation: end.preparation,
    dispatched,
    checkDelivery: false,
    details,
    extra: drop && drop.html5 !== 'none' ? { note: `html5 drop ${drop.html5}` } : undefined,
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
