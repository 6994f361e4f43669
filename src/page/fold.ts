// Many items of one collection changed together (rows re-rendered by a sort, a virtual list's rows after a scroll):
// the delta shows the first few in their shown order and one counted line for the rest.
import { COLLECTION_ITEMS, roleOf } from './roles.js';
import { parentOf } from './shown.js';

/** Items of one collection beyond this many, added or changed together, are folded into one counted line. */
const ITEMS_SHOWN = 5;

export interface Folded {
  parent: Element;
  /** The items' role; null for rows without one (react-window's divs), told apart by tag and class. */
  role: string | null;
  /** How such a row is named when it has no role: `div.row`. */
  kind: string;
  items: Element[];
}

/** Where an item sits in its collection: aria-rowindex / aria-posinset when given (virtualized grids keep DOM order loose). */
function positionOf(element: Element): number {
  return Number(element.getAttribute('aria-rowindex') ?? element.getAttribute('aria-posinset') ?? NaN);
}

/**
 * The items in the order they are shown: by their index when every one has it, else top to bottom, left to right
 * (a recycling list reuses its row elements wherever they are in the DOM, and positions them absolutely). Those in
 * the viewport come first: a virtual grid keeps a buffer of rows above and below it, which are only counted.
 */
function shownOrder(group: Element[], parent: Element): Element[] {
  const boxes = new Map(group.map((item) => [item, item.getBoundingClientRect()]));
  const ordered = group.every((item) => !Number.isNaN(positionOf(item)))
    ? [...group].sort((a, b) => positionOf(a) - positionOf(b))
    : [...group].sort((a, b) => boxes.get(a)!.top - boxes.get(b)!.top || boxes.get(a)!.left - boxes.get(b)!.left);
  const clip = clipOf(parent);
  const inView = (item: Element): boolean => boxes.get(item)!.bottom > clip.top && boxes.get(item)!.top < clip.bottom;
  return [...ordered.filter(inView), ...ordered.filter((item) => !inView(item))];
}

/** The vertical span the items can be seen in: their scroll container's box within the viewport. */
function clipOf(parent: Element): { top: number; bottom: number } {
  let top = 0;
  let bottom = window.innerHeight;
  for (let element: Element | null = parent; element && element !== document.documentElement; element = parentOf(element)) {
    if (element.scrollHeight <= element.clientHeight + 1 || getComputedStyle(element).overflowY === 'visible') continue;
    const box = element.getBoundingClientRect();
    top = Math.max(top, box.top);
    bottom = Math.min(bottom, box.bottom);
    break;
  }
  return { top, bottom };
}

/** tag.class of a row without a role: repeated siblings alike in both are rows of one list. */
export function kindOf(element: Element): string {
  const first = (element.getAttribute('class') ?? '').trim().split(/\s+/)[0];
  return `${element.localName}${first ? `.${first}` : ''}`;
}

/** The group an anchor belongs to: its collection (parent and role), or for a roleless one its parent and kind. */
function groupKey(anchor: Element): { parent: Element; key: string } | null {
  const parent = parentOf(anchor);
  if (!parent) return null;
  const role = roleOf(anchor);
  if (role) return COLLECTION_ITEMS.has(role) ? { parent, key: role } : null;
  // A roleless element only groups with siblings that hold something (rows), not bare text wrappers.
  return anchor.firstElementChild ? { parent, key: `<${kindOf(anchor)}>` } : null;
}

/**
 * Orders anchors small first (a status line before a re-rendered grid: changes an agent reads first), and folds
 * many items of one collection (rows re-rendered by a sort) into the first few in their shown order plus one
 * counted line, naming the first folded item, whose read_page ref_id continues through the rest.
 */
export function foldItems(list: Element[]): { anchors: Element[]; folded: Map<Element, Folded> } {
  const groups = new Map<Element, Map<string, Element[]>>();
  for (const anchor of list) {
    const place = groupKey(anchor);
    if (!place) continue;
    const byKey = groups.get(place.parent) ?? new Map<string, Element[]>();
    byKey.set(place.key, [...(byKey.get(place.key) ?? []), anchor]);
    groups.set(place.parent, byKey);
  }
  const dropped = new Set<Element>();
  const grouped = new Set<Element>();
  const folded = new Map<Element, Folded>();
  for (const [parent, byKey] of groups) {
    for (const group of byKey.values()) {
      if (group.length <= ITEMS_SHOWN + 1) continue;
      const ordered = shownOrder(group, parent);
      const rest = ordered.slice(ITEMS_SHOWN);
      for (const item of group) grouped.add(item);
      for (const item of rest) dropped.add(item);
      folded.set(ordered[ITEMS_SHOWN - 1]!, { parent, role: roleOf(ordered[0]!), kind: kindOf(ordered[0]!), items: rest });
      // The shown ones go in their shown order.
      const shown = ordered.slice(0, ITEMS_SHOWN);
      const slots = group.filter((item) => shown.includes(item));
      slots.forEach((slot, index) => list.splice(list.indexOf(slot), 1, shown[index]!));
    }
  }
  const kept = list.filter((anchor) => !dropped.has(anchor));
  const size = new Map(kept.map((anchor) => [anchor, anchor.getElementsByTagName('*').length]));
  // Stable: equal sizes keep document order, and a folded collection stays together at the end.
  const weight = (anchor: Element): number => (grouped.has(anchor) ? Infinity : size.get(anchor)!);
  const anchors = kept.map((anchor, index) => ({ anchor, index, weight: weight(anchor) })).sort((a, b) => (a.weight === b.weight ? a.index - b.index : a.weight - b.weight)).map((entry) => entry.anchor);
  return { anchors, folded };
}
