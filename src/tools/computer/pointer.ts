// Clicks, hover and drag: mouse input at a coordinate or at a guarded ref, with modifiers held.
import { click as clickAt, drag as dragTo, hover as hoverAt, parseModifiers, perform, type ActionReport, type Button } from '../../browser/engine/index.js';
import type { ActionHandler, ComputerArgs } from '../computer.js';
import { actionReply } from '../reply/index.js';

const CLICKS: Record<string, { button: Button; count: number }> = {
  left_click: { button: 0, count: 1 },
  right_click: { button: 2, count: 1 },
  double_click: { button: 0, count: 2 },
  triple_click: { button: 0, count: 3 },
};

/** The reply of a click or hover: whether the input arrived, or the press held back and why. */
function pointerResult(args: ComputerArgs, report: ActionReport, modifiers: string[]) {
  const details = report.refused ? undefined : [...keptText(report), ...(modifiers.length ? [`Held: ${modifiers.join('+')}.`] : [])];
  return actionReply({ action: args.action, ok: true }, report, details);
}

/** A release the press gate kept from another control the page drew under the pointer after the press. */
function keptText({ kept }: ActionReport): string[] {
  return kept ? [`After the press, ${kept.reason}; the release (${kept.types.join(', ')}) was stopped before the page saw it.`] : [];
}

const click: ActionHandler = async (context, args) => {
  const modifiers = parseModifiers(args.modifiers);
  return pointerResult(args, await perform(context, clickAt(args, { ...CLICKS[args.action]!, modifiers })), modifiers);
};

const hover: ActionHandler = async (context, args) => {
  const modifiers = parseModifiers(args.modifiers);
  return pointerResult(args, await perform(context, hoverAt(args, modifiers)), modifiers);
};

/** left_click_drag: from start_coordinate (or where the pointer rests) to coordinate or ref; the engine says what arrived. */
const drag: ActionHandler = async (context, args) => {
  const modifiers = parseModifiers(args.modifiers);
  const report = await dragTo(context, args.start_coordinate, args, modifiers);
  const drop = report.conclusion?.drag;
  const start = report.start!;
  const details = [`From (${Math.round(start.x)}, ${Math.round(start.y)}).`];
  if (drop?.html5 === 'completed') details.push(`HTML5 drag: the server fired drop on ${drop.dropTarget} and dragend (Firefox ends synthesized drags without a drop).`);
  if (drop?.html5 === 'refused') details.push(`HTML5 drag: ${drop.dropTarget} did not accept the drop (its dragover was not cancelled); dragleave and dragend fired.`);
  if (drop?.html5 === 'dropped') details.push('HTML5 drag: Firefox dropped it.');
  if (modifiers.length) details.push(`Held: ${modifiers.join('+')}.`);
  const note = drop && drop.html5 !== 'none' ? { note: `html5 drop ${drop.html5}${drop.html5 === 'completed' ? ' (drop and dragend fired by the server)' : ''}` } : {};
  return actionReply({ action: args.action, ok: true, ...note }, report, details);
};

export const pointerHandlers = {
  left_click: click,
  right_click: click,
  double_click: click,
  triple_click: click,
  hover,
  left_click_drag: drag,
} satisfies Record<string, ActionHandler>;
