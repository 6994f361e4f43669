import { ToolError } from '../errors.js';

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
 * Hands out `ref_N` names for (frame, document, local id) triples. N counts up across the whole browser, so a
 * ref is never reused for another node, document or tab.
 */
export class RefRegistry {
  private next = 1;
  private readonly byRef = new Map<string, RefTarget>();
  private readonly byKey = new Map<string, string>();

  /** The ref of an element the page scripts reported, issued on first sight. */
  refFor(tabId: number, frameContext: string, docId: string, localId: number): string {
    const key = `${frameContext}\u0000${docId}\u0000${localId}`;
    let ref = this.byKey.get(key);
    if (!ref) {
      ref = `ref_${this.next++}`;
      this.byKey.set(key, ref);
      this.byRef.set(ref, { ref, tabId, frameContext, docId, localId });
    }
    return ref;
  }

  /** The target of a ref used on `tabId`, or the contract's ref_stale with the reason. */
  lookup(ref: string, tabId: number): RefTarget {
    const target = this.byRef.get(ref);
    if (!target) {
      throw new ToolError('ref_stale', `${ref} was never issued. Call read_page or find for current refs.`, { reason: 'not_in_snapshot', ref });
    }
    if (target.tabId !== tabId) {
      throw new ToolError('ref_stale', `${ref} belongs to another tab (tab ${target.tabId}), not tab ${tabId}; nothing was done.`, {
        reason: 'other_document',
        ref,
      });
    }
    return target;
  }

  /** Whether the ref was ever issued (for hints and tests). */
  has(ref: string): boolean {
    return this.byRef.has(ref);
  }
}
