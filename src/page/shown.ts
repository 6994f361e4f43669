// Whether an element a delta names is shown now, read in the composed tree.
import { drawnBy } from './drawn.js';
import { renders, visibilityHidden } from './snapshot-walk.js';

export function isShown(element: Element): boolean {
  if (!element.isConnected) return false;
  for (let node: Element | null = element; node; node = parentOf(node)) {
    if (node.getAttribute('aria-hidden') === 'true') return false;
  }
  const rect = element.getBoundingClientRect();
  if (!renders(element) || visibilityHidden(element)) return false;
  // A control drawn by the box around it (an editor's zero-size input) is shown there.
  return rect.width > 0 || rect.height > 0 || drawnBy(element) !== null;
}

/** The parent in the composed tree (crossing out of shadow roots). */
export function parentOf(node: Node): Element | null {
  if (node.parentElement) return node.parentElement;
  const root = node.parentNode;
  return root instanceof ShadowRoot ? root.host : null;
}
