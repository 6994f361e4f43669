// Frames of a tab: which BiDi child context each iframe element shows, and where a frame's viewport sits in the
// top-level viewport. Every frame (same- or cross-origin) is its own context with its own sandbox and page
// scripts, so refs inside frames resolve like any other.
import { ToolError, isToolError } from '../errors.js';
import type { Tab } from './tab.js';

/** Where a child context's iframe element is: in which parent document, under which page-local id. */
export interface FrameLink {
  parent: string;
  docId: string;
  id: number;
}

/** A tab's frame links by child context; the Browser drops a destroyed context's link at once. */
export class FrameLinks extends Map<string, FrameLink> {}

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
 * The top-level viewport position of `frameContext`'s viewport origin: the sum of the iframe content-box offsets
 * up the chain of parents. Add it to coordinates measured inside the frame to dispatch input.performActions on
 * the tab's top-level context. Throws ref_stale (other_document) when the frame no longer exists.
 */
export async function frameOffset(tab: Tab, frameContext: string): Promise<{ x: number; y: number }> {
  let x = 0;
  let y = 0;
  let context = frameContext;
  while (context !== tab.context) {
    const node = tab.contexts.get(context);
    if (!node || node.parent === null) {
      throw new ToolError('ref_stale', 'The frame of that element no longer exists (it was removed or navigated).', { reason: 'other_document', tabId: tab.id });
    }
    const parent = node.parent;
    let origin: { x: number; y: number } | null = null;
    for (const refresh of [false, true]) {
      const link = await linkOf(tab, context, parent, refresh);
      if (!link) continue;
      try {
        origin = await tab.callPage('frameOrigin', { docId: link.docId, id: link.id }, { context: parent });
        break;
      } catch (error) {
        if (!isToolError(error, 'ref_stale')) throw error;
      }
    }
    if (!origin) throw new ToolError('ref_stale', 'The iframe holding that element is gone from its page.', { reason: 'other_document', tabId: tab.id });
    x += origin.x;
    y += origin.y;
    context = parent;
  }
  return { x, y };
}
