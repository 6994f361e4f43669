// Where elements are, for the tools that look before they act: find's matches across the tab's frames, with refs and
// boxes in top-level viewport pixels, and a ref brought into view (scroll_to). The engine's frame walks place them.
import type { PageFindMatch, TargetSummary } from '../../contract/index.js';
import { engineScope, type HandleScope } from './aim.js';
import { frameOffset } from '../tab/frames.js';
import type { Point } from './input/pointer.js';

/** A find match as the server hands it on: a ref for the page's element id, its box in top-level viewport CSS pixels
 * (a frame's match moved by the frame's offset, rounded). */
export type FoundElement = Omit<PageFindMatch, 'id'> & { ref: string };

/**
 * Elements matching `query` in every frame of the tab, each frame's best `maxResults`, unranked across frames. A
 * frame that vanished or is still loading is left out; the top-level page is not. `notes`: why a frame may have none.
 */
export async function findElements(scope: HandleScope, query: string, maxResults: number): Promise<{ found: FoundElement[]; notes: Set<string> }> {
  const { tab } = engineScope(scope);
  const frames = tab.contexts.within(tab.context);
  const notes = new Set<string>();
  const perFrame = await Promise.all(
    frames.map(async (frame) => {
      try {
        const result = await tab.callPage('find', { query, maxResults }, { context: frame });
        const offset = frame === tab.context || result.matches.length === 0 ? { x: 0, y: 0 } : await frameOffset(tab, frame);
        if (result.note) notes.add(result.note);
        return result.matches.map(({ id, box, ...match }) => ({
          ...match,
          ref: tab.refs.refFor(tab.id, frame, result.docId, id),
          box: { ...box, x: box.x + Math.round(offset.x), y: box.y + Math.round(offset.y) },
        }));
      } catch (error) {
        if (frame === tab.context || tab.isFatal(error, frame)) throw error;
        return [];
      }
    }),
  );
  return { found: perFrame.flat(), notes };
}

/** Scrolls a ref's element into view (ref_stale when it is gone): what it is and its centre in its frame's viewport. */
export async function scrollIntoView(scope: HandleScope, ref: string): Promise<{ target?: TargetSummary; point: Point }> {
  const { tab } = engineScope(scope);
  const target = tab.refs.lookup(ref, tab.id);
  return tab.callPage('scrollRefIntoView', { docId: target.docId, localId: target.localId }, { context: target.frameContext, write: true });
}
