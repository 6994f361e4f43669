// A person's input from the live view (request_human's hand-off), as WebDriver input actions: a click, a wheel turn,
// a key (with modifiers) or text typed, at a point of the frame the person saw. Pure: the tab performs what this builds.
import type { Input } from 'webdriver-bidi-protocol';
import { GRAPHEMES, MODIFIER_VALUES, keyValue, type Modifier } from '../engine/input/keys.js';

/** A point in the pixels of the frame the live view showed (a capture: device pixels, not CSS pixels). */
export interface FramePoint {
  x: number;
  y: number;
}

export type PersonInput =
  | { kind: 'click'; at: FramePoint; button: 0 | 1 | 2; count: 1 | 2 | 3 }
  | { kind: 'wheel'; at: FramePoint; dx: number; dy: number }
  | { kind: 'key'; key: string; modifiers: Modifier[] }
  | { kind: 'text'; text: string };

/** Longest text one input types; a longer paste is refused rather than typed for minutes. */
export const PERSON_TEXT_MAX = 2_000;
/** Largest scroll of one wheel input, CSS pixels either way. */
const WHEEL_MAX = 5_000;

/** The frame point in viewport CSS pixels: a capture has `scale` pixels per CSS pixel; kept inside the viewport. */
export function frameToViewport(at: FramePoint, scale: number, viewport: { width: number; height: number }): { x: number; y: number } {
  const k = scale > 0 ? scale : 1;
  const clamp = (value: number, max: number) => Math.min(Math.max(0, Math.round(value / k)), Math.max(0, max - 1));
  return { x: clamp(at.x, viewport.width), y: clamp(at.y, viewport.height) };
}

/** The key's WebDriver value: a named key (Enter, ArrowLeft, the browser's KeyboardEvent.key names) or one character. */
export function personKeyValue(key: string): string | undefined {
  return keyValue(key);
}

/** The actions of one input; the point already in viewport CSS pixels. Undefined for a key no name maps. */
export function personActions(input: PersonInput, point: { x: number; y: number } | null): Input.SourceActions[] | undefined {
  switch (input.kind) {
    case 'click': {
      const at = point ?? { x: 0, y: 0 };
      const presses: Input.PointerSourceAction[] = [];
      for (let i = 0; i < input.count; i++) presses.push({ type: 'pointerDown', button: input.button }, { type: 'pointerUp', button: input.button });
      return [{ type: 'pointer', id: 'person-mouse', parameters: { pointerType: 'mouse' }, actions: [{ type: 'pointerMove', x: at.x, y: at.y, origin: 'viewport' }, ...presses] }];
    }
    case 'wheel': {
      const at = point ?? { x: 0, y: 0 };
      const cap = (value: number) => Math.round(Math.min(Math.max(value, -WHEEL_MAX), WHEEL_MAX));
      return [{ type: 'wheel', id: 'person-wheel', actions: [{ type: 'scroll', x: at.x, y: at.y, deltaX: cap(input.dx), deltaY: cap(input.dy), origin: 'viewport' }] }];
    }
    case 'key': {
      const value = personKeyValue(input.key);
      if (value === undefined) return undefined;
      const held = input.modifiers.map((modifier) => MODIFIER_VALUES[modifier]);
      const actions: Input.KeySourceAction[] = [
        ...held.map((key): Input.KeySourceAction => ({ type: 'keyDown', value: key })),
        { type: 'keyDown', value },
        { type: 'keyUp', value },
        ...held.reverse().map((key): Input.KeySourceAction => ({ type: 'keyUp', value: key })),
      ];
      return [{ type: 'key', id: 'person-keys', actions }];
    }
    case 'text': {
      const actions: Input.KeySourceAction[] = [];
      for (const { segment } of GRAPHEMES.segment(input.text.slice(0, PERSON_TEXT_MAX))) {
        // A line break types Enter, as a keyboard would.
        const value = segment === '\n' || segment === '\r\n' ? '\uE007' : segment;
        actions.push({ type: 'keyDown', value }, { type: 'keyUp', value });
      }
      return [{ type: 'key', id: 'person-keys', actions }];
    }
  }
}
