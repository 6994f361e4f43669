// Frames of a tab: which BiDi child context each iframe element shows, and where a frame's viewport sits in the
// top-level viewport. Every frame (same- or cross-origin) is its own context with its own sandbox and page
// scripts, so refs inside frames resolve like any other.
import { ToolError, isToolError } from '../../errors.js';
import type { Tab } from './tab.js';

/** Where a child context's iframe element is: in which parent document, under which page-local id. */
export interface FrameLink {
  parent: string;
  docId: string;
  id: number;
}

/** A tab's frame links by child context; the Browser drops a destroyed context's link at once. */
export class FrameLinks extends Map<string, FrameLink> {}

/** An iframe element to follow into: page-local id `id` of document `docId`. */
export interface FramePointer {
  docId: string;
  id: number;
}

/** Deeper than this, a walk stops (a page nesting frames without end). */
const MAX_FRAME_DEPTH = 8;

/**
 * Maps iframe elements (page-local ids in `docId` of `context`) to the child browsing contexts they show: in the
 * sandbox, each element's contentWindow comes back from BiDi as `{type: "window", value: {context}}`.
 */
export async function mapFrames(tab: Tab, context: string, docId: string, ids: number[]): Promise<Map<number, string>> {
  const mapped = new Map<number, string>();
  if (ids.length === 0) return mapped;
  const children = await tab.frameContextsOf(context, docId, ids);
  children.forEach((child, index) => {
    if (child === null) return;
    const id = ids[index]!;
    mapped.set(id, child);
    tab.frameLinks.set(child, { parent: context, docId, id });
  });
  return mapped;
}

/** Finds (again) the iframe element of `child` in its parent context. */
export async function linkOf(tab: Tab, child: string, parent: string, refresh: boolean): Promise<FrameLink | undefined> {
  const links = tab.frameLinks;
  const known = links.get(child);
  if (known && known.parent === parent && !refresh) return known;
  const frames = await tab.callPage('listFrames', {}, { context: parent });
  await mapFrames(tab, parent, frames.docId, frames.ids);
  const found = links.get(child);
  return found && found.parent === parent ? found : undefined;
}

/** The child context an iframe element (page-local id `id` of `docId` in `parent`) shows, or undefined. */
export async function childContextOf(tab: Tab, parent: string, docId: string, id: number): Promise<string | undefined> {
  for (const [child, link] of tab.frameLinks) if (link.parent === parent && link.docId === docId && link.id === id && tab.contexts.has(child)) return child;
  return (await mapFrames(tab, parent, docId, [id])).get(id);
}

/**
 * The one walk down through frames: from `start`, while `next` names an iframe element of the current document,
 * `enter` the child context it shows. `lost` is true when an iframe's document could not be reached (not mapped).
 */
export async function walkDown<S extends { context: string }>(
  tab: Tab,
  start: S,
  next: (at: S) => FramePointer | undefined,
  enter: (child: string, from: S) => Promise<S>,
): Promise<{ at: S; lost: boolean }> {
  let at = start;
  for (let depth = 0; depth < MAX_FRAME_DEPTH; depth++) {
    const frame = next(at);
    if (!frame) break;
    const child = await childContextOf(tab, at.context, frame.docId, frame.id);
    if (!child) return { at, lost: true };
    at = await enter(child, at);
  }
  return { at, lost: false };
}

/**
 * The one walk up through frames: from `frameContext` to the tab's top-level context, `visit` each parent with the
 * link to the iframe element showing the child (looked up again once when the page moved or replaced it: a visit
 * that fails with ref_stale is retried with a fresh link). `visit` returns false to stop there. `gone` makes the
 * error for a frame no longer in the tree ('frame') or an iframe no longer in its parent's page ('iframe').
 */
export async function walkUp(
  tab: Tab,
  frameContext: string,
  visit: (parent: string, link: FrameLink) => Promise<boolean>,
  gone: (what: 'frame' | 'iframe') => ToolError,
): Promise<void> {
  let child = frameContext;
  while (child !== tab.context) {
    const parent = tab.contexts.get(child)?.parent;
    if (!parent) throw gone('frame');
    let goOn: boolean | undefined;
    for (const refresh of [false, true]) {
      const link = await linkOf(tab, child, parent, refresh);
      if (!link) continue;
      try {
        goOn = await visit(parent, link);
        break;
      } catch (error) {
        if (!isToolError(error, 'ref_stale')) throw error;
      }
    }
    if (goOn === undefined) throw gone('iframe');
    if (!goOn) return;
    child = parent;
  }
}

/**
 * The top-level viewport position of `frameContext`'s viewport origin: the sum of the iframe content-box offsets
 * up the chain of parents. Add it to coordinates measured inside the frame to dispatch input.performActions on
 * the tab's top-level context. Throws ref_stale (other_document) when the frame no longer exists.
 */
export async function frameOffset(tab: Tab, frameContext: string): Promise<{ x: number; y: number }> {
  let x = 0;
  let y = 0;
  await walkUp(
    tab,
    frameContext,
    async (parent, link) => {
      const origin = await tab.callPage('frameOrigin', { docId: link.docId, id: link.id }, { context: parent });
      x += origin.x;
      y += origin.y;
      return true;
    },
    (what) =>
      new ToolError(
        'ref_stale',
        what === 'frame' ? 'The frame of that element no longer exists (it was removed or navigated).' : 'The iframe holding that element is gone from its page.',
        { reason: 'other_document', tabId: tab.id },
      ),
  );
  return { x, y };
}
