// read_page on the page side: a snapshot of this frame's document (or of one subtree), within a character budget.
import type { ElementSummary, PageSnapshot } from '../contract/index.js';
import { nameOf } from './names.js';
import { documentId, elementFor } from './registry.js';
import { roleOf } from './roles.js';
import { SnapshotWalker, type WalkMode } from './snapshot-walk.js';
import { pageIdentity } from './info.js';

/** At most this many options of one dropdown are listed; the rest are counted. */
const OPTIONS_CAP = 50;

export interface SnapshotArgs {
  mode: WalkMode;
  depth?: number;
  maxChars: number;
  /** A subtree to read instead of the whole document (from `ref_id`). */
  root?: { docId: string; id: number };
}

export function snapshot(args: SnapshotArgs): PageSnapshot {
  // A whole-document read or a read of one subtree lists long dropdowns (capped); the default view only counts them.
  const selectOptions = args.mode === 'all' || args.root ? OPTIONS_CAP : 0;
  let walker = walk(args, selectOptions);
  // A page over its budget walks again with each menu or sidebar held to a share, so its content gets the room.
  if (walker.full && !args.root && walker.sawSide) walker = walk(args, selectOptions, Math.max(400, Math.floor(args.maxChars * SIDE_SHARE)));
  return {
    docId: documentId,
    ...pageIdentity(),
    lines: walker.lines,
    frames: walker.frames,
    truncated: walker.full,
    omitted: walker.omitted,
    above: walker.above,
    below: walker.below,
    deeper: walker.deeper,
    hints: walker.hints,
    cut: walker.cut,
  };
}

/** The part of a page snapshot's budget one navigation or sidebar may take when the page does not fit. */
const SIDE_SHARE = 0.15;

function walk(args: SnapshotArgs, selectOptions: number, sideShare?: number): SnapshotWalker {
  const walker = new SnapshotWalker({ mode: args.mode, depth: args.depth, maxChars: args.maxChars, selectOptions, wholeText: args.root !== undefined, sideShare });
  if (args.root) {
    const root = elementFor(args.root.docId, args.root.id);
    walker.walkElement(root);
    walker.walkFollowing(root);
  } else {
    // A document still being created (a page replacing itself) may have no root yet: that reads as empty.
    const top = document.body ?? document.documentElement;
    // An editable body (a rich-text editor's frame) is the field itself: it gets its line and ref, its text under it.
    if (top && (top as HTMLElement).isContentEditable && top === document.body) walker.walkElement(top);
    else if (top) walker.walkChildren(top);
  }
  return walker;
}

/** Checks that a ref's element still exists here and says what it is (throws ref_stale otherwise). */
export function describeRef(args: { docId: string; id: number }): ElementSummary {
  const element = elementFor(args.docId, args.id);
  const role = roleOf(element) ?? 'generic';
  return { role, name: nameOf(element, role) };
}
