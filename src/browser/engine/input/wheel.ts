// Wheel source actions: notches of 100 CSS pixels over one point.
import type { Input } from 'webdriver-bidi-protocol';
import type { Point } from './pointer.js';

export const WHEEL_ID = 'fu-wheel';
export const NOTCH_PX = 100;

export type ScrollDirection = 'up' | 'down' | 'left' | 'right';

export function wheelSource(point: Point, direction: ScrollDirection, notches: number): Input.WheelSourceActions {
  const dx = direction === 'left' ? -NOTCH_PX : direction === 'right' ? NOTCH_PX : 0;
  const dy = direction === 'up' ? -NOTCH_PX : direction === 'down' ? NOTCH_PX : 0;
  const actions: Input.WheelSourceAction[] = [];
  for (let i = 0; i < notches; i++) {
    actions.push({ type: 'scroll', x: Math.round(point.x), y: Math.round(point.y), deltaX: dx, deltaY: dy, origin: 'viewport' });
  }
  return { type: 'wheel', id: WHEEL_ID, actions };
}
