// type and key: keyboard input to whatever holds focus (type with a ref clicks that field first).
import { chordActions, keySource, textKeys, typeActions } from '../../browser/input/keyboard.js';
import { parseKeySequence } from '../../browser/input/keys.js';
import { clickActions, mouseSource } from '../../browser/input/pointer.js';
import { beginDelta } from '../../browser/delta.js';
import { ToolError } from '../../errors.js';
import type { ActionHandler } from '../computer.js';
import type { TabToolContext } from '../tool.js';
import { actionResult } from './result.js';
import { aim, bringToFront, dispatch, newToken, type Aim } from './run.js';

const KEYS = { watch: ['keydown', 'input'], need: ['keydown'] };
/** Key presses per performActions call, so a long text cannot run into the action timeout. */
const CHUNK = 400;

/** Clicks the field of `ref` first (guarded like any click) and checks it took focus. */
async function focusRef(context: TabToolContext, ref: string): Promise<Aim> {
  const token = newToken();
  const target = await aim(context, { ref }, token, { watch: ['pointerdown', 'pointerup'], need: ['pointerdown'] });
  await dispatch(context, { context: target.context }, [mouseSource(clickActions(target.point, 0, 1))], { token, need: ['pointerdown'] });
  context.tab.pointer = { ...target.point };
  return target;
}

const type: ActionHandler = async (context, args) => {
  if (args.text === undefined || args.text === '') throw new ToolError('invalid_arguments', 'text: type needs the text to enter.', { field: 'text' });
  const keys = textKeys(args.text);
  await bringToFront(context);
  const focused = args.ref ? await focusRef(context, args.ref) : undefined;
  const token = newToken();
  const frame = focused?.context ?? context.tab.context;
  // Delivery follows focus: the keys must arrive at whatever element is focused when they are pressed.
  const [preparation, delta] = await Promise.all([
    context.tab.callPage<{ url: string; title: string }>('prepareAction', { token, watch: KEYS.watch }, { context: frame }),
    beginDelta(context.tab, { frameContext: frame }),
  ]);
  let dispatched: Awaited<ReturnType<typeof dispatch>> = { conclusion: null };
  for (let i = 0; i < keys.length; i += CHUNK) {
    const last = i + CHUNK >= keys.length;
    const actions = [keySource(typeActions(keys.slice(i, i + CHUNK)))];
    if (last) dispatched = await dispatch(context, { context: frame, ref: args.ref, delta }, actions, { token, need: KEYS.need });
    else await context.tab.performActions(actions);
  }
  const focus = dispatched.conclusion?.delivery.focus;
  return actionResult({
    action: 'type',
    ref: args.ref,
    target: focused?.preparation.aim?.target ?? focus,
    preparation,
    dispatched,
    checkDelivery: !focus?.selector.startsWith('iframe'),
    // The field's value line shows what was typed; the count matters only when keys and characters differ.
    details: keys.length === [...args.text].length ? [] : [`Typed ${[...args.text].length} characters (${keys.length} key presses).`],
  });
};

const key: ActionHandler = async (context, args) => {
  if (!args.text?.trim()) throw new ToolError('invalid_arguments', 'text: key needs key names or chords, e.g. "Enter" or "ctrl+a".', { field: 'text' });
  const chords = parseKeySequence(args.text);
  const repeat = args.repeat ?? 1;
  await bringToFront(context);
  const token = newToken();
  const [preparation, delta] = await Promise.all([
    context.tab.callPage<{ url: string; title: string }>('prepareAction', { token, watch: KEYS.watch }),
    beginDelta(context.tab),
  ]);
  const actions = [];
  for (let i = 0; i < repeat; i++) for (const chord of chords) actions.push(...chordActions(chord));
  const dispatched = await dispatch(context, { context: context.tab.context, delta }, [keySource(actions)], { token, need: KEYS.need });
  return actionResult({
    action: 'key',
    target: dispatched.conclusion?.delivery.focus,
    preparation,
    dispatched,
    checkDelivery: !dispatched.conclusion?.delivery.focus?.selector.startsWith('iframe'),
    details: [`Pressed ${chords.map((c) => c.text).join(' ')}${repeat > 1 ? ` x${repeat}` : ''}.`],
  });
};

export const keyboardHandlers = { type, key } satisfies Record<string, ActionHandler>;
