// Many items of one collection changed together (rows re-rendered by a sort): the delta shows the first few in
// their shown order and one counted line for the rest.
import { COLLECTION_ITEMS, roleOf } from './roles.js';
import { parentOf } from './shown.js';

/** Items of one collection beyond this many, added or changed together, are folded into one counted line. */
const ITEMS_SHOWN = 5;

/** Where an item sits in its collection: aria-rowindex / aria-posinset when given (virtualized grids keep DOM order loose). */
function positionOf(element: Element): number {
  return Number(element.getAttribute('aria-rowindex') ?? element.getAttribute('aria-posinset') ?? NaN);
}

/**
 * Orders anchors small first (a status line before a re-rendered grid: changes an agent reads first), and folds
 * many items of one collection (rows re-rendered by a sort) into the first few in their shown order plus one
 * counted line, naming the first folded item, whose read_page ref_id continues through the rest.
 */
export function foldItems(list: Element[]): { anchors: Element[]; folded: Map<Element, { parent: Element; role: string; items: Element[] }> } {
  const groups = new Map<Element, Element[]>();
  for (const anchor of list) {
    const role = roleOf(anchor);
    const parent = parentOf(anchor);
    if (!role || !parent || !COLLECTION_ITEMS.has(role)) continue;
    const group = groups.get(parent) ?? [];
    group.push(anchor);
    groups.set(parent, group);
  }
  const dropped = new Set<Element>();
  const folded = new Map<Element, { parent: Element; role: string; items: Element[] }>();
  for (const [parent, group] of groups) {
    if (group.length <= ITEMS_SHOWN + 1) continue;
    const ordered = group.every((item) => !Number.isNaN(positionOf(item))) ? [...group].sort((a, b) => positionOf(a) - positionOf(b)) : group;
    const rest = ordered.slice(ITEMS_SHOWN);
    for (const item of rest) dropped.add(item);
    folded.set(ordered[ITEMS_SHOWN - 1]!, { parent, role: roleOf(ordered[0]!)!, items: rest });
    // The shown ones go in their shown order.
    const shown = ordered.slice(0, ITEMS_SHOWN);
    const slots = group.filter((item) => shown.includes(item));
    slots.forEach((slot, index) => list.splice(list.indexOf(slot), 1, shown[index]!));
  }
  const kept = list.filter((anchor) => !dropped.has(anchor));
  const size = new Map(kept.map((anchor) => [anchor, anchor.getElementsByTagName('*').length]));
  const byGroup = (anchor: Element): number => {
    const parent = parentOf(anchor);
    const group = parent ? groups.get(parent) : undefined;
    return group && group.length > ITEMS_SHOWN + 1 ? Infinity : size.get(anchor)!;
  };
  // Stable: equal sizes keep document order, and a folded collection stays together at the end.
  const anchors = kept.map((anchor, index) => ({ anchor, index, weight: byGroup(anchor) })).sort((a, b) => (a.weight === b.weight ? a.index - b.index : a.weight - b.weight)).map((entry) => entry.anchor);
  return { anchors, folded };
}
