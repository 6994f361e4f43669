// The lines of a delta for what left the page (`- removed: …`, counted per place), and the counted line of a
// folded collection: the two places where refs the agent holds stop meaning what they meant.
import { wordsOf } from './text-runs.js';
import { kindOf, type Folded } from './fold.js';
import { nameSuffix } from './names.js';
import type { ClosedPopup } from './popups.js';
import { existingLocalId, localIdOf } from './registry.js';
import { roleOf } from './roles.js';
import { hiddenFromTree, parentOf } from './shown.js';

/** Removals of one kind under one place beyond this many are one counted line. */
const FOLD_OVER = 3;

export function nearestWithRole(node: Node): Element | null {
  for (let element = node.nodeType === Node.ELEMENT_NODE ? (node as Element) : parentOf(node); element; element = parentOf(element)) {
    if (roleOf(element)) return element;
  }
  return null;
}

/** The text of a removed element with no role, as a name suffix; null when it had none or the parent still shows it. */
function removedText(element: Element, parent: Node): string | null {
  const glued = (element.textContent ?? '').replace(/\s+/g, ' ').trim();
  if (!glued) return null;
  if ((parent.textContent ?? '').replace(/\s+/g, ' ').includes(glued)) return null;
  const text = wordsOf(element);
  return ` ${JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text)}`;
}

/** What an item whose role takes no name from its content held (a list item's text), to tell which went. */
export function heldText(element: Element): string {
  const text = wordsOf(element);
  return text ? ` (${text.length > 60 ? `${text.slice(0, 60)}…` : text})` : '';
}

/** Whether a ref was ever issued for the element or anything inside it (an agent may hold one). */
function heldRefs(element: Element): boolean {
  if (existingLocalId(element) !== undefined) return true;
  const inner = element.getElementsByTagName('*');
  for (let i = 0; i < inner.length; i++) if (existingLocalId(inner[i]!) !== undefined) return true;
  return false;
}

/** Parts of a removed wrapper named in its line; the others are counted. */
const PARTS_NAMED = 3;

/**
 * The outermost parts with a role of a removed wrapper that has none: `heading "Parameters", button "Try it out",
 * table and 4 more`. Null when it held fewer than two (the one part, or its text, says it better).
 */
function partsWithRole(element: Element): string | null {
  const parts = outerParts(element);
  if (parts.length < 2) return null;
  const named = parts.slice(0, PARTS_NAMED).map((part) => `${roleOf(part)}${nameSuffix(part, roleOf(part)!)}`);
  return `${named.join(', ')}${parts.length > PARTS_NAMED ? ` and ${parts.length - PARTS_NAMED} more` : ''}`;
}

/** The outermost elements with a role inside a roleless one. */
function outerParts(element: Element): Element[] {
  const parts: Element[] = [];
  const inner = element.getElementsByTagName('*');
  for (let i = 0; i < inner.length && i < 2_000; i++) {
    const part = inner[i]!;
    if (!roleOf(part) || part.getAttribute('aria-hidden') === 'true') continue;
    if (parts.some((outer) => outer.contains(part))) continue;
    parts.push(part);
  }
  return parts;
}

function placeOf(element: Element): string {
  const role = roleOf(element)!;
  return `${role}${nameSuffix(element, role)} [ref=#${localIdOf(element)}]`;
}

/**
 * One line per removal, removals of one role under one place counted together (a grid drops rows from several
 * containers at once); a counted line says the refs are stale, since it names none of them. Rows without a role
 * that held refs (a virtual list's divs, redrawn in place as it scrolls) are counted by tag and class.
 */
export function removalLines(records: MutationRecord[], removals: Map<Node, Element[]>, closed: ClosedPopup[]): string[] {
  const removedLines = new Map<string, { count: number; role: string; names: string[] }>();
  const wrappers: string[] = [];
  // Places that got new elements too: what left them without a role was redrawn (an editor's lines), not lost.
  const refilled = new Set<Node>();
  for (const record of records) {
    if (record.type === 'childList' && [...record.addedNodes].some((node) => node.nodeType === Node.ELEMENT_NODE)) refilled.add(record.target);
  }
  for (const [parent, removed] of removals) {
    // Removed from something itself removed (a dropped row's cells): that removal already says it. Removed from
    // what the snapshot never shows (an editor's aria-hidden lines, redrawn as it types): nothing a line said is gone.
    if (!parent.isConnected || hiddenFromTree(parent)) continue;
    const described = removed.filter((element) => roleOf(element) || element.querySelector('*'));
    if (described.length === 0) continue;
    const where = parent.nodeType === Node.ELEMENT_NODE ? nearestWithRole(parent) : null;
    const under = where && where.isConnected ? ` from ${placeOf(where)}` : '';
    for (const element of described) {
      // In the page still: moved elsewhere (said as moved), or put back where it was; not removed.
      if (element.isConnected) continue;
      // A closed popup was said above, also when what was removed is a wrapper of it without a role of its own.
      if (closed.some((popup) => popup.element === element || (!roleOf(element) && element.contains(popup.element)))) continue;
      // A wrapper without a role (a collapsed section's body) stands for the parts with a role it held.
      const parts = roleOf(element) ? null : partsWithRole(element);
      if (parts) {
        wrappers.push(`- removed: ${parts}${under}`);
        continue;
      }
      // A roleless holder of one part with a role and nothing else to read (a button in a span drawn again) stands
      // for that part; a row with text beside its button is a row.
      const only = roleOf(element) ? null : outerParts(element);
      const squashed = (node: Element): string => (node.textContent ?? '').replace(/\s+/g, ' ').trim();
      const named = only?.length === 1 && squashed(only[0]!) === squashed(element) ? only[0]! : element;
      let role = roleOf(named) ?? roleOf(element.querySelector('[role], dialog, ul, ol, table, form, nav') ?? element);
      // Nothing with a role: what was lost is its text, unless it was redrawn (new elements in the same place, or
      // the same text still there, as code editors and virtual lists redraw their lines) and held no ref.
      let name = role ? nameSuffix(named, role) || heldText(named) : refilled.has(parent) ? null : removedText(element, parent);
      if (name === null && !role && heldRefs(element)) {
        role = `rows (${kindOf(element)})`;
        name = removedText(element, document) ?? '';
      }
      if (name === null) continue;
      const key = `${role ?? 'text'}${under}`;
      const entry = removedLines.get(key) ?? { count: 0, role: role ?? 'text', names: [] };
      entry.count++;
      entry.names.push(name);
      removedLines.set(key, entry);
    }
  }
  const lines: string[] = [...new Set(wrappers)];
  for (const [key, entry] of removedLines) {
    const under = key.slice(entry.role.length);
    // A row without a role is named `rows (div.row)` already; the refs it held were those of what it held.
    if (entry.count > FOLD_OVER) lines.push(`- removed: ${entry.count} ${entry.role.startsWith('rows (') ? `${entry.role} and the refs inside them` : `${entry.role}s`}${under} (their refs are stale)`);
    else {
      // Items that read alike (unnamed list items) are counted, not said once as if one went.
      const times = new Map<string, number>();
      for (const name of entry.names) times.set(name, (times.get(name) ?? 0) + 1);
      for (const [name, count] of times) {
        if (count > 1) lines.push(`- removed: ${count} ${entry.role.startsWith('rows (') ? entry.role : `${entry.role}s`}${name}${under} (their refs are stale)`);
        // One roleless row that held refs: `- removed: a span.tc-reveal (the refs inside it are stale)`.
        else if (entry.role.startsWith('rows (')) lines.push(`- removed: a ${entry.role.slice(6, -1)}${name}${under} (the refs inside it are stale)`);
        else lines.push(`- removed: ${entry.role}${name}${under}`);
      }
    }
  }
  return lines;
}

/** How a folded item came to be in the delta: new, put elsewhere in its list, or the same element showing other content. */
export type ItemChange = 'added' | 'moved' | 'changed';

const HOW: Record<ItemChange, string> = {
  added: 'added',
  moved: 'moved to new places (same refs)',
  changed: 'now show other content (same refs)',
};

/** The same, for items of more than one kind. */
const MIXED: Record<ItemChange, string> = { added: 'added', moved: 'moved', changed: 'now showing other content' };

/**
 * The counted line of a folded collection. Items that were there before and now show other content (a recycling
 * list or grid after a scroll or sort) keep their refs, which now stand for what they show now: said, since an
 * agent holding the ref of "row 3" would act on another row.
 */
export function foldLine(rest: Folded, change: (element: Element) => ItemChange): string {
  const where = nearestWithRole(rest.parent);
  const whereText = where ? ` in ${placeOf(where)}` : '';
  const what = rest.role ? `${rest.role}s` : `rows like these (${rest.kind})`;
  const kinds = new Set(rest.items.map(change));
  const how = kinds.size === 1 ? HOW[[...kinds][0]!] : (['added', 'moved', 'changed'] as const).filter((kind) => kinds.has(kind)).map((kind) => MIXED[kind]).join(' or ');
  // A collection item's read continues with the items after it; a roleless row's read is that row alone.
  const from = rest.role ? rest.items[0]! : rest.parent;
  return `- (${rest.items.length} more ${what} ${how}${whereText}; read_page with ref_id [ref=#${localIdOf(from)}] reads them)`;
}
