// What counts as input reaching an element: the guard's hit test and the delivery probes share this rule, so a
// click the guard lets through is never then reported as landing elsewhere.
import { composedParent } from './composed.js';

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
 * Whether `target` is a form control drawn by something else: transparent, clipped away or not hit-testable, the
 * way checkbox and switch components hide the native input under their own visible control.
 */
function visuallyHidden(target: Element): boolean {
  if (target.localName !== 'input') return false;
  const style = getComputedStyle(target);
  if (Number(style.opacity) < 0.05 || style.pointerEvents === 'none') return true;
  const rect = target.getBoundingClientRect();
  return rect.width <= 2 || rect.height <= 2 || /rect\(\s*0/.test(style.clip) || style.clipPath === 'inset(50%)';
}

/**
 * Whether input at a point that hits `hit` reaches `target`: the target itself or anything in its composed
 * subtree, a label of it (also from inside the label's shadow-hosted check mark), or, for a visually hidden input,
 * the visible control beside it in the same wrapper.
 */
export function hitsTarget(hit: Element, target: Element): boolean {
  if (composedContains(target, hit)) return true;
  // The target sits inside a closed shadow root of the hit element, which is as deep as the page lets us see.
  if (composedContains(hit, target) && hit.shadowRoot === null && target.getRootNode() instanceof ShadowRoot) return true;
  const label = composedClosest(hit, 'label') as HTMLLabelElement | null;
  if (label && label.control === target) return true;
  if (!visuallyHidden(target)) return false;
  const wrapper = composedParent(target);
  if (!(wrapper instanceof Element) || wrapper === document.body || wrapper === document.documentElement) return false;
  // A wrapper the size of a panel is a layout box, not the control's own; a hit anywhere in it proves nothing.
  const box = wrapper.getBoundingClientRect();
  return box.width * box.height <= 0.1 * window.innerWidth * window.innerHeight && composedContains(wrapper, hit);
}
