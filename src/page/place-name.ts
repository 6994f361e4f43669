// Naming a place for a delta line: its nearest element with a role and name, or, for a landmark or container with
// no name (jKanban's columns are each an unnamed `main`), the text that heads what holds it: `main (To do)`. Bare `- main`
// lines repeated for each change told the agent nothing of where.
import { nearestWithRole } from './delta-removed.js';
import { nameSuffix } from './names.js';
import { localIdOf } from './registry.js';
import { roleOf } from './roles.js';

/** Characters of text kept to name a place by the text above it. */
const TEXT_MAX = 60;

export function clip(text: string, max: number): string {
  const squashed = text.replace(/\s+/g, ' ').trim();
  return squashed.length > max ? `${squashed.slice(0, max)}…` : squashed;
}

/**
 * The text that heads what holds `element` (a column's title, for its `main` of cards and its `banner`): the heading
 * nearest the start of the nearest ancestor that holds more than it, below <body> (a page-wide landmark is not named
 * by the site's title), else its first rendered text, whole (a title whose count is a span of its own, "To do (3)",
 * is not cut at the span).
 */
function headingText(element: Element): string | null {
  let up = element.parentElement;
  for (let level = 0; up && up.childElementCount === 1 && level < 3; level++) up = up.parentElement;
  if (!up || up === document.body || up === document.documentElement) return null;
  const heading = up.querySelector('h1, h2, h3, h4, h5, h6, [role="heading"]');
  if (heading && !element.contains(heading) && heading.checkVisibility()) {
    const text = clip(heading.textContent ?? '', TEXT_MAX);
    if (text) return text;
  }
  const walker = document.createTreeWalker(up, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(), count = 0; node && count < 200; node = walker.nextNode(), count++) {
    const text = node.nodeValue?.trim();
    if (text && node.parentElement?.checkVisibility()) return clip(lineText(node as Text, up), TEXT_MAX);
  }
  return null;
}

/**
 * The text of the line `node` stands in: the whole block around it ("To do (3)" whose count is a span of its own)
 * when that block holds only inline elements, else the node's own text.
 */
function lineText(node: Text, within: Element): string {
  let block: Element | null = node.parentElement;
  while (block && block !== within && getComputedStyle(block).display.startsWith('inline')) block = block.parentElement;
  if (!block) return node.nodeValue ?? '';
  const inner = block.getElementsByTagName('*');
  for (let i = 0; i < inner.length && i < 50; i++) if (!getComputedStyle(inner[i]!).display.startsWith('inline')) return node.nodeValue ?? '';
  return inner.length > 50 ? (node.nodeValue ?? '') : (block.textContent ?? '');
}

/**
 * A place as a line names it: its nearest element with a role and name (and ref); a landmark or container with
 * no name (jKanban's columns are each an unnamed `main`) by the text heading what holds it: `main (To do)`.
 */
export function placeName(container: Element): string {
  const anchor = nearestWithRole(container) ?? container;
  const role = roleOf(anchor) ?? 'generic';
  const name = nameSuffix(anchor, role);
  if (name) return `${role}${name} [ref=#${localIdOf(anchor)}]`;
  const above = headingText(anchor);
  return above ? `${role} (${above})` : role;
}

/**
 * An anchor's first line when it is a bare context line (`- main`, no name, no ref): named by the text heading it,
 * `- main (Done)`; null when there is none to be found.
 */
export function namedContextLine(anchor: Element, line: string): string | null {
  const bare = /^(\s*)- ([a-z]+)$/.exec(line);
  if (!bare) return null;
  const above = headingText(anchor);
  return above ? `${bare[1]}- ${bare[2]} (${above})` : null;
}
