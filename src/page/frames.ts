// Frames as the page sees them: the iframe elements of this document and where their content boxes sit, so the
// server can match each to its BiDi child context and add up offsets from a frame to the top-level viewport.
import { localIdOf, documentId, elementFor } from './registry.js';
import { shadowOf } from './snapshot-walk.js';

/** Every iframe/frame element of this document, shadow trees included. */
function frameElements(): HTMLIFrameElement[] {
  const found: HTMLIFrameElement[] = [];
  const scan = (root: Document | ShadowRoot): void => {
    for (const element of root.querySelectorAll('*')) {
      if (element.localName === 'iframe' || element.localName === 'frame') found.push(element as HTMLIFrameElement);
      const shadow = shadowOf(element);
      if (shadow) scan(shadow);
    }
  };
  scan(document);
  return found;
}

/** The local ids of all frame elements (issuing ids as needed). */
export function listFrames(): { docId: string; ids: number[] } {
  return { docId: documentId, ids: frameElements().map((element) => localIdOf(element)) };
}

/** Where a frame element's content box (its document's viewport origin) is, in this document's viewport. */
export function frameOrigin(args: { docId: string; id: number }): { x: number; y: number } {
  const element = elementFor(args.docId, args.id);
  const rect = element.getBoundingClientRect();
  const style = getComputedStyle(element);
  return {
    x: rect.left + element.clientLeft + parseFloat(style.paddingLeft || '0'),
    y: rect.top + element.clientTop + parseFloat(style.paddingTop || '0'),
  };
}

/**
 * The WindowProxy of each frame element, for the server: BiDi serializes a window as its browsing context id.
 * Reached through a raw script.callFunction, since ordinary operations answer in JSON.
 */
function frameWindows(docId: string, ids: number[]): (Window | null)[] {
  return ids.map((id) => {
    try {
      return (elementFor(docId, id) as HTMLIFrameElement).contentWindow;
    } catch {
      return null;
    }
  });
}

(globalThis as unknown as { __firefoxUseFrameWindows?: typeof frameWindows }).__firefoxUseFrameWindows = frameWindows;
