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
  if (target.localName !== 'input' && target.localName !== 'textarea') return false;
  const style = getComputedStyle(target);
  if (Number(style.opacity) < 0.05 || style.pointerEvents === 'none') return true;
  const rect = target.getBoundingClientRect();
  return rect.width <= 3 || rect.height <= 3 || /rect\(\s*0/.test(style.clip) || style.clipPath === 'inset(50%)';
}

/**
 * The box a hidden input is drawn by: its nearest ancestor of some size (a checkbox's wrapper, a code editor's
 * frame holding its hidden textarea), or null past 30% of the viewport, where it is layout, not the control.
 */
function controlBox(target: Element): Element | null {
  for (let up = composedParent(target); up && up !== document.body && up !== document.documentElement; up = composedParent(up)) {
    const box = up.getBoundingClientRect();
    if (box.width * box.height < 400) continue;
    return box.width * box.height <= 0.3 * window.innerWidth * window.innerHeight ? up : null;
  }
  return null;
}

/**
 * The visible control a hidden input stands behind (a custom checkbox's box, a code editor holding its focus
 * textarea): input aimed at the input goes there. Null for an input that is drawn itself.
 */
export function drawnBy(target: Element): Element | null {
  return visuallyHidden(target) ? controlBox(target) : null;
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
  if (!visuallyHidden(target)) return false;
  const box = controlBox(target);
  return box !== null && composedContains(box, hit);
}

/** Whether focus on `active` means keys reach `target`: inside it, the control it labels, or an editor holding it. */
export function focusReaches(active: Element, target: Element): boolean {
  if (composedContains(target, active)) return true;
  if (target.localName === 'label' && (target as HTMLLabelElement).control === active) return true;
  return active instanceof HTMLElement && active.isContentEditable && composedContains(active, target);
}
