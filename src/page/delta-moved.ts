// Elements an action took from one place and put in another (a card dragged to another column, an item dragged
// up a list): said as moved, from where to where, instead of a subtree that looks new and a removal that is false.
import { heldText } from './delta-removed.js';
import { nameSuffix, quote } from './names.js';
import { clip, placeName } from './place-name.js';
import { localIdOf } from './registry.js';
import { roleOf } from './roles.js';
import { parentOf } from './shown.js';

/** Moves between the same two places beyond this many are one counted line. */
const FOLD_OVER = 3;
/** Characters of text kept to name an element without a role. */
const TEXT_MAX = 60;

/**
 * An element as a moved line names it: its role, name and ref (a role without a name, a list item of text, by the text
 * it holds, as a removed line names it), or its text.
 */
function what(element: Element): string | null {
  const role = roleOf(element);
  if (role) return `${role}${nameSuffix(element, role) || heldText(element)} [ref=#${localIdOf(element)}]`;
  const text = clip(element.textContent ?? '', TEXT_MAX);
  return text ? `text ${quote(text)}` : null;
}

interface Move {
  element: Element;
  from: Element;
  to: Element;
}

/**
 * Elements removed from one place during the action and in the page now, elsewhere or in another order; not those
 * put inside something the action added (a re-render wrapping them: that addition shows them).
 */
function movesOf(records: MutationRecord[], added: Set<Element>): Move[] {
  const from = new Map<Element, Element>();
  for (const record of records) {
    if (record.type !== 'childList' || record.target.nodeType !== Node.ELEMENT_NODE) continue;
    for (const node of record.removedNodes) if (node.nodeType === Node.ELEMENT_NODE && !from.has(node as Element)) from.set(node as Element, record.target as Element);
  }
  // Added by the action and not there before it (not itself moved).
  const isNew = (element: Element): boolean => {
    for (let up: Element | null = element; up; up = parentOf(up)) if (added.has(up) && !from.has(up)) return true;
    return false;
  };
  const moves: Move[] = [];
  for (const [element, old] of from) {
    const to = parentOf(element);
    if (!element.isConnected || !old.isConnected || !to || isNew(to)) continue;
    moves.push({ element, from: old, to });
  }
  return moves;
}

/** Where in its place an element is now: after the element before it, or first. */
function position(element: Element): string {
  const before = element.previousElementSibling;
  const named = before ? what(before) : null;
  return named ? `, after ${named.replace(/ \[ref=#\d+\]$/, '')}` : before ? '' : ', first';
}

/**
 * The moved lines, and the elements they say all there is to say of (not shown again as changed subtrees). Many
 * elements reordered in one place (rows sorted by moving them) are left to the changed subtrees, which show them in
 * their new order.
 */
export function movedLines(records: MutationRecord[], added: Set<Element>): { lines: string[]; said: Set<Element> } {
  const groups = new Map<string, Move[]>();
  const places = new Map<Element, string>();
  const place = (element: Element): string => {
    let name = places.get(element);
    if (name === undefined) places.set(element, (name = placeName(element)));
    return name;
  };
  for (const move of movesOf(records, added)) {
    if (!what(move.element)) continue;
    const key = move.from === move.to ? `in ${place(move.to)}` : `from ${place(move.from)} to ${place(move.to)}`;
    groups.set(key, [...(groups.get(key) ?? []), move]);
  }
  const lines: string[] = [];
  const said = new Set<Element>();
  for (const [key, moves] of groups) {
    const within = moves[0]!.from === moves[0]!.to;
    if (moves.length > FOLD_OVER) {
      if (within) continue;
      const role = roleOf(moves[0]!.element);
      lines.push(`- moved: ${moves.length} ${role ? `${role}s` : 'elements'} ${key}`);
    } else {
      for (const move of moves) lines.push(`- moved: ${what(move.element)} ${key}${position(move.element)}`);
    }
    for (const move of moves) said.add(move.element);
  }
  return { lines, said };
}
