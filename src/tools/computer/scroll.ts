// scroll: wheel notches over a point (so the box under it moves), measured; scroll_to: a ref brought into view.
import { NOTCH_PX, parseModifiers, perform, scrollIntoView, wheel } from '../../browser/engine/index.js';
import { watchWhile } from '../../browser/observe/index.js';
import { answerLines } from '../page-answer.js';
import { ToolError } from '../../errors.js';
import type { ActionHandler } from '../computer.js';
import { actionReply, summaryText } from '../reply/index.js';

const scroll: ActionHandler = async (context, args) => {
  if (!args.scroll_direction) throw new ToolError('invalid_arguments', 'scroll_direction: required by scroll (up, down, left or right).', { field: 'scroll_direction' });
  const notches = args.scroll_amount ?? 3;
  const modifiers = parseModifiers(args.modifiers);
  const report = await perform(context, wheel(args, args.scroll_direction, notches, modifiers));
  const moved = report.conclusion?.scroll;
  const details: string[] = [];
  let extra = {};
  if (moved?.found) {
    const distance = Math.abs(moved.dx) + Math.abs(moved.dy);
    details.push(
      distance === 0
        ? `Nothing scrolled (${notches} x ${NOTCH_PX} px ${args.scroll_direction}): the boxes under the point are already at their end.`
        : `Scrolled ${moved.box} by ${moved.dx ? `x ${moved.dx}` : ''}${moved.dx && moved.dy ? ', ' : ''}${moved.dy ? `y ${moved.dy}` : ''} px.`,
    );
    extra = { scrolled: { x: moved.dx, y: moved.dy } };
  }
  return actionReply({ action: 'scroll', ok: true, ...extra }, report, details);
};

const scrollTo: ActionHandler = async (context, args) => {
  if (!args.ref) throw new ToolError('invalid_arguments', 'ref: scroll_to needs a ref (from read_page or find).', { field: 'ref' });
  if (args.coordinate) throw new ToolError('invalid_arguments', 'coordinate: scroll_to takes a ref only.', { field: 'coordinate' });
  const frame = context.tab.refs.lookup(args.ref, context.tab.id).frameContext;
  // Watched: what the scroll brought into view (a virtual list renders other rows, its old row refs go stale).
  const { value: where, outcome } = await watchWhile(context.tab, frame, () => scrollIntoView(context, args.ref!));
  const answered = answerLines(outcome);
  const structured = {
    action: 'scroll_to',
    ok: true,
    target: { ref: args.ref, role: where.target?.role, name: where.target?.name },
    ...(outcome?.delta ? { delta: outcome.delta } : {}),
  };
  const head = `scroll_to ${args.ref}: ${summaryText(where.target)} is in view, centre at (${where.point.x}, ${where.point.y}).`;
  return { structured, text: [head, ...answered].join('\n') };
};

export const scrollHandlers = { scroll, scroll_to: scrollTo } satisfies Record<string, ActionHandler>;
