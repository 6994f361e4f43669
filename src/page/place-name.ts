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
 * The text that heads what holds `element` (a column's title, for its `main` of cards and its `banner`): the first
 * rendered text of the nearest ancestor that holds more than it, below <body> (a page-wide landmark is not named
 * by the site's title).
 */
function headingText(element: Element): string | null {
  let up = element.parentElement;
  for (let level = 0; up && up.childElementCount === 1 && level < 3; level++) up = up.parentElement;
  if (!up || up === document.body || up === document.documentElement) return null;
  const walker = document.createTreeWalker(up, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(), count = 0; node && count < 200; node = walker.nextNode(), count++) {
    const text = node.nodeValue?.trim();
    if (text && node.parentElement?.checkVisibility()) return clip(text, TEXT_MAX);
  }
  return null;
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
