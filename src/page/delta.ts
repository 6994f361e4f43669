// Post-action deltas: a MutationObserver runs from just before an action until just after it; then only what
// changed is rendered: the target, the subtrees that appeared or changed, and one line per removal (many removals
// under one parent folded into a counted line). Cheap by design: nothing is read before the action.
import type { PageDelta, PagePopup } from '../browser/page-types.js';
import { PageError } from './errors.js';
import { clip, nameOf, quote } from './names.js';
import { documentId, elementFor, existingLocalId, localIdOf } from './registry.js';
import { POPUPS, roleOf } from './roles.js';
import { SnapshotWalker, shadowOf, visibilityHidden } from './snapshot-walk.js';

interface Watch {
  token: string;
  observer: MutationObserver;
  records: MutationRecord[];
  lastRecordAt: number;
  focused: Element | null;
}

let watch: Watch | null = null;

const OBSERVE: MutationObserverInit = { childList: true, subtree: true, attributes: true, characterData: true, attributeOldValue: true };
const ITEM_ROLES = new Set(['menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem', 'row', 'gridcell', 'button', 'link', 'tab']);
const FOLD_OVER = 3;
/** A subtree that only changed class/style is shown whole when it fits in this many chars, else summarized. */
const RESTYLE_LINES_MAX = 400;

/** Starts watching this document's DOM (and its open shadow trees) for one action. */
export function deltaStart(args: { token: string }): { docId: string } {
  watch?.observer.disconnect();
  const current: Watch = { token: args.token, observer: null as unknown as MutationObserver, records: [], lastRecordAt: 0, focused: document.activeElement };
  current.observer = new MutationObserver((records) => {
    current.records.push(...records);
    current.lastRecordAt = performance.now();
  });
  current.observer.observe(document, OBSERVE);
  // Shadow hosts found natively (custom elements carry a hyphen): walking every element through the sandbox's
  // wrappers would cost more than the whole action.
  const hosts = document.evaluate("//*[contains(local-name(), '-')]", document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
  for (let i = 0; i < hosts.snapshotLength && i < 500; i++) {
    const shadow = shadowOf(hosts.snapshotItem(i) as Element);
    if (shadow) current.observer.observe(shadow, OBSERVE);
  }
  watch = current;
  return { docId: documentId };
}

export interface DeltaFinishArgs {
  token: string;
  /** Page-local id of the action's target, shown first. */
  target?: { docId: string; id: number };
  maxChars: number;
  /** Longest wait for the page to go quiet after the action, ms. */
  settleMs: number;
}

/** Ends the watch and renders what changed. Fails with `delta_lost` when this is not the watched document. */
export async function deltaFinish(args: DeltaFinishArgs): Promise<PageDelta> {
  const current = watch;
  if (!current || current.token !== args.token) throw new PageError('delta_lost', 'The document changed during the action; no delta.');
  await settle(current, args.settleMs);
  current.records.push(...current.observer.takeRecords());
  current.observer.disconnect();
  watch = null;
  return render(current, args);
}

/**
 * One task turn through a message channel. Not setTimeout: Firefox clamps timers in background tabs (every tab
 * the server opens is one) to a second, which made every delta cost a second.
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** A task turn slower than this means the page had work queued ahead of ours (a render yielding in slices). */
const BUSY_TURN_MS = 3;

/** A timer turn (setTimeout 0 renders); skipped in a hidden document, where Firefox clamps timers to a second. */
function timerTurn(): Promise<void> {
  return document.hidden ? Promise.resolve() : new Promise((resolve) => window.setTimeout(resolve, 0));
}

/**
 * Lets what the action scheduled run before the delta is read: renders queued in a microtask have run already,
 * those posted to the next task (React's scheduler uses a MessageChannel) or a 0 ms timer run before our own turn.
 * Then more turns while the last one brought mutations or ran long (work continuing in slices), up to settleMs.
 */
async function settle(current: Watch, settleMs: number): Promise<void> {
  const started = performance.now();
  let count = current.records.length;
  let turnStarted = started;
  await Promise.all([nextTask(), timerTurn()]);
  while (current.records.length !== count || performance.now() - turnStarted >= BUSY_TURN_MS) {
    if (performance.now() - started >= settleMs) return;
    count = current.records.length;
    turnStarted = performance.now();
    await nextTask();
  }
}

function isShown(element: Element): boolean {
  if (!element.isConnected) return false;
  for (let node: Element | null = element; node; node = parentOf(node)) {
    if (node.getAttribute('aria-hidden') === 'true') return false;
  }
  const rect = element.getBoundingClientRect();
  return (rect.width > 0 || rect.height > 0) && !visibilityHidden(element);
}

/** The parent in the composed tree (crossing out of shadow roots). */
function parentOf(node: Node): Element | null {
  if (node.parentElement) return node.parentElement;
  const root = node.parentNode;
  return root instanceof ShadowRoot ? root.host : null;
}

function nearestWithRole(node: Node): Element | null {
  for (let element = node.nodeType === Node.ELEMENT_NODE ? (node as Element) : parentOf(node); element; element = parentOf(element)) {
    if (roleOf(element)) return element;
  }
  return null;
}

function render(current: Watch, args: DeltaFinishArgs): PageDelta {
  const added = new Set<Node>();
  const changed = new Set<Element>();
  // Elements whose only change is how they look (class, style, data-*): a theme toggle on <body> must not
  // re-render the whole page as "changed".
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
    return olds !== undefined && olds.has(attribute) && olds.get(attribute) === element.getAttribute(attribute);
  };
  for (const record of current.records) {
    if (record.type === 'childList') {
      record.addedNodes.forEach((node) => added.add(node));
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
        // Whitespace between elements renders nothing: it must not make its parent a changed subtree.
        if (node.nodeType === Node.TEXT_NODE && !node.nodeValue?.trim()) return;
        const element = node.nodeType === Node.ELEMENT_NODE ? (node as Element) : parentOf(node);
        if (element) changed.add(element);
      });
    } else if (record.type === 'attributes') {
      const element = record.target as Element;
      if (unchanged(element, record.attributeName)) continue;
      if (isCosmetic(record.attributeName)) restyled.add(element);
      else changed.add(element);
      if (record.attributeName === 'aria-expanded' && element.getAttribute('aria-expanded') === 'true') expandedNow.push(element);
    } else {
      const parent = parentOf(record.target);
      if (parent) changed.add(parent);
    }
  }
  for (const element of changed) restyled.delete(element);
  const roots = topmost([...changed, ...restyled].filter((element) => element.isConnected)).map((element) => nearestWithRole(element) ?? element);
  const anchors = topmost([...new Set(roots)]);
  const lines: string[] = [];
  let chars = 0;
  const budget = args.maxChars;
  let truncated = false;
  const add = (text: string): boolean => {
    if (chars + text.length + 1 > budget) {
      truncated = true;
      return false;
    }
    lines.push(text);
    chars += text.length + 1;
    return true;
  };
  let target: Element | null = null;
  if (args.target) {
    try {
      target = elementFor(args.target.docId, args.target.id);
    } catch {
      target = null;
    }
  }
  // The target's own line, when its state may have changed without a mutation (a field's value, a radio's
  // checkedness are properties); any other change of the target is in what changed. The reply's head names it
  // already, and that an action focused its target goes without saying.
  if (target && holdsState(target) && !anchors.some((anchor) => anchor.contains(target))) {
    const role = roleOf(target) ?? 'generic';
    add(new SnapshotWalker({ mode: 'all', maxChars: 400 }).render(target, role).replace(/ \[focused\]$| \[focused\](?= \[)/, ''));
  }
  for (const anchor of anchors) {
    if (!isShown(anchor)) {
      const role = roleOf(anchor);
      // No ref: nothing can act on or read a hidden element.
      if (role && existingLocalId(anchor) !== undefined) add(`- hidden: ${role}${nameSuffix(anchor, role)}`);
      continue;
    }
    const onlyRestyled = ![...changed].some((element) => anchor.contains(element) || element.contains(anchor));
    const walker = new SnapshotWalker({ mode: 'all', depth: 6, maxChars: Math.min(onlyRestyled ? RESTYLE_LINES_MAX : 1_500, budget - chars) });
    walker.walkElement(anchor);
    if (onlyRestyled && walker.full) {
      add(restyledSummary(anchor));
      continue;
    }
    for (const line of walker.lines) if (!add(line)) break;
    if (walker.full) truncated = true;
  }
  for (const [parent, removed] of removals) {
    const described = removed.filter((element) => roleOf(element) || element.querySelector('*'));
    if (described.length === 0) continue;
    const where = parent.nodeType === Node.ELEMENT_NODE ? nearestWithRole(parent) : null;
    const under = where && where.isConnected ? ` from ${roleOf(where)}${nameSuffix(where, roleOf(where)!)} [ref=#${localIdOf(where)}]` : '';
    if (described.length > FOLD_OVER) {
      const roles = new Set(described.map((element) => roleOf(element) ?? 'element'));
      const kind = roles.size === 1 ? [...roles][0]! : 'element';
      add(`- removed: ${described.length} ${kind}s${under}`);
    } else {
      for (const element of described) {
        const role = roleOf(element) ?? roleOf(element.querySelector('[role], dialog, ul, ol, table, form, nav') ?? element) ?? 'group';
        add(`- removed: ${role}${nameSuffix(element, role)}${under}`);
      }
    }
  }
  const focused = document.activeElement;
  if (focused && focused !== current.focused && focused !== target && focused !== document.body && !anchors.some((anchor) => anchor.contains(focused))) {
    const role = roleOf(focused);
    if (role) add(`- focused: ${new SnapshotWalker({ mode: 'all', maxChars: 400 }).render(focused, role).slice(2)}`);
  }
  return { docId: documentId, lines, popup: findPopup(anchors, expandedNow, target), records: current.records.length, truncated };
}

function isCosmetic(attribute: string | null): boolean {
  return attribute === 'class' || attribute === 'style' || (attribute?.startsWith('data-') ?? false);
}

/** One line for a large subtree that only changed its look: what it is, and how to read it if it matters. */
function restyledSummary(anchor: Element): string {
  const role = roleOf(anchor);
  const what = role ? `${role}${nameSuffix(anchor, role)} [ref=#${localIdOf(anchor)}]` : `<${anchor.localName}>`;
  const read = role ? 'read_page with this ref_id' : 'read_page';
  return `- restyled: ${what} (only its class/style changed; ${read} shows what it looks like now)`;
}

/** Form controls, whose value and checkedness change as properties that no MutationObserver sees. */
function holdsState(element: Element): boolean {
  const tag = element.localName;
  return tag === 'input' || tag === 'select' || tag === 'textarea' || (element as HTMLElement).isContentEditable;
}

function nameSuffix(element: Element, role: string): string {
  const name = nameOf(element, role);
  return name ? ` ${quote(clip(name, 60))}` : '';
}

/** Drops every element that has another one of the list as an ancestor (composed tree). */
function topmost(elements: Element[]): Element[] {
  const set = new Set(elements);
  return elements.filter((element) => {
    for (let up = parentOf(element); up; up = parentOf(up)) if (set.has(up)) return false;
    return true;
  });
}

/** A menu, listbox or dialog that is now shown inside what changed. */
function findPopup(anchors: Element[], expandedNow: Element[], target: Element | null): PagePopup | undefined {
  for (const anchor of anchors) {
    const candidates = [anchor, ...anchor.querySelectorAll('[role], dialog, select[multiple]')];
    for (const element of candidates) {
      const role = roleOf(element);
      if (!role || !POPUPS.has(role) || !isShown(element)) continue;
      if (element.localName === 'dialog' && !(element as HTMLDialogElement).open) continue;
      const items: number[] = [];
      for (const item of element.querySelectorAll('*')) {
        const itemRole = roleOf(item);
        if (itemRole && ITEM_ROLES.has(itemRole) && isShown(item)) items.push(localIdOf(item));
        if (items.length >= 30) break;
      }
      const opener = openerOf(element, expandedNow) ?? target;
      return { id: localIdOf(element), role, name: clip(nameOf(element, role), 60), ...(opener ? { openedBy: localIdOf(opener) } : {}), items };
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
