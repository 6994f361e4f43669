// Where a find match is, as a user would see it: its box cut to the scroll containers around it, and whether
// something else is drawn over it (a sidebar, a sticky header). Also what to say when a wanted row is simply not
// rendered by a virtualized grid.
import { composedParent } from './composed.js';
import { describe } from './describe.js';
import { deepElementFromPoint } from './guard.js';
import { drawnBy } from './drawn.js';
import { hitsTarget } from './hit.js';
import { nameOf } from './names.js';
import { roleOf } from './roles.js';

export interface Place {
  box: { x: number; y: number; width: number; height: number };
  visible: boolean;
  /** Its scroll containers show none of it. */
  clipped?: boolean;
  /** What is drawn over its centre. */
  coveredBy?: string;
}

function round(rect: { x: number; y: number; width: number; height: number }) {
  return { x: Math.round(rect.x), y: Math.round(rect.y), width: Math.round(rect.width), height: Math.round(rect.height) };
}

/** The element's box cut by every ancestor that clips its overflow; null when nothing of it is left. */
function clippedBox(element: Element): { x: number; y: number; width: number; height: number } | null {
  const rect = element.getBoundingClientRect();
  let left = rect.left;
  let top = rect.top;
  let right = rect.right;
  let bottom = rect.bottom;
  for (let up = composedParent(element); up && up !== document.documentElement && up !== document.body; up = composedParent(up)) {
    const style = getComputedStyle(up);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    if (style.display === 'contents') continue;
    const box = up.getBoundingClientRect();
    const inner = { left: box.left + up.clientLeft, top: box.top + up.clientTop };
    if (style.overflowX !== 'visible') {
      left = Math.max(left, inner.left);
      right = Math.min(right, inner.left + up.clientWidth);
    }
    if (style.overflowY !== 'visible') {
      top = Math.max(top, inner.top);
      bottom = Math.min(bottom, inner.top + up.clientHeight);
    }
    if (style.position === 'fixed') break;
  }
  if (right - left < 1 || bottom - top < 1) return null;
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** The custom element a node lives in (its shadow root's host), or null in the light DOM. */
function hostOf(node: Node): Element | null {
  const root = node.getRootNode();
  return root instanceof ShadowRoot ? root.host : null;
}

/** Box (cut to its scroll containers) and visibility of a match that scoring found `shown` (rendered). */
export function placeOf(element: Element, shown: boolean): Place {
  // A control drawn by another box (a custom checkbox, a code editor) is where that box is.
  const drawing = drawnBy(element) ?? element;
  const raw = round(drawing.getBoundingClientRect());
  if (!shown) return { box: raw, visible: false };
  const box = clippedBox(drawing);
  if (!box) return { box: raw, visible: false, clipped: true };
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  // Only a point inside the viewport can be tested; elsewhere the box is all there is to say.
  if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) return { box: round(box), visible: true };
  const reaches = (hit: Element | null): boolean => !hit || hitsTarget(hit, element) || element.contains(hit) || sameComponent(hit, element);
  const hit = deepElementFromPoint(x, y);
  if (reaches(hit)) return { box: round(box), visible: true };
  // A link wrapped over two lines has a gap at its box's centre (its list item is hit there): the middle of each
  // line box is tried too, as a click by ref does, before the match is called covered.
  for (const line of drawing.getClientRects()) {
    const lx = line.left + line.width / 2;
    const ly = line.top + line.height / 2;
    if (lx < 0 || ly < 0 || lx >= window.innerWidth || ly >= window.innerHeight) continue;
    if (reaches(deepElementFromPoint(lx, ly))) return { box: round(box), visible: true };
  }
  return { box: round(box), visible: false, coveredBy: describe(hit!).slice(0, 80) };
}

/** A web component's own parts stand for one another (a visually hidden input under its drawn check box). */
function sameComponent(hit: Element, element: Element): boolean {
  const host = hostOf(element);
  if (!host) return false;
  for (let up: Element | null = hit; up; up = composedParent(up)) if (up === host) return true;
  return false;
}

/** Sorted numbers as runs: "1, 405-449". */
function ranges(numbers: number[]): string {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    runs.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return runs.length > 4 ? `${runs.slice(0, 4).join(', ')}, …` : runs.join(', ');
}

/**
 * For a number no match holds: a grid or table that says it has more rows (aria-rowcount) than it renders, and
 * which rows it renders, since a virtualized row is not in the page until scrolled to.
 */
export function virtualizedNote(): string | undefined {
  for (const grid of document.querySelectorAll('[aria-rowcount]')) {
    const total = Number(grid.getAttribute('aria-rowcount'));
    if (!(total > 0)) continue;
    const indexes = [...grid.querySelectorAll('[aria-rowindex]')].map((row) => Number(row.getAttribute('aria-rowindex'))).filter((n) => n > 0);
    if (!indexes.length || new Set(indexes).size >= total) continue;
    const role = roleOf(grid) ?? 'grid';
    const name = nameOf(grid, role);
    return (
      `${role}${name ? ` "${name}"` : ''} has ${total} rows (aria-rowcount) and renders only rows ${ranges(indexes)} ` +
      '(aria-rowindex): a row outside them is not in the page until the grid is scrolled to it.'
    );
  }
  return undefined;
}
