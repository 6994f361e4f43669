import { DEFAULT_MAX_CHARS, snapshotTab, type SnapshotOptions, type TabSnapshot } from './snapshot.js';
import { tabOf, type TabHandle } from '../tab/handle.js';

/** Room kept for the `truncated:` hint line, so the whole reply (head, tree, hint) stays within max_chars. */
const HINT_ROOM = 200;
const HEAD_ROOM = 200;
/** A note under the head line (what a navigation did): clipped on its own, so the head line is never cut by it. */
const NOTE_ROOM = 400;

export interface SnapshotReply {
  snap: TabSnapshot;
  /** The text the model reads: a head line, the tree, and the hint when cut; never over max_chars. */
  text: string;
}

function clip(text: string, room: number): string {
  return text.length <= room ? text : `${text.slice(0, Math.max(0, room - 1))}…`;
}

/** A snapshot whose whole reply (head line, note, tree, hint), not only its tree, fits the character budget. */
export async function snapshotReply(handle: TabHandle, head: (snap: TabSnapshot) => string, options: SnapshotOptions = {}, note = ''): Promise<SnapshotReply> {
  const tab = tabOf(handle);
  const budget = options.maxChars ?? DEFAULT_MAX_CHARS;
  const headRoom = Math.min(HEAD_ROOM, Math.floor(budget / 4));
  const noteLine = note ? `\n${clip(note, Math.min(NOTE_ROOM, Math.floor(budget / 8)))}` : '';
  const treeBudget = Math.max(100, budget - headRoom - noteLine.length - 1 - Math.min(HINT_ROOM, Math.floor(budget / 5)));
  const snap = await snapshotTab(tab, { ...options, maxChars: treeBudget });
  let text = `${clip(head(snap), headRoom)}${noteLine}\n${snap.snapshot}`;
  if (snap.truncated) {
    const room = budget - text.length - '\ntruncated: '.length;
    if (room > 20) text += `\ntruncated: ${clip(snap.hint ?? '', room)}`;
  }
  return { snap, text };
}
