// Short descriptions of elements for action results and errors: role and name, and tag#id.class.
import type { TargetSummary } from '../contract/index.js';
import { nameOf as snapshotName } from './names.js';
import { roleOf as snapshotRole } from './roles.js';

/** The same role and name read_page shows, so a result and a snapshot line agree. */
export function roleName(element: Element): { role: string; name: string } {
  const role = snapshotRole(element) ?? 'generic';
  return { role, name: snapshotName(element, role) };
}

/** tag#id.class "text", the way a person would point at it in devtools. */
export function selectorOf(element: Element): string {
  let out = element.localName;
  if (element.id) out += `#${element.id}`;
  const classes = [...element.classList].slice(0, 2);
  if (classes.length) out += `.${classes.join('.')}`;
  return out;
}

export function summarize(element: Element): TargetSummary {
  return { ...roleName(element), selector: selectorOf(element) };
}

/** One line for messages: `button "Save" (button#save)`. */
export function describe(element: Element): string {
  const { role, name, selector } = summarize(element);
  return `${role}${name ? ` "${name}"` : ''} (${selector})`;
}

/**
 * For an element hit at a coordinate that is laid over the page (fixed or absolute) and covers most of the
 * viewport, the share it covers: that is what an invisible modal mask or backdrop looks like.
 */
export function coverage(element: Element): Pick<TargetSummary, 'covers' | 'overlay'> {
  if (element === document.documentElement || element === document.body) return {};
  const rect = element.getBoundingClientRect();
  const width = Math.max(0, Math.min(window.innerWidth, rect.right) - Math.max(0, rect.left));
  const height = Math.max(0, Math.min(window.innerHeight, rect.bottom) - Math.max(0, rect.top));
  const covers = Math.round((100 * width * height) / (window.innerWidth * window.innerHeight));
  if (covers < 60) return {};
  // A page's own layout (a canvas, a main column) is big too; only a box laid over the page is worth a warning.
  const position = getComputedStyle(element).position;
  return position === 'fixed' || position === 'absolute' ? { covers, overlay: true } : {};
}
