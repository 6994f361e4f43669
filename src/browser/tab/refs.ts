import { ToolError } from '../../errors.js';

/** Where a ref points: one element of one document in one frame of one tab. */
export interface RefTarget {
  ref: string;
  tabId: number;
  /** The browsing context (top-level or frame) whose document holds the element. */
  frameContext: string;
  docId: string;
  localId: number;
}

/**
 * How many refs are remembered. Pages that re-render issue new refs on every look, so an agent left running for
 * hours would otherwise grow this without end (~300 bytes a ref). Far above one snapshot's worth (a 200,000-char
 * read_page holds ~10,000), so only refs many snapshots old are forgotten.
 */
export const MAX_REFS = 50_000;

/**
 * Hands out `ref_N` names for (frame, document, local id) triples. N counts up within each tab group, so a ref is
 * never reused for another node, document or tab, and one `serve` session's numbers say nothing of another's pages.
 * The least recently seen are forgotten past MAX_REFS, and a closed tab's refs with it.
 */
export class RefRegistry {
  /** The next N of each tab group. */
  private readonly next = new Map<string | null, number>();
  /** Targets by group and ref (`group \0 ref_N`): the same name in two groups is two refs. */
  private readonly byRef = new Map<string, RefTarget>();
  private readonly byKey = new Map<string, string>();

  constructor(
    private readonly capacity = MAX_REFS,
    /** The tab group of a tab, so a refusal names another tab only to the group that owns both. */
    private readonly groupOf: (tabId: number) => string | null = () => null,
  ) {}

  /** The ref of an element the page scripts reported, issued on first sight. */
  refFor(tabId: number, frameContext: string, docId: string, localId: number): string {
    const key = `${frameContext}\u0000${docId}\u0000${localId}`;
    const known = this.byKey.get(key);
    if (known) {
      // Seen again: move it to the young end, so a ref the agent keeps seeing is never the one forgotten.
      const target = this.byRef.get(known)!;
      this.byRef.delete(known);
      this.byRef.set(known, target);
      return target.ref;
    }
    const group = this.groupOf(tabId);
    const n = this.next.get(group) ?? 1;
    this.next.set(group, n + 1);
    const ref = `ref_${n}`;
    const slot = slotOf(group, ref);
    this.byKey.set(key, slot);
    this.byRef.set(slot, { ref, tabId, frameContext, docId, localId });
    if (this.byRef.size > this.capacity) this.drop(this.byRef.keys().next().value as string);
    return ref;
  }

  /** Forgets every ref of a tab that is gone. */
  forgetTab(tabId: number): void {
    for (const [slot, target] of this.byRef) if (target.tabId === tabId) this.drop(slot);
  }

  /** How many refs are remembered (for tests and leak checks). */
  get size(): number {
    return this.byRef.size;
  }

  private drop(slot: string): void {
    const target = this.byRef.get(slot);
    if (!target) return;
    this.byRef.delete(slot);
    this.byKey.delete(`${target.frameContext}\u0000${target.docId}\u0000${target.localId}`);
  }

  /** The target of a ref used on `tabId`, or the contract's ref_stale with the reason. */
  lookup(ref: string, tabId: number): RefTarget {
    const group = this.groupOf(tabId);
    const target = this.byRef.get(slotOf(group, ref));
    if (!target) {
      const n = /^ref_(\d+)$/.exec(ref);
      const issued = n !== null && Number(n[1]) < (this.next.get(group) ?? 1);
      const why = issued ? 'is from a tab that closed or a snapshot long gone' : 'was never issued';
      throw new ToolError('ref_stale', `${ref} ${why}. Call read_page or find for current refs.`, { reason: 'not_in_snapshot', ref });
    }
    if (target.tabId !== tabId) {
      // A tab of the same group (another session's refs are not even found under this group's names).
      const where = group !== null ? `belongs to another tab (tab ${target.tabId})` : 'belongs to another page';
      throw new ToolError('ref_stale', `${ref} ${where}, not tab ${tabId}; nothing was done.`, {
        reason: 'other_document',
        ref,
      });
    }
    return target;
  }

  /** Whether the ref is known to `tabId`'s group. */
  has(ref: string, tabId: number): boolean {
    return this.byRef.has(slotOf(this.groupOf(tabId), ref));
  }
}

function slotOf(group: string | null, ref: string): string {
  return `${group ?? ''}\u0000${ref}`;
}
