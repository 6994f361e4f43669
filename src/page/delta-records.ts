// What an action's mutation records say changed, sorted for the render: elements added, changed (text, a
// non-cosmetic attribute, a value, shown or hidden by a style), only restyled, and removed per place.
import { fieldState, rendersNow } from './delta-before.js';
import { isCosmetic, onlyInteractionClasses, unshownAttribute } from './record-kinds.js';
import { parentOf } from './shown.js';

/** What the records of a watch are read from: the records, the fields' values and what rendered before. */
export interface Recorded {
  records: MutationRecord[];
  values: Map<Element, string>;
  rendered: Map<Element, boolean>;
}

export interface Classified {
  changed: Set<Element>;
  /** Elements whose only change is how they look (class, style, data-*): a theme toggle on <body> must not re-render the whole page as "changed". */
  restyled: Set<Element>;
  /** Removed elements by the place they left. */
  removals: Map<Node, Element[]>;
  /** Controls whose aria-expanded became true. */
  expandedNow: Element[];
  addedElements: Set<Element>;
  /** Elements with an attribute changed for real. */
  attributed: Set<Element>;
  /** Shown before, hidden by a style since (a class on an ancestor, :hover gone). */
  hiddenByStyle: Element[];
}

export function classify(current: Recorded): Classified {
  const added = new Set<Node>();
  const changed = new Set<Element>();
  const restyled = new Set<Element>();
  const removals = new Map<Node, Element[]>();
  const expandedNow: Element[] = [];
  // An attribute set to the value it already had (a script resetting aria-expanded="false" on every button of a
  // table) changes nothing: compare the first old value seen with the value now.
  const firstOld = new Map<Element, Map<string, string | null>>();
  for (const record of current.records) {
    if (record.type !== 'attributes' || !record.attributeName) continue;
    const element = record.target as Element;
    const olds = firstOld.get(element) ?? new Map<string, string | null>();
    if (!olds.has(record.attributeName)) olds.set(record.attributeName, record.oldValue);
    firstOld.set(element, olds);
  }
  const unchanged = (element: Element, attribute: string | null): boolean => {
    if (!attribute) return false;
    const olds = firstOld.get(element);
    if (olds === undefined || !olds.has(attribute)) return false;
    const old = olds.get(attribute);
    const now = element.getAttribute(attribute);
    // An empty class or style looks as none: dragula leaves `class=""` on <body> after the first drag.
    return old === now || (isCosmetic(attribute) && !old && !now);
  };
  const addedElements = new Set<Element>();
  const attributed = new Set<Element>();
  const netSame = textBackAsItWas(current.records);
  for (const record of current.records) {
    // Text replaced by the same text (`textContent = sameValue` on every input event) changed nothing, nor text that
    // went and came back within the action (a word count 5 -> 4 -> 5 as a selection is typed over).
    if (record.type === 'childList' && sameText(record)) continue;
    if (record.type !== 'attributes' && netSame.has(record.target)) continue;
    if (record.type === 'childList') {
      record.addedNodes.forEach((node) => {
        added.add(node);
        if (node.nodeType === Node.ELEMENT_NODE) addedElements.add(node as Element);
      });
      record.removedNodes.forEach((node) => {
        if (added.has(node)) return;
        if (node.nodeType === Node.ELEMENT_NODE) {
          const list = removals.get(record.target) ?? [];
          list.push(node as Element);
          removals.set(record.target, list);
        } else if (record.target.nodeType === Node.ELEMENT_NODE && (node.nodeType !== Node.TEXT_NODE || node.nodeValue?.trim())) {
          changed.add(record.target as Element);
        }
      });
      record.addedNodes.forEach((node) => {
        // Whitespace between elements renders nothing: it must not make its parent a changed subtree. Nor does a
        // node put in and taken out again within the action (an editor's caret marker as focus leaves it).
        if ((node.nodeType === Node.TEXT_NODE && !node.nodeValue?.trim()) || !node.isConnected) return;
        const element = node.nodeType === Node.ELEMENT_NODE ? (node as Element) : parentOf(node);
        if (element) changed.add(element);
      });
    } else if (record.type === 'attributes') {
      const element = record.target as Element;
      if (unchanged(element, record.attributeName) || unshownAttribute(record.attributeName)) continue;
      if (record.attributeName === 'class' && onlyInteractionClasses(firstOld.get(element)?.get('class') ?? null, element.getAttribute('class'))) continue;
      attributed.add(element);
      if (isCosmetic(record.attributeName)) restyled.add(element);
      else changed.add(element);
      if (record.attributeName === 'aria-expanded' && element.getAttribute('aria-expanded') === 'true') expandedNow.push(element);
    } else {
      const parent = parentOf(record.target);
      if (parent) changed.add(parent);
    }
  }
  for (const [element, value] of current.values) if (element.isConnected && fieldState(element) !== value) changed.add(element);
  // Shown or hidden by a style that changed elsewhere (a class on an ancestor, :hover): a change of its own.
  const hiddenByStyle: Element[] = [];
  for (const [element, before] of current.rendered) {
    if (!element.isConnected || rendersNow(element) === before) continue;
    changed.add(element);
    if (before) hiddenByStyle.push(element);
  }
  for (const element of changed) restyled.delete(element);
  return { changed, restyled, removals, expandedNow, addedElements, attributed, hiddenByStyle };
}

/**
 * Text containers and text nodes whose text is back to what it was before the action's first change of them: each
 * change was text only (text nodes added, removed or edited), and the text now equals the text before, found by
 * undoing the records from the end (a virtual DOM that adds the new "p" and then removes the old "p" changed nothing).
 */
function textBackAsItWas(records: MutationRecord[]): Set<Node> {
  const touched = new Map<Node, MutationRecord[]>();
  const textOnly = (record: MutationRecord): boolean => [...record.removedNodes, ...record.addedNodes].every((node) => node.nodeType === Node.TEXT_NODE);
  // Records run to thousands on every action: each is appended once, never copied.
  const note = (node: Node, record: MutationRecord): void => {
    const list = touched.get(node);
    if (list) list.push(record);
    else touched.set(node, [record]);
  };
  for (const record of records) {
    if (record.type === 'attributes') continue;
    const container = record.type === 'characterData' ? record.target.parentNode : record.target;
    if (record.type === 'characterData') note(record.target, record);
    if (container?.nodeType === Node.ELEMENT_NODE) note(container, record);
  }
  const same = new Set<Node>();
  for (const [node, list] of touched) {
    // A text node has only its own characterData records: back to its first old value.
    if (node.nodeType === Node.TEXT_NODE) {
      if (list[0]!.oldValue === node.nodeValue) same.add(node);
      continue;
    }
    if ((node as Element).childElementCount > 0 || !list.every((record) => record.type === 'characterData' || textOnly(record))) continue;
    const before = textBefore(node, list);
    if (before !== null && before === node.textContent) {
      same.add(node);
      node.childNodes.forEach((child) => same.add(child));
    }
  }
  return same;
}

/** The text a text-only container held before `records` (its own, in order), undone from its children now. */
function textBefore(container: Node, records: MutationRecord[]): string | null {
  const children: Node[] = [...container.childNodes];
  const values = new Map<Node, string | null>();
  for (const record of [...records].reverse()) {
    if (record.type === 'characterData') {
      values.set(record.target, record.oldValue);
      continue;
    }
    for (const node of record.addedNodes) {
      const at = children.indexOf(node);
      if (at >= 0) children.splice(at, 1);
    }
    let at = record.previousSibling ? children.indexOf(record.previousSibling) + 1 : record.nextSibling ? children.indexOf(record.nextSibling) : 0;
    if (at < 0 || (record.previousSibling && at === 0)) return null;
    for (const node of record.removedNodes) children.splice(at++, 0, node);
  }
  return children.map((child) => (values.has(child) ? values.get(child) : child.nodeValue) ?? '').join('');
}

/** A record that swapped text nodes for text nodes holding the same text. */
function sameText(record: MutationRecord): boolean {
  if (record.addedNodes.length === 0 || record.removedNodes.length === 0) return false;
  let before = '';
  let after = '';
  for (const node of record.removedNodes) {
    if (node.nodeType !== Node.TEXT_NODE) return false;
    before += node.nodeValue ?? '';
  }
  for (const node of record.addedNodes) {
    if (node.nodeType !== Node.TEXT_NODE) return false;
    after += node.nodeValue ?? '';
  }
  return before === after;
}

/** Text shorter than this (not ending a line) is shown whole even when the action only added to its end. */
const TAIL_OVER = 40;

/**
 * Text containers (no element children: a log, a status line) whose text the action only added to the end of
 * (`textContent += line`, or one text node growing): the added part, so a log is not listed again whole.
 */
export function appendedText(records: MutationRecord[]): Map<Element, string> {
  const before = new Map<Element, string | null>();
  for (const record of records) {
    const parent = record.type === 'characterData' ? record.target.parentElement : (record.target as Element);
    if (!parent || before.has(parent)) continue;
    if (record.type === 'characterData' && parent.childNodes.length === 1) before.set(parent, record.oldValue);
    else if (record.type === 'childList' && [...record.removedNodes].every((node) => node.nodeType === Node.TEXT_NODE) && [...record.addedNodes].every((node) => node.nodeType === Node.TEXT_NODE)) {
      // The text before this first change: what it had then, if this record replaced all of it.
      before.set(parent, record.removedNodes.length > 0 && !record.previousSibling && !record.nextSibling ? [...record.removedNodes].map((node) => node.nodeValue ?? '').join('') : null);
    } else before.set(parent, null);
  }
  const tails = new Map<Element, string>();
  for (const [parent, old] of before) {
    // A log adds lines (the old text ends with a line break); a short status that grew ("Saved" → "Saved!") is shown whole.
    if (old === null || !old.trim() || (!/\n\s*$/.test(old) && old.trim().length < TAIL_OVER) || parent.childElementCount > 0) continue;
    const now = parent.textContent ?? '';
    if (now.length > old.length && now.startsWith(old)) tails.set(parent, now.slice(old.length));
  }
  return tails;
}

