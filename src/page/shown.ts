// Whether an element a delta names is shown now, read in the composed tree.
import { drawnBy } from './drawn.js';
import { renders, visibilityHidden } from './snapshot-walk.js';

export function isShown(element: Element): boolean {
  if (!element.isConnected || hiddenFromTree(element)) return false;
  const rect = element.getBoundingClientRect();
  if (!renders(element) || visibilityHidden(element)) return false;
  // A control drawn by the box around it (an editor's zero-size input) is shown there.
  return rect.width > 0 || rect.height > 0 || drawnBy(element) !== null;
}

/** Inside an aria-hidden subtree (the composed tree), which snapshots leave out. */
export function hiddenFromTree(node: Node): boolean {
  for (let element = node.nodeType === Node.ELEMENT_NODE ? (node as Element) : parentOf(node); element; element = parentOf(element)) {
    if (element.getAttribute('aria-hidden') === 'true') return true;
  }
  return false;
}

/** The parent in the composed tree (crossing out of shadow roots). */
export function parentOf(node: Node): Element | null {
  if (node.parentElement) return node.parentElement;
  const root = node.parentNode;
  return root instanceof ShadowRoot ? root.host : null;
}
