// Key source actions for chords and for literal text.
import type { Input } from 'webdriver-bidi-protocol';
import { GRAPHEMES, MODIFIER_VALUES, type Chord, type Modifier } from './keys.js';

export const KEYBOARD_ID = 'fu-keyboard';
const ENTER = '\uE007';
const TAB = '\uE004';
/** The End key: puts the caret after a field's text where the field has no selection API. */
export const END_KEY = '\uE010';

/** Presses one chord: modifiers down in order, the key, then everything up in reverse. */
export function chordActions(chord: Chord): Input.KeySourceAction[] {
  const actions: Input.KeySourceAction[] = [];
  const mods = chord.modifiers.map((m) => MODIFIER_VALUES[m]);
  for (const value of mods) actions.push({ type: 'keyDown', value });
  if (chord.key !== null) actions.push({ type: 'keyDown', value: chord.key }, { type: 'keyUp', value: chord.key });
  for (const value of [...mods].reverse()) actions.push({ type: 'keyUp', value });
  return actions;
}

/**
 * Splits text into what one key press each produces: whole grapheme clusters (Firefox takes an emoji with
 * modifiers or joiners as one key value), with newlines as Enter and tabs as Tab.
 */
export function textKeys(text: string): string[] {
  const keys: string[] = [];
  for (const { segment } of GRAPHEMES.segment(text)) {
    if (segment === '\n' || segment === '\r\n' || segment === '\r') keys.push(ENTER);
    else if (segment === '\t') keys.push(TAB);
    else keys.push(segment);
  }
  return keys;
}

/** Key presses sent in one input tick by `typeSources`. */
export const KEYS_PER_TICK = 16;

/**
 * Text as key sources that press up to KEYS_PER_TICK keys per tick: every key of a group goes down in one tick (one
 * source per key, in order) and up in the next. Firefox dispatches a tick's actions in source order, so the page sees
 * keydown/keypress/input in the text's order (test/typing-order.test.mjs logs every key to prove it), in 2 ticks per
 * group instead of 2 per key: each tick costs a round trip to the content process. Enter and Tab end a group, so a
 * key after one is pressed only once its effect (a submit, a focus move) has happened, as with a person typing.
 */
export function typeSources(keys: string[]): Input.KeySourceActions[] {
  const groups: string[][] = [];
  let group: string[] = [];
  for (const key of keys) {
    group.push(key);
    if (group.length === KEYS_PER_TICK || key === ENTER || key === TAB) {
      groups.push(group);
      group = [];
    }
  }
  if (group.length) groups.push(group);
  const width = Math.max(...groups.map((g) => g.length));
  const sources = Array.from({ length: width }, (_, i) => ({ type: 'key' as const, id: i === 0 ? KEYBOARD_ID : `${KEYBOARD_ID}-${i + 1}`, actions: [] as Input.KeySourceAction[] }));
  for (const g of groups) {
    sources.forEach((source, i) => {
      const value = g[i];
      if (value === undefined) source.actions.push({ type: 'pause' }, { type: 'pause' });
      else source.actions.push({ type: 'keyDown', value });
    });
    sources.forEach((source, i) => {
      const value = g[i];
      if (value !== undefined) source.actions.push({ type: 'keyUp', value });
    });
  }
  return sources;
}

export function keySource(actions: Input.KeySourceAction[]): Input.KeySourceActions {
  return { type: 'key', id: KEYBOARD_ID, actions };
}

/**
 * Holds `modifiers` for the length of another source's actions. BiDi runs the i-th action of every source in
 * the same tick, so the key source presses during the first ticks, pauses, and releases after the last.
 */
export function withModifiers(source: Input.PointerSourceActions | Input.WheelSourceActions, modifiers: Modifier[]): Input.SourceActions[] {
  if (modifiers.length === 0) return [source];
  const values = modifiers.map((m) => MODIFIER_VALUES[m]);
  const pauses = (n: number) => Array.from({ length: n }, () => ({ type: 'pause' as const }));
  const keys: Input.KeySourceAction[] = [
    ...values.map((value) => ({ type: 'keyDown' as const, value })),
    ...pauses(source.actions.length),
    ...[...values].reverse().map((value) => ({ type: 'keyUp' as const, value })),
  ];
  const padded = { ...source, actions: [...pauses(values.length), ...source.actions, ...pauses(values.length)] } as typeof source;
  return [keySource(keys), padded];
}
