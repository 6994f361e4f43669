// The engine's entrance for tools: each action takes a scope holding a TabHandle (a tool's context) and narrows it
// to the Tab the engine drives. Inside src/browser the engine's own functions take the Tab itself.
import { tabOf, type TabHandle } from '../tab/handle.js';
import type { ActionScope } from './aim.js';
import type { ActionReport } from './report.js';
import * as dragging from './drag.js';
import * as locating from './locate.js';
import * as mouse from './mouse.js';
import * as typing from './typing.js';

/** What a tool hands an action: its context, of which the engine reads only the tab. */
export interface HandleScope {
  readonly tab: TabHandle;
}

function scopeOf(scope: HandleScope): ActionScope {
  return { tab: tabOf(scope.tab) };
}

type Rest<F> = F extends (scope: ActionScope, ...rest: infer R) => unknown ? R : never;

export const click = (scope: HandleScope, ...rest: Rest<typeof mouse.click>) => mouse.click(scopeOf(scope), ...rest);
export const hover = (scope: HandleScope, ...rest: Rest<typeof mouse.hover>) => mouse.hover(scopeOf(scope), ...rest);
export const wheel = (scope: HandleScope, ...rest: Rest<typeof mouse.wheel>) => mouse.wheel(scopeOf(scope), ...rest);
export const drag = (scope: HandleScope, ...rest: Rest<typeof dragging.drag>) => dragging.drag(scopeOf(scope), ...rest);
export const findElements = (scope: HandleScope, ...rest: Rest<typeof locating.findElements>) => locating.findElements(scopeOf(scope), ...rest);
export const scrollIntoView = (scope: HandleScope, ...rest: Rest<typeof locating.scrollIntoView>) => locating.scrollIntoView(scopeOf(scope), ...rest);

export function typeAtFocus(scope: HandleScope, keys: typing.Typing): Promise<ActionReport>;
export function typeAtFocus(scope: HandleScope, keys: typing.Keys): Promise<ActionReport | typing.NotPlaced>;
export function typeAtFocus(scope: HandleScope, keys: typing.Keys): Promise<ActionReport | typing.NotPlaced> {
  return typing.typeAtFocus(scopeOf(scope), keys);
}

export function clickThenType(scope: HandleScope, ref: string, keys: typing.Typing): Promise<ActionReport>;
export function clickThenType(scope: HandleScope, ref: string, keys: typing.Keys): Promise<ActionReport | typing.NotPlaced>;
export function clickThenType(scope: HandleScope, ref: string, keys: typing.Keys): Promise<ActionReport | typing.NotPlaced> {
  return typing.clickThenType(scopeOf(scope), ref, keys);
}
