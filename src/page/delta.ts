// Post-action deltas: a MutationObserver runs from just before an action until just after it; then only what
// changed is rendered: the target, the subtrees that appeared or changed, and one line per removal (many removals
// under one parent folded into a counted line). Cheap by design: nothing is read before the action.
import type { PageDelta, PagePopup } from '../browser/page-types.js';
import { PageError } from './errors.js';
import { clip, nameOf, quote } from './names.js';
import { documentId, elementFor, existingLocalId, localIdOf } from './registry.js';
import { COLLECTION_ITEMS, POPUPS, roleOf } from './roles.js';
import { runningAnimations } from './settle.js';
import { SnapshotWalker, composedChildren, renders, shadowOf, visibilityHidden } from './snapshot-walk.js';

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
/** Characters kept for the line that says a delta was cut. */
const CUT_LINE_ROOM = 160;
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
  /** Longest wait, all told, for transitions and animations the action set off to end, ms. */
  animationMs?: number;
  /** Wait this long for a first change when the action made none yet (a tooltip shown after a hover delay), ms. */
  lingerMs?: number;
}

/** Ends the watch and renders what changed. Fails with `delta_lost` when this is not the watched document. */
export async function deltaFinish(args: DeltaFinishArgs): Promise<PageDelta> {
  const current = watch;
  if (!current || current.token !== args.token) throw new PageError('delta_lost', 'The document changed during the action; no delta.');
  const unsettled = await settleAll(current, args);
  current.records.push(...current.observer.takeRecords());
  current.observer.disconnect();
  watch = null;
  const delta = render(current, args);
  return unsettled ? { ...delta, unsettled } : delta;
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => window.setTimeout(resolve, ms));
}

/** The next animation frame, when transitions set off by the action start (none run in a hidden document). */
function nextFrame(): Promise<void> {
  if (document.hidden) return Promise.resolve();
  return Promise.race([new Promise<void>((resolve) => window.requestAnimationFrame(() => resolve())), sleep(50)]);
}

/** A change this large re-rendered something: its transitions start on the next frame, so wait one. */
const RERENDER_RECORDS = 10;

/**
 * settle(), then, when the action changed something, the transitions and finite animations it set off (a dialog
 * fading out, grid rows sliding into their sorted places) and what the page does once they end, within
 * animationMs. Returns what was still moving when that bound ran out.
 */
async function settleAll(current: Watch, args: DeltaFinishArgs): Promise<string | undefined> {
  const started = performance.now();
  if (args.lingerMs && current.records.length === 0 && !document.hidden) {
    const until = started + args.lingerMs;
    while (current.records.length === 0 && performance.now() < until) await sleep(Math.min(25, until - performance.now()));
  }
  await settle(current, args.settleMs);
  const bound = args.animationMs ?? 0;
  if (!bound || current.records.length === 0) return undefined;
  if (current.records.length >= RERENDER_RECORDS) await nextFrame();
  for (;;) {
    const left = bound - (performance.now() - started);
    const running = runningAnimations();
    if (!running.length) return undefined;
    if (left <= 0) return `transitions were still running after ${Math.round(bound)} ms`;
    let longest = 0;
    for (const animation of running) {
      const timing = animation.effect?.getComputedTiming();
      const end = Number(timing?.endTime ?? 0) - Number(timing?.localTime ?? 0);
      if (end > longest) longest = end;
    }
    await sleep(Math.max(10, Math.min(left, longest + 10)));
    await settle(current, args.settleMs);
  }
}

function isShown(element: Element): boolean {
  if (!element.isConnected) return false;
  for (let node: Element | null = element; node; node = parentOf(node)) {
    if (node.getAttribute('aria-hidden') === 'true') return false;
  }
  const rect = element.getBoundingClientRect();
  return (rect.width > 0 || rect.height > 0) && renders(element) && !visibilityHidden(element);
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
  const addedElements = new Set<Element>();
  const attributed = new Set<Element>();
  for (const record of current.records) {
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
        // Whitespace between elements renders nothing: it must not make its parent a changed subtree.
        if (node.nodeType === Node.TEXT_NODE && !node.nodeValue?.trim()) return;
        const element = node.nodeType === Node.ELEMENT_NODE ? (node as Element) : parentOf(node);
        if (element) changed.add(element);
      });
    } else if (record.type === 'attributes') {
      const element = record.target as Element;
      if (unchanged(element, record.attributeName)) continue;
      attributed.add(element);
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
  const { anchors, folded } = foldItems(topmost([...new Set(roots)]));
  const lines: string[] = [];
  const seen = new Set<string>();
  let chars = 0;
  // Room kept for the closing line that says the delta was cut and what to read for the rest.
  const budget = args.maxChars - CUT_LINE_ROOM;
  let truncated = false;
  let cutAt: Element | null = null;
  const add = (text: string): boolean => {
    // One line once: overlapping changes (a row's cell and the row) must not list an element twice.
    if (text.includes('[ref=#') && seen.has(text.trim())) return true;
    if (chars + text.length + 1 > budget) {
      truncated = true;
      return false;
    }
    seen.add(text.trim());
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
    if (walker.full || truncated) {
      truncated = true;
      cutAt ??= anchor;
    }
    const rest = folded.get(anchor);
    if (rest) {
      const where = nearestWithRole(rest.parent);
      const whereText = where ? ` in ${roleOf(where)}${nameSuffix(where, roleOf(where)!)} [ref=#${localIdOf(where)}]` : '';
      add(`- (${rest.items.length} more ${rest.role}s added or changed${whereText}; read_page with ref_id [ref=#${localIdOf(rest.items[0]!)}] reads them)`);
    }
  }
  // Removals under one place are counted together (a grid drops rows from several containers at once).
  const removedLines = new Map<string, { count: number; role: string; names: string[] }>();
  for (const [parent, removed] of removals) {
    // Removed from something itself removed (a dropped row's cells): that removal already says it.
    if (!parent.isConnected) continue;
    const described = removed.filter((element) => roleOf(element) || element.querySelector('*'));
    if (described.length === 0) continue;
    const where = parent.nodeType === Node.ELEMENT_NODE ? nearestWithRole(parent) : null;
    const under = where && where.isConnected ? ` from ${roleOf(where)}${nameSuffix(where, roleOf(where)!)} [ref=#${localIdOf(where)}]` : '';
    for (const element of described) {
      const role = roleOf(element) ?? roleOf(element.querySelector('[role], dialog, ul, ol, table, form, nav') ?? element) ?? 'group';
      const key = `${role}${under}`;
      const entry = removedLines.get(key) ?? { count: 0, role, names: [] };
      entry.count++;
      entry.names.push(nameSuffix(element, role));
      removedLines.set(key, entry);
    }
  }
  for (const [key, entry] of removedLines) {
    const under = key.slice(entry.role.length);
    if (entry.count > FOLD_OVER) add(`- removed: ${entry.count} ${entry.role}s${under}`);
    else for (const name of new Set(entry.names)) add(`- removed: ${entry.role}${name}${under}`);
  }
  const focused = document.activeElement;
  if (focused && focused !== current.focused && focused !== target && focused !== document.body && !anchors.some((anchor) => anchor.contains(focused))) {
    const role = roleOf(focused);
    if (role) add(`- focused: ${new SnapshotWalker({ mode: 'all', maxChars: 400 }).render(focused, role).slice(2)}`);
  }
  if (truncated) {
    // Say that it was cut, and what to read for the rest.
    const at = cutAt ?? anchors[0];
    const role = at ? (roleOf(at) ?? 'generic') : '';
    lines.push(
      at
        ? `- (delta cut at ${args.maxChars} chars; read_page with ref_id of ${role}${nameSuffix(at, role)} [ref=#${localIdOf(at)}] shows the rest)`
        : `- (delta cut at ${args.maxChars} chars; read_page shows the rest)`,
    );
  }
  const appeared = (element: Element): boolean => {
    for (let up: Element | null = element; up; up = parentOf(up)) if (addedElements.has(up) || attributed.has(up)) return true;
    return false;
  };
  return { docId: documentId, lines, popup: findPopup(anchors, expandedNow, target, appeared), records: current.records.length, truncated };
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
function foldItems(list: Element[]): { anchors: Element[]; folded: Map<Element, { parent: Element; role: string; items: Element[] }> } {
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

/** Drops every element that has another one of the list as an ancestor (composed tree). */
function topmost(elements: Element[]): Element[] {
  const set = new Set(elements);
  return elements.filter((element) => {
    for (let up = parentOf(element); up; up = parentOf(up)) if (set.has(up)) return false;
    return true;
  });
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
function findPopup(anchors: Element[], expandedNow: Element[], target: Element | null, appeared: (element: Element) => boolean): PagePopup | undefined {
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
