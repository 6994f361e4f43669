// The page operations tools ask for, each as a typed function: a tool holds a TabHandle and never names a page
// operation (lint refuses callPage outside src/browser).
import type { Script } from 'webdriver-bidi-protocol';
import type { PageOperationName, PageResult } from '../../contract/index.js';
import type { PageCallArgs } from './page-calls.js';
import { tabOf, type TabHandle } from './handle.js';

function call<Op extends PageOperationName>(tab: TabHandle, op: Op, ...rest: PageCallArgs<Op>): Promise<PageResult<Op>> {
  return tabOf(tab).callPage(op, ...rest);
}

/** An element of a document: the frame it is in and its ids there. */
export interface ElementTarget {
  docId: string;
  localId: number;
  frameContext: string;
}

/**
 * What an action would act on, read without acting (--confirm-actions): a ref's element (in its frame), the element
 * at a viewport point of the top document, or the focused one there; null when there is none.
 */
export function describeActionTarget(tab: TabHandle, where: { ref: ElementTarget } | { point: { x: number; y: number } } | { focused: true }): Promise<PageResult<'describeTarget'>> {
  if ('ref' in where) return call(tab, 'describeTarget', { ref: { docId: where.ref.docId, id: where.ref.localId } }, { context: where.ref.frameContext });
  return call(tab, 'describeTarget', 'point' in where ? { point: where.point } : { focused: true });
}

/** The top document's title, URL and readiness (the tab's last title and URL follow it). */
export function pageInfo(tab: TabHandle, options: { timeout?: number } = {}): Promise<PageResult<'pageInfo'>> {
  return call(tab, 'pageInfo', {}, options);
}

/** The file inputs of the top document. */
export function fileInputs(tab: TabHandle): Promise<PageResult<'fileInputs'>> {
  return call(tab, 'fileInputs');
}

/** One file input, read again (its files, its accept list). */
export function fileInput(tab: TabHandle, target: ElementTarget): Promise<PageResult<'fileInput'>> {
  return call(tab, 'fileInput', { docId: target.docId, localId: target.localId }, { context: target.frameContext });
}

/** Sets a form field's value the way a user's input would (form_input). */
export function setFieldValue(tab: TabHandle, target: ElementTarget, value: string | number | boolean | string[]): Promise<PageResult<'setFieldValue'>> {
  return call(tab, 'setFieldValue', { docId: target.docId, localId: target.localId, value }, { context: target.frameContext, write: true });
}

/** The ids our page scripts know the given elements by (null for one they cannot name). */
export function identifyNodes(tab: TabHandle, nodes: Script.SharedReference[]): Promise<PageResult<'identify'>> {
  return call(tab, 'identify', {}, { nodes });
}

/** Waits in the page for text, a ref or its going; `context` is the frame, `timeout` the call's own bound. */
export function waitInPage(tab: TabHandle, args: PageCallArgs<'waitFor'>[0], options: { context: string; timeout: number }): Promise<PageResult<'waitFor'>> {
  return call(tab, 'waitFor', args, options);
}

/** Ends a document's waits (not met): their MCP call was cancelled. */
export function cancelWaits(tab: TabHandle, context: string): Promise<PageResult<'cancelWaits'>> {
  return call(tab, 'cancelWaits', {}, { context });
}

/** The elements of the top document that match a query, best first. */
export function findInPage(tab: TabHandle, query: string, maxResults: number): Promise<PageResult<'find'>> {
  return call(tab, 'find', { query, maxResults });
}

/** The element a CSS selector names in a frame, as page-script ids (test tools). */
export function localIdForSelector(tab: TabHandle, selector: string, frameContext: string): Promise<PageResult<'localIdForSelector'>> {
  return call(tab, 'localIdForSelector', { selector }, { context: frameContext });
}

/** The text of the element a CSS selector names in a frame (test tools). */
export function textOfSelector(tab: TabHandle, selector: string, frameContext: string): Promise<PageResult<'textOfSelector'>> {
  return call(tab, 'textOfSelector', { selector }, { context: frameContext });
}

/** Polls the page until a selector or text appears, within `timeout` ms (regress's wait_for). */
export function appearedInPage(tab: TabHandle, target: { selector?: string; text?: string }, timeout: number): Promise<PageResult<'appeared'>> {
  return call(tab, 'appeared', { ...target, timeout }, { timeout: timeout + 2_000 });
}

/** Stops the page's animations, carets and media and covers the masks, for a stable screenshot (regress). */
export function makePageStill(tab: TabHandle, masks: string[], frames: number, timeout: number): Promise<PageResult<'makeStill'>> {
  return call(tab, 'makeStill', { masks, frames }, { timeout });
}
