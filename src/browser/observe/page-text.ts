// get_page_text on the server side: a document's readable text (or one element's) with each frame's text, same-
// or cross-origin, put in where the frame is under a line naming it; then one cut to the caller's budget.
import { mapFrames } from '../tab/frames.js';
import { resolveRef } from '../tab/resolve.js';
import type { Tab } from '../tab/tab.js';
import { defangRefs } from '../../text-safety.js';
import { tabOf, type TabHandle } from '../tab/handle.js';

/** Frames inside frames are followed this deep. */
const FRAME_DEPTH = 3;
const MARK = /\u0001frame:(\d+)\u0001/g;

export interface TextRead {
  url: string;
  title: string;
  /** The whole text, frames included. */
  text: string;
}

async function textIn(tab: Tab, context: string, args: { root?: { docId: string; id: number } }, depth: number): Promise<TextRead> {
  const page = await tab.callPage('pageText', args, { context });
  if (!page.frames.length) return { ...page, text: defangRefs(page.text) };
  const children = depth < FRAME_DEPTH ? await mapFrames(tab, context, page.docId, page.frames).catch(() => new Map<number, string>()) : new Map<number, string>();
  const inner = new Map<number, string>();
  await Promise.all(
    page.frames.map(async (id) => {
      const child = children.get(id);
      if (!child) return inner.set(id, '');
      try {
        const read = await textIn(tab, child, {}, depth + 1);
        inner.set(id, `[frame: ${read.title || '(untitled)'} — ${read.url}]\n${read.text || '(no visible text)'}\n[end of frame]`);
      } catch (error) {
        if (tab.isFatal(error, child)) throw error;
        inner.set(id, `[frame not readable: ${(error as Error).message.slice(0, 80)}]`);
      }
    }),
  );
  const text = page.text.replace(MARK, (_mark, id: string) => inner.get(Number(id)) ?? '').replace(/\n{3,}/g, '\n\n');
  return { url: page.url, title: page.title, text: defangRefs(text) };
}

/** The tab's readable text (or `refId`'s element's), frames included. */
export async function readText(handle: TabHandle, refId?: string): Promise<TextRead> {
  const tab = tabOf(handle);
  if (!refId) return textIn(tab, tab.context, {}, 0);
  const resolved = await resolveRef(tab, refId);
  const top = await tab.callPage('pageInfo');
  const read = await textIn(tab, resolved.target.frameContext, { root: { docId: resolved.target.docId, id: resolved.target.localId } }, 0);
  return { ...read, url: top.url, title: top.title };
}

/** `maxChars` of `text` from `offset`; the cut falls on a line or word end when one is near. */
export function cutText(text: string, offset: number, maxChars: number): { slice: string; nextOffset?: number } {
  const from = Math.min(Math.max(0, offset), text.length);
  let end = Math.min(text.length, from + Math.max(0, maxChars));
  if (end < text.length) {
    const window = text.slice(from, end);
    const floor = Math.floor(window.length * 0.8);
    const line = window.lastIndexOf('\n');
    const space = window.lastIndexOf(' ');
    if (line >= floor) end = from + line + 1;
    else if (space >= floor) end = from + space + 1;
  }
  return { slice: text.slice(from, end), ...(end < text.length ? { nextOffset: end } : {}) };
}
