// The composed (rendered) tree: shadow roots in place of their hosts' light children, slots showing what they were
// given. Names, find and the snapshot walk all read the page this way, as the browser's accessibility tree does.

/**
 * Whether this realm may read closed shadow roots: `openOrClosedShadowRoot` exists only for privileged code, and
 * the BiDi sandbox is not. Asked once, since every property read on an element is a wrapper crossing.
 */
const PRIVILEGED_SHADOW = typeof Element !== 'undefined' && 'openOrClosedShadowRoot' in Element.prototype;

/** Open shadow roots, and closed ones where the realm is allowed to see them. */
export function shadowOf(element: Element): ShadowRoot | null {
  if (PRIVILEGED_SHADOW) return (element as Element & { openOrClosedShadowRoot?: ShadowRoot | null }).openOrClosedShadowRoot ?? null;
  return element.shadowRoot ?? null;
}

/** Children in the composed (rendered) order: a shadow root replaces light children, a slot shows what it was given. */
export function composedChildren(node: Node): ArrayLike<Node> {
  if (node.nodeType === Node.ELEMENT_NODE) {
    const element = node as Element;
    const shadow = shadowOf(element);
    if (shadow) return shadow.childNodes;
    if (element.localName === 'slot') {
      const assigned = (element as HTMLSlotElement).assignedNodes({ flatten: true });
      if (assigned.length) return assigned;
    }
  }
  return node.childNodes;
}

/** The parent in the composed tree: the slot a node is shown in, else its parent, else its shadow root's host. */
export function composedParent(node: Node): Element | null {
  const slot = (node as Element | Text).assignedSlot;
  if (slot) return slot;
  if (node.parentElement) return node.parentElement;
  const root = node.parentNode;
  return root instanceof ShadowRoot ? root.host : null;
}

/** Open shadow roots under `root` (hosts found natively: custom elements carry a hyphen), at most `limit`. */
export function shadowRootsIn(root: Document | ShadowRoot, limit = 500): ShadowRoot[] {
  const found: ShadowRoot[] = [];
  const queue: Node[] = [root];
  for (let i = 0; i < queue.length && found.length < limit; i++) {
    const from = queue[i]!;
    const contexts = from instanceof ShadowRoot ? [...from.children] : [from];
    for (const context of contexts) {
      const hosts = document.evaluate("descendant-or-self::*[contains(local-name(), '-')]", context, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
      for (let j = 0; j < hosts.snapshotLength && found.length < limit; j++) {
        const shadow = shadowOf(hosts.snapshotItem(j) as Element);
        if (shadow) {
          found.push(shadow);
          queue.push(shadow);
        }
      }
    }
  }
  return found;
}

let customSeen: { count: number; hosts: Element[] } | null = null;

/**
 * The document's custom elements (the hosts a page's components put shadow roots in), at most `limit`. The native
 * scan takes 1-3 ms on a 16,000-element page, before every action: it is made again only when the number of
 * elements changed or `forgetCustomElements` was called (an action added nodes).
 */
export function customElementHosts(limit = 500): Element[] {
  // Counted natively, and not through a live list kept between actions: a page's every mutation would update it.
  const count = document.getElementsByTagName('*').length;
  if (customSeen?.count === count) return customSeen.hosts;
  const found = document.evaluate("//*[contains(local-name(), '-')]", document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
  const hosts: Element[] = [];
  for (let i = 0; i < found.snapshotLength && i < limit; i++) hosts.push(found.snapshotItem(i) as Element);
  customSeen = { count, hosts };
  return hosts;
}

export function forgetCustomElements(): void {
  customSeen = null;
}

let shadowCache: { doc: Document; at: number; roots: ShadowRoot[] } | null = null;

/** shadowRootsIn(doc), kept for 100 ms: one snapshot may resolve many ids that live nowhere. */
function cachedShadowRoots(doc: Document): ShadowRoot[] {
  const now = performance.now();
  if (!shadowCache || shadowCache.doc !== doc || now - shadowCache.at > 100) shadowCache = { doc, at: now, roots: shadowRootsIn(doc, 200) };
  return shadowCache.roots;
}

/**
 * The element an id reference (aria-labelledby, label for) means: in the referrer's own tree first, then in the
 * document (a reference out of a shadow root), then inside open shadow roots (a reference into one).
 */
export function elementById(referrer: Element, id: string): Element | null {
  const root = referrer.getRootNode() as Document | ShadowRoot;
  const own = root.getElementById?.(id);
  if (own) return own;
  const doc = referrer.ownerDocument;
  const inDocument = root !== doc ? doc.getElementById(id) : null;
  if (inDocument) return inDocument;
  for (const shadow of cachedShadowRoots(doc)) {
    if (shadow === root) continue;
    const inside = shadow.getElementById(id);
    if (inside) return inside;
  }
  return null;
}
