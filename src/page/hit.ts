// What counts as input reaching an element: the guard's hit test and the delivery probes share this rule, so a
// click the guard lets through is never then reported as landing elsewhere.
import { composedParent } from './composed.js';
import { drawnBy } from './drawn.js';

export function composedContains(outer: Element, inner: Node): boolean {
  for (let node: Node | null = inner; node; node = composedParent(node)) if (node === outer) return true;
  return false;
}

/** The nearest shadow-including ancestor (or self) with this tag: a component's check mark lies inside its label. */
function composedClosest(node: Element, tag: string): Element | null {
  for (let current: Node | null = node; current; current = composedParent(current)) {
    if (current instanceof Element && current.localName === tag) return current;
  }
  return null;
}

/**
 * Whether input at a point that hits `hit` reaches `target`: the target itself or anything in its composed
 * subtree, a label of it (also from inside the label's shadow-hosted check mark), or, for a visually hidden input
 * or textarea, the visible control drawn around it (a custom checkbox, a code editor).
 */
export function hitsTarget(hit: Element, target: Element): boolean {
  if (composedContains(target, hit)) return true;
  // The target sits inside a closed shadow root of the hit element, which is as deep as the page lets us see.
  if (composedContains(hit, target) && hit.shadowRoot === null && target.getRootNode() instanceof ShadowRoot) return true;
  const label = composedClosest(hit, 'label') as HTMLLabelElement | null;
  if (label && label.control === target) return true;
  const box = drawnBy(target);
  return box !== null && composedContains(box, hit);
}

/** Whether focus on `active` means keys reach `target`: inside it, the control it labels, or an editor holding it. */
export function focusReaches(active: Element, target: Element): boolean {
  if (composedContains(target, active)) return true;
  if (target.localName === 'label' && (target as HTMLLabelElement).control === active) return true;
  return active instanceof HTMLElement && active.isContentEditable && composedContains(active, target);
}
