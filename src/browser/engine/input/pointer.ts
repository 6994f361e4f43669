// Pointer (mouse) source actions: moves, clicks of 1-3 presses, drags in steps.
import type { Input } from 'webdriver-bidi-protocol';

/** One input source's actions (pointer, keys, wheel); a batch of them runs tick by tick in one performActions. */
export type InputSource = Input.SourceActions;

export const MOUSE_ID = 'fu-mouse';

export interface Point {
  x: number;
  y: number;
}

export type Button = 0 | 1 | 2;

export function mouseSource(actions: Input.PointerSourceAction[]): Input.PointerSourceActions {
  return { type: 'pointer', id: MOUSE_ID, parameters: { pointerType: 'mouse' }, actions };
}

export function moveTo(point: Point, duration?: number): Input.PointerMoveAction {
  return { type: 'pointerMove', x: Math.round(point.x), y: Math.round(point.y), origin: 'viewport', ...(duration ? { duration } : {}) };
}

/** Move onto the point and press `count` times; Firefox counts the presses into detail 2 (dblclick) and 3. */
export function clickActions(point: Point, button: Button, count: number): Input.PointerSourceAction[] {
  const actions: Input.PointerSourceAction[] = [moveTo(point)];
  for (let i = 0; i < count; i++) actions.push({ type: 'pointerDown', button }, { type: 'pointerUp', button });
  return actions;
}

/**
 * Press at `from`, travel to `to` in steps (a drag library, or Firefox's drag session, sees a real path rather
 * than a jump), release there.
 */
export function dragActions(from: Point, to: Point): Input.PointerSourceAction[] {
  const distance = Math.hypot(to.x - from.x, to.y - from.y);
  const steps = Math.max(5, Math.min(20, Math.round(distance / 15)));
  const actions: Input.PointerSourceAction[] = [moveTo(from), { type: 'pointerDown', button: 0 }];
  for (let i = 1; i <= steps; i++) {
    actions.push(moveTo({ x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps }, 16));
  }
  actions.push({ type: 'pointerUp', button: 0 });
  return actions;
}
