// The popups an action opened or closed: a delta's "Opened" menu, listbox or dialog with its items, and its
// "- closed:" lines.
import type { PagePopup } from '../contract/index.js';
import { clip, nameOf, nameSuffix } from './names.js';
import { localIdOf } from './registry.js';
import { POPUPS, roleOf } from './roles.js';
import { isShown } from './shown.js';
import { SnapshotWalker, composedChildren, shadowOf } from './snapshot-walk.js';

/** Roles of a popup's items, listed under its "Opened" line. */
const ITEM_ROLES = new Set(['menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem', 'row', 'gridcell', 'button', 'link', 'tab']);

export interface ClosedPopup {
  element: Element;
  role: string;
  /** ` "name"` or ''. */
  name: string;
}

/** Roles whose closing is worth a `- closed:` line. */
const CLOSABLE = new Set(['dialog', 'alertdialog', 'menu', 'listbox']);

/**
 * Dialogs, menus and listboxes that the action closed: removed from the page, or no longer shown with a record
 * that says they were open before (an `open` or `active` attribute taken away, `hidden` / `aria-hidden="true"` /
 * `aria-expanded="false"` put on where it was not). A class change alone proves nothing about before.
 */
export function closedPopups(records: MutationRecord[], removals: Map<Node, Element[]>): ClosedPopup[] {
  const found = new Map<Element, ClosedPopup>();
  // A dialog that gives up its role as it closes (Bootstrap's modal removes role="dialog") closed as a dialog.
  const roleBefore = new Map<Element, string>();
  for (const record of records) {
    if (record.type === 'attributes' && record.attributeName === 'role' && record.oldValue && !roleBefore.has(record.target as Element)) roleBefore.set(record.target as Element, record.oldValue);
  }
  const note = (element: Element | null | undefined, mustBeGone: boolean): void => {
    if (!element || found.has(element)) return;
    const role = roleOf(element) ?? roleBefore.get(element) ?? null;
    if (!role || !CLOSABLE.has(role)) return;
    if (mustBeGone && isShown(element)) return;
    found.set(element, { element, role, name: nameSuffix(element, role) });
  };
  const closableIn = (element: Element): Element | null => {
    if (CLOSABLE.has(roleOf(element) ?? roleBefore.get(element) ?? '')) return element;
    const selector = '[role=dialog], [role=alertdialog], [role=menu], [role=listbox], dialog';
    return element.querySelector(selector) ?? shadowOf(element)?.querySelector(selector) ?? null;
  };
  for (const record of records) {
    if (record.type !== 'attributes' || !record.attributeName) continue;
    const element = record.target as Element;
    const name = record.attributeName;
    const now = element.getAttribute(name);
    const wasOpen =
      ((name === 'open' || name === 'active') && record.oldValue !== null && now === null) ||
      (name === 'hidden' && record.oldValue === null && now !== null) ||
      (name === 'aria-hidden' && record.oldValue !== 'true' && now === 'true') ||
      (name === 'aria-expanded' && record.oldValue === 'true' && now === 'false');
    if (!wasOpen || !element.isConnected) continue;
    if (name === 'aria-expanded') {
      // The control collapsed: the popup it controls (aria-controls) closed.
      const id = element.getAttribute('aria-controls');
      const root = element.getRootNode() as Document | ShadowRoot;
      if (id) note(root.getElementById?.(id) ?? null, true);
      continue;
    }
    note(closableIn(element), true);
  }
  // A popup taken out of a wrapper that was itself taken out of the page (TinyMCE empties its menu's holder, then
  // removes the holder) was on the page too; one never put on the page (a fragment built and dropped) was not.
  const removedFrom = new Map<Node, Node>();
  for (const [parent, removed] of removals) for (const element of removed) removedFrom.set(element, parent);
  const wasOnPage = (node: Node): boolean => {
    for (let up: Node | undefined = node, steps = 0; up && steps < 16; up = removedFrom.get(up), steps++) if (up.isConnected) return true;
    return false;
  };
  for (const [parent, removed] of removals) {
    if (!wasOnPage(parent)) continue;
    for (const element of removed) if (!element.isConnected) note(closableIn(element), false);
  }
  return [...found.values()];
}

/** Popups worth an "Opened" line; a grid or tree only when a control that expanded says it controls it. */
const OPENED_ROLES = new Set(['menu', 'listbox', 'dialog', 'alertdialog']);

const DIALOGS = new Set(['dialog', 'alertdialog']);

/** The element that controls this popup (aria-controls names its id) says it is collapsed. */
function closedByController(popup: Element): boolean {
  if (!popup.id) return false;
  const root = popup.getRootNode() as Document | ShadowRoot;
  for (const controller of root.querySelectorAll('[aria-controls][aria-expanded]')) {
    if ((controller.getAttribute('aria-controls') ?? '').split(/\s+/).includes(popup.id)) return controller.getAttribute('aria-expanded') === 'false';
  }
  return false;
}

/** Shown items of a popup, through shadow roots and slots (a web component's options are slotted). */
function popupItems(popup: Element): Element[] {
  const items: Element[] = [];
  const visit = (node: Node): void => {
    if (items.length >= 30 || node.nodeType !== Node.ELEMENT_NODE) return;
    const element = node as Element;
    const role = roleOf(element);
    if (element !== popup && role && ITEM_ROLES.has(role)) {
      if (isShown(element)) items.push(element);
      return;
    }
    const children = composedChildren(element);
    for (let i = 0; i < children.length; i++) visit(children[i]!);
  };
  visit(popup);
  return items;
}

/**
 * A menu, listbox or dialog that this action made appear (it, or an element around it, was added or changed its
 * attributes) and that is still shown now that the page has settled.
 */
export function findPopup(anchors: Element[], expandedNow: Element[], target: Element | null, appeared: (element: Element) => boolean): PagePopup | undefined {
  const controlled = new Set(expandedNow.flatMap((element) => (element.getAttribute('aria-controls') ?? '').split(/\s+/).filter(Boolean)));
  for (const anchor of anchors) {
    const candidates = [anchor, ...anchor.querySelectorAll('[role], dialog, select[multiple]')];
    for (const host of anchor.querySelectorAll('*')) {
      const shadow = shadowOf(host);
      if (shadow) candidates.push(...shadow.querySelectorAll('[role], dialog'));
      if (candidates.length > 2000) break;
    }
    // A dialog the action opened outranks a menu or listbox that merely changed around it.
    candidates.sort((a, b) => Number(DIALOGS.has(roleOf(b) ?? '')) - Number(DIALOGS.has(roleOf(a) ?? '')));
    for (const element of candidates) {
      const role = roleOf(element);
      if (!role || !POPUPS.has(role)) continue;
      if (!OPENED_ROLES.has(role) && !(element.id && controlled.has(element.id))) continue;
      if (!isShown(element) || !appeared(element)) continue;
      if (element.localName === 'dialog' && !(element as HTMLDialogElement).open) continue;
      // Closed by its own account, or by its control's (aria-expanded="false").
      if (element.getAttribute('aria-expanded') === 'false' || closedByController(element)) continue;
      const opener = openerOf(element, expandedNow) ?? target;
      if (opener && opener.getAttribute('aria-expanded') === 'false' && !DIALOGS.has(role)) continue;
      const items = popupItems(element);
      const walker = new SnapshotWalker({ mode: 'all', maxChars: 4000 });
      return {
        id: localIdOf(element),
        role,
        name: clip(nameOf(element, role), 60),
        ...(opener ? { openedBy: localIdOf(opener) } : {}),
        items: items.map((item) => localIdOf(item)),
        itemLines: items.map((item) => walker.render(item, roleOf(item)!)),
      };
    }
  }
  return undefined;
}

function openerOf(popup: Element, expandedNow: Element[]): Element | null {
  const id = popup.id;
  if (id) {
    const controller = expandedNow.find((element) => (element.getAttribute('aria-controls') ?? '').split(/\s+/).includes(id));
    if (controller) return controller;
  }
  return expandedNow[0] ?? null;
}
