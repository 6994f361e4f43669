// Element identities for one document. A ref number names one node for the life of this document: it survives
// re-renders that keep the node, and is never handed to another node.
import { PageError } from './errors.js';

/** Random per document, so the server can tell a ref of an earlier document in the same frame. */
export const documentId: string = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

const idOf = new WeakMap<Element, number>();
const byId = new Map<number, WeakRef<Element>>();
let nextId = 1;

/** The local id of an element, issued on first sight. */
export function localIdOf(element: Element): number {
  let id = idOf.get(element);
  if (id === undefined) {
    id = nextId++;
    idOf.set(element, id);
    byId.set(id, new WeakRef(element));
  }
  return id;
}

/** The local id if the element was ever issued one, without issuing. */
export function existingLocalId(element: Element): number | undefined {
  return idOf.get(element);
}

/** The element behind a local id; a node that is gone (collected or detached) is `element_removed`. */
export function elementFor(docId: string, id: number): Element {
  if (docId !== documentId) {
    throw new PageError('ref_stale', 'That ref belongs to an earlier document in this frame (the page navigated or reloaded).', {
      reason: 'other_document',
    });
  }
  const element = byId.get(id)?.deref();
  if (!element || !element.isConnected) {
    if (!element) byId.delete(id);
    throw new PageError('ref_stale', 'The element of that ref has been removed from the page.', { reason: 'element_removed' });
  }
  return element;
}

/**
 * Hands the ids of `old`'s subtree to the same places in `replacement`, an identical copy put where it was (a
 * framework that re-renders a table rebuilds every row): refs an agent holds keep leading to what it read.
 * Nodes of `replacement` that already have an id keep theirs. Open shadow trees are not walked (outerHTML did not compare them).
 */
export function adoptIds(old: Element, replacement: Element): void {
  const from = [old, ...old.querySelectorAll('*')];
  const to = [replacement, ...replacement.querySelectorAll('*')];
  if (from.length !== to.length) return;
  for (const [index, element] of from.entries()) {
    const id = idOf.get(element);
    const next = to[index]!;
    if (id === undefined || idOf.has(next)) continue;
    idOf.delete(element);
    idOf.set(next, id);
    byId.set(id, new WeakRef(next));
  }
}
