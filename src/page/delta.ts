// Post-action deltas: a MutationObserver runs from just before an action until just after it; then only what
// changed is rendered: the target, the subtrees that appeared or changed, and one line per removal or move (many
// under one place folded into a counted line). Around it: what is read before the action, riding on the page call
// that checks the target (delta-before.ts), the wait for the page to settle (delta-settle.ts), what the records
// say changed (delta-records.ts), the lines for what left or moved (delta-removed.ts, delta-moved.ts).
import { wordsOf } from './text-runs.js';
import type { PageDelta } from '../contract/index.js';
import { PageError } from './errors.js';
import { nameSuffix, quote } from './names.js';
import { documentId, elementFor, existingLocalId, localIdOf } from './registry.js';
import { NAME_FROM_CONTENT, PAGE_LANDMARKS, roleOf } from './roles.js';
import { fadeStarted, settleAll, type SettleArgs } from './delta-settle.js';
import { appendedText, classify } from './delta-records.js';
import { arrivalOf } from './record-kinds.js';
import { foldItems } from './fold.js';
import { foldLine, nearestWithRole, removalLines } from './delta-removed.js';
import { movedLines } from './delta-moved.js';
import { pairRerendered } from './delta-rerendered.js';
import { namedContextLine } from './place-name.js';
import { fieldState, fieldValues, renderedBefore } from './delta-before.js';
import { closedPopups, findPopup } from './popups.js';
import { hiddenFromTree, isShown, parentOf } from './shown.js';
import { SnapshotWalker, renders, shadowOf } from './snapshot-walk.js';
import { customElementHosts, forgetCustomElements } from './composed.js';

interface Watch {
  token: string;
  observer: MutationObserver;
  records: MutationRecord[];
  lastRecordAt: number;
  focused: Element | null;
  /** Form fields' values when the action began: a script that sets one (a viewer's page number) is no mutation. */
  values: Map<Element, string>;
  /** Records the first read rendered: a second read (`again`) lingers for a change beyond them. */
  firstRead: number;
  /**
   * Whether each element around the action's target, and each popup-like element, rendered before the action: CSS
   * shows a menu (`.open > .dropdown-menu`, `:hover`) with no mutation of the menu itself.
   */
  rendered: Map<Element, boolean>;
  /** A frame watched for an action in its parent: nothing here was its target, and no field here took its input. */
  side: boolean;
}

let watch: Watch | null = null;

const OBSERVE: MutationObserverInit = { childList: true, subtree: true, attributes: true, characterData: true, attributeOldValue: true, characterDataOldValue: true };
/** Characters kept for the line that says a delta was cut. */
const CUT_LINE_ROOM = 160;
/** A subtree that only changed class/style is shown whole when it fits in this many chars, else summarized. */
const RESTYLE_LINES_MAX = 400;

/** Starts watching this document's DOM for one action (the page operation: around the focused element). */
export function deltaStart(args: { token: string }): { docId: string } {
  return startDelta(args, document.activeElement);
}

/**
 * Starts watching a frame for an action in its parent (a toolbar button there changes the frame's editable body),
 * if the frame is same-origin with its parent and in its viewport: what an agent sees of it.
 */
export function deltaStartFrame(args: { token: string }): { docId: string; name: string } | null {
  const frame = window.frameElement;
  if (!frame) return null;
  const box = frame.getBoundingClientRect();
  const view = window.parent;
  if (box.bottom <= 0 || box.right <= 0 || box.top >= view.innerHeight || box.left >= view.innerWidth || box.width === 0 || box.height === 0) return null;
  const name = frame.getAttribute('title') || frame.getAttribute('aria-label') || frame.getAttribute('name') || frame.id;
  const started = startDelta(args, document.activeElement);
  watch!.side = true;
  return { ...started, name };
}

/** Starts watching, looking first at what is around `near`, the element acted on. */
export function startDelta(args: { token: string }, near: Element | null): { docId: string } {
  watch?.observer.disconnect();
  const current: Watch = {
    token: args.token,
    observer: null as unknown as MutationObserver,
    records: [],
    lastRecordAt: 0,
    focused: document.activeElement,
    values: fieldValues(),
    firstRead: 0,
    rendered: renderedBefore(near),
    side: false,
  };
  current.observer = new MutationObserver((records) => {
    current.records.push(...records);
    current.lastRecordAt = performance.now();
  });
  current.observer.observe(document, OBSERVE);
  // Shadow hosts found natively (custom elements carry a hyphen): walking every element through the sandbox's
  // wrappers would cost more than the whole action.
  for (const host of customElementHosts()) {
    const shadow = shadowOf(host);
    if (shadow) current.observer.observe(shadow, OBSERVE);
  }
  watch = current;
  return { docId: documentId };
}

export interface DeltaFinishArgs extends SettleArgs {
  token: string;
  /** Page-local id of the action's target, shown first. */
  target?: { docId: string; id: number };
  maxChars: number;
  /**
   * A second read of the same watch, once the requests the action started have answered: renders everything
   * since the action began, then ends the watch.
   */
  again?: boolean;
  /** Keyboard input: show the focused field's line (its value changed as a property, unseen by mutations). */
  focusedField?: boolean;
}

/**
 * Keys typed into a field that drives other content (a search box filtering a grid, a combobox's suggestions): the
 * page answers after its debounce, so the read waits up to this long for the first change. Other fields answer
 * at once or not at all, and do not pay it.
 */
const ANSWER_WAIT_MS = 700;

function drivingField(args: DeltaFinishArgs, records: MutationRecord[]): Element | null {
  if (!args.focusedField || args.again || !document.activeElement) return null;
  const field = deepActive(document.activeElement);
  // Declared (a combobox, aria-controls, aria-autocomplete, a datalist), or a search box the page itself touched as
  // the keys came (a framework re-setting its value attribute). A search box nothing listens to (a docs site's, which
  // searches on Enter) does not pay the wait.
  const drives = roleOf(field) === 'combobox' || field.hasAttribute('aria-controls') || field.hasAttribute('list') ||
    (field.getAttribute('aria-autocomplete') ?? 'none') !== 'none' ||
    (roleOf(field) === 'searchbox' && records.some((record) => record.target === field));
  return drives ? field : null;
}

/** How long a finished watch keeps recording for a second read (`again`), ms. */
const KEEP_MS = 10_000;
/** A kept watch that records more than this is dropped (a page that never stops changing). */
const KEEP_RECORDS = 20_000;

/**
 * Renders what changed. Fails with `delta_lost` when this is not the watched document. The watch goes on
 * recording for a while, so that a second call with `again` can read what the action's requests brought.
 */
export async function deltaFinish(args: DeltaFinishArgs): Promise<PageDelta> {
  const current = watch;
  if (!current || current.token !== args.token) throw new PageError('delta_lost', 'The document changed during the action; no delta.');
  // Keys into a field that drives other content wait for an answer beyond the field itself.
  const drives = args.lingerMs === undefined ? drivingField(args, current.records) : null;
  const arrival = arrivalOf(current.rendered);
  let unsettled = drives
    ? await settleAll(current, { ...args, lingerMs: ANSWER_WAIT_MS }, args.again ? current.firstRead : 0, (record) => record.target !== drives && arrival(record))
    : await settleAll(current, args, args.again ? current.firstRead : 0, arrival);
  // Shown but still transparent, with a fade declared: the page starts the fade from a timer (Bootstrap's panes
  // after 150 ms). Read now, its text would be missing, and come up as news in the next reply.
  if (args.animationMs && (await fadeStarted(current, current.rendered, args.animationMs))) unsettled = await settleAll(current, { ...args, lingerMs: 0 }, current.records.length);
  current.records.push(...current.observer.takeRecords());
  // A component added in place of another leaves the element count as it was: look for hosts again next time.
  if (current.records.some((record) => record.addedNodes.length > 0)) forgetCustomElements();
  current.firstRead = current.records.length;
  if (args.again || current.records.length > KEEP_RECORDS) {
    current.observer.disconnect();
    watch = null;
  } else {
    window.setTimeout(() => {
      if (watch !== current) return;
      current.observer.disconnect();
      watch = null;
    }, KEEP_MS);
  }
  const delta = render(current, args);
  return unsettled ? { ...delta, unsettled } : delta;
}

/** The field whose line a delta shows first: the target's when it holds a value, else the focused one after keys. */
function fieldOf(target: Element | null, args: DeltaFinishArgs): Element | null {
  const field = stateField(target, args);
  // A field the page hides from the tree (a spreadsheet's clipboard textarea, aria-hidden) has no line anywhere.
  return field && hiddenFromTree(field) ? null : field;
}

function stateField(target: Element | null, args: DeltaFinishArgs): Element | null {
  // A paragraph of a rich-text field stands for the field: its line (and a selection a double or triple click made,
  // which the next keys replace) is the field's.
  if (target && (target as HTMLElement).isContentEditable) return editableRoot(target);
  if (target && holdsState(target)) return target;
  // The field that holds focus after keys (type or key without a ref): its value changed as a property.
  const active = (args.focusedField || !target) && document.activeElement ? deepActive(document.activeElement) : null;
  if (active && !args.focusedField) {
    // A click at a point inside a rich-text field that selected text there: the next keys replace it.
    return (active as HTMLElement).isContentEditable && !document.getSelection()?.isCollapsed ? editableRoot(active) : null;
  }
  return active && holdsState(active) ? active : null;
}

/**
 * What a control that collapsed during the action (aria-expanded true -> false) names in aria-controls, when it no
 * longer renders: the control said it was open, so it was shown (pdf.js's find bar and tools menu, closed by Escape
 * or by an item inside them, far from the action's target).
 */
function collapsedTargets(records: MutationRecord[], known: Element[]): Element[] {
  const found: Element[] = [];
  for (const record of records) {
    if (record.type !== 'attributes' || record.attributeName !== 'aria-expanded' || record.oldValue !== 'true') continue;
    const control = record.target as Element;
    const id = control.getAttribute('aria-expanded') === 'false' ? control.getAttribute('aria-controls') : null;
    const controlled = id ? (control.getRootNode() as Document | ShadowRoot).getElementById?.(id) : null;
    if (controlled && controlled.isConnected && !renders(controlled) && !known.includes(controlled) && !found.includes(controlled)) found.push(controlled);
  }
  return found;
}

/** The outermost element of a contenteditable region: the field itself. */
function editableRoot(element: Element): Element {
  let root = element;
  for (let up = parentOf(element); up && (up as HTMLElement).isContentEditable; up = parentOf(up)) root = up;
  return root;
}

/**
 * Its line: the target's own, when its state may have changed without a mutation (a field's value, a radio's
 * checkedness are properties); any other change of the target is in what changed. The reply's head names it
 * already, and that an action focused its target goes without saying. A code editor's input shows the lines
 * around the caret.
 */
function fieldLine(field: Element): string {
  const role = roleOf(field) ?? 'generic';
  return new SnapshotWalker({ mode: 'all', maxChars: 400, aroundCaret: true }).render(field, role).replace(/ \[focused\]$| \[focused\](?= \[)/, '');
}

/** A line for focus that the action moved to an element other than its target, unless `shown` has it already. */
function movedFocusLine(current: Watch, target: Element | null, shown: (line: string) => boolean): string | null {
  const focused = document.activeElement;
  if (!focused || focused === current.focused || focused === target || focused === document.body || hiddenFromTree(focused)) return null;
  const role = roleOf(focused);
  const line = role ? new SnapshotWalker({ mode: 'all', maxChars: 400 }).render(focused, role) : '';
  return line && !shown(line) ? `- focused: ${line.slice(2)}` : null;
}

/**
 * Keys that changed nothing but a text field's value (no mutation anywhere): the field's line is the whole delta.
 * What the full render would say, without walking to the field's anchor only to find its line again (a third of
 * a typing action's page time). Not for a field with children (contenteditable), whose walk shows more.
 */
function onlyFieldChanged(current: Watch, field: Element | null): field is HTMLInputElement | HTMLTextAreaElement {
  if (current.records.length > 0 || !field || (field.localName !== 'input' && field.localName !== 'textarea') || !roleOf(field)) return false;
  for (const [element, value] of current.values) if (element !== field && element.isConnected && fieldState(element) !== value) return false;
  return true;
}

function render(current: Watch, args: DeltaFinishArgs): PageDelta {
  const target = targetOf(args);
  // A frame's selection or focused field is not the news of a click in its parent (a toolbar's Save leaves the
  // editor's selection as it was); a value it changed is found among the fields' values.
  const field = current.side ? null : fieldOf(target, args);
  if (onlyFieldChanged(current, field)) {
    const line = fieldLine(field);
    const key = lineKey(line);
    const focusLine = movedFocusLine(current, target, (other) => key !== null && lineKey(other) === key);
    const lines = focusLine ? [line, focusLine] : [line];
    // Too long for the reply's room: the full render says where it was cut.
    if (lines.reduce((sum, text) => sum + text.length + 1, 0) <= args.maxChars - CUT_LINE_ROOM) return { docId: documentId, lines, records: 0, truncated: false };
  }
  const { changed, restyled, removals, expandedNow, addedElements, attributed, hiddenByStyle } = classify(current);
  hiddenByStyle.push(...collapsedTargets(current.records, hiddenByStyle));
  pairRerendered(removals, addedElements, changed);
  // Taken out and put back (elsewhere or in another order): not new.
  const reinserted = new Set([...removals.values()].flat().filter((element) => element.isConnected));
  // Moved, not new: said in one line each (from where to where), not rendered again as an added subtree.
  const moves = movedLines(current.records, addedElements);
  for (const element of moves.said) {
    changed.delete(element);
    restyled.delete(element);
  }
  const roots = topmost([...changed, ...restyled].filter((element) => element.isConnected)).map((element) => nearestWithRole(element) ?? element);
  const { anchors, folded } = foldItems(topmost([...new Set(roots)]));
  const focus = { ...diffFocus(changed, restyled, new Set(anchors), targetOf(args)), tails: appendedText(current.records) };
  const closed = closedPopups(current.records, removals);
  const lines: string[] = [];
  const seen = new Set<string>();
  let chars = 0;
  // Room kept for the closing line that says the delta was cut and what to read for the rest.
  const budget = args.maxChars - CUT_LINE_ROOM;
  let truncated = false;
  let cutAt: Element | null = null;
  /** Where a subtree's walk stopped (its first element left out), to read on from. */
  let cutHint: OmittedHint | null = null;
  /** A subtree cut to leave room for the changes after it, though the reply as a whole did not reach its cap. */
  let partCut: { anchor: Element; hint: OmittedHint | null } | null = null;
  const add = (text: string): boolean => {
    // One line once: overlapping changes (a row's cell and the row) must not list an element twice.
    const key = lineKey(text);
    if (key && seen.has(key)) return true;
    if (chars + text.length + 1 > budget) {
      truncated = true;
      return false;
    }
    if (key) seen.add(key);
    lines.push(text);
    chars += text.length + 1;
    return true;
  };
  const said = field ? fieldLine(field) : null;
  if (said) add(said);
  // A rich-text field whose whole text its line gave: the text runs inside it that changed are that text again.
  const wholeText = said !== null && (field as HTMLElement).isContentEditable && /\[value="/.test(said) && !/\[value="…|…"\]|\[cut\]/.test(said) ? field : null;
  // Popups and dialogs the action closed, once each, before what changed.
  for (const popup of closed) add(`- closed: ${popup.role}${popup.name}`);
  /**
   * Whether a hidden element that changed may have been shown before: an item of a closed picker re-classed while
   * its list stays hidden was hidden all along. It may, when nothing tells otherwise, unless what hides it (the
   * outermost box that does not render) and all above it kept their attributes.
   */
  const mayHaveShown = (element: Element): boolean => {
    const before = current.rendered.get(element);
    if (before !== undefined) return before;
    let hider = element;
    for (let up = parentOf(element); up && !renders(up); up = parentOf(up)) hider = up;
    if (hider === element) return true;
    for (let up: Element | null = hider; up; up = parentOf(up)) if (attributed.has(up) || addedElements.has(up)) return true;
    return false;
  };
  // Elements with an attribute other than class or style changed: read once, not per anchor (records run to thousands).
  const dataChanged = new Set<Node>();
  for (const record of current.records) if (record.type === 'attributes' && record.attributeName !== 'class' && record.attributeName !== 'style') dataChanged.add(record.target);
  // Anchors whose line would be a bare `- main` (no name, no ref): more than one of a role are told apart below.
  const bareCount = new Map<string, number>();
  for (const anchor of anchors) {
    const role = roleOf(anchor);
    if (role && (PAGE_LANDMARKS.has(role) || role === 'group') && !nameSuffix(anchor, role)) bareCount.set(role, (bareCount.get(role) ?? 0) + 1);
  }
  /** The counted line of the items folded under an anchor. */
  const sayFolded = (anchor: Element): void => {
    const rest = folded.get(anchor);
    if (rest) add(foldLine(rest, (element) => (!addedElements.has(element) ? 'changed' : reinserted.has(element) ? 'moved' : 'added')));
  };
  for (const [index, anchor] of anchors.entries()) {
    if (!isShown(anchor)) {
      const role = roleOf(anchor);
      // No ref: nothing can act on or read a hidden element. A closed popup was said above.
      if (role && existingLocalId(anchor) !== undefined && !closed.some((popup) => popup.element === anchor) && mayHaveShown(anchor)) add(`- hidden: ${role}${nameSuffix(anchor, role)}`);
      // The items folded under a hidden item (a calendar's hidden "4 am" row, under the time now) are shown: still counted.
      sayFolded(anchor);
      continue;
    }
    const onlyRestyled = ![...changed].some((element) => anchor.contains(element) || element.contains(anchor));
    // A diff walk: what changed under the anchor whole, its ancestors as context, unchanged siblings counted.
    // Each subtree gets its share of the room left (at least SUBTREE_MIN): the last one, or the only one, gets it all.
    const share = Math.max(SUBTREE_MIN, Math.floor((budget - chars) / (anchors.length - index)));
    const walker = new SnapshotWalker({ mode: 'all', depth: 10, maxChars: Math.min(onlyRestyled ? RESTYLE_LINES_MAX : share, budget - chars), focus });
    walker.walkElement(anchor);
    if (onlyRestyled && walker.full) {
      // Keys restyle a page's body as the field grows (a framed editor's height): no theme changed.
      if (!(args.focusedField && (anchor === document.body || anchor === document.documentElement))) add(restyledSummary(anchor));
      continue;
    }
    // Only its look changed and its line is all there is to show: that line reads as it did (a class gives no state
    // on it; values and visibility are changes of their own), so it says nothing new (an empty cell a highlight moved
    // to, an editor's body re-classed as a menu takes focus).
    // A data-* attribute may feed a name a style draws (`content: attr(data-label)`): such a line is kept.
    if (onlyRestyled && walker.lines.length === 1 && !dataChanged.has(anchor)) continue;
    // Inside the field, or the field itself (a block editor's paragraph is the field): only its text again, or lines said.
    if (wholeText?.contains(anchor) && walker.lines.every((line, at) => walker.contextLines.has(at) || /^\s*- text: /.test(line) || seen.has(lineKey(line) ?? ''))) continue;
    // Only context left (the change is the target's line, said above): nothing to show here.
    const news = walker.lines.filter((line, index) => !walker.contextLines.has(index) && !seen.has(lineKey(line) ?? ''));
    if (news.length === 0 && !walker.full) continue;
    const walked = contextNamed(walker.lines, walker.contextLines, anchor, bareCount);
    for (const line of underSaid(walked, (said) => seen.has(lineKey(said) ?? ''))) if (!add(line)) break;
    if (truncated) {
      cutAt ??= anchor;
      cutHint ??= walker.hints[0] ?? null;
    } else if (walker.full) {
      partCut ??= { anchor, hint: walker.hints[0] ?? null };
    }
    sayFolded(anchor);
  }
  // What a style hid inside a subtree still shown: the walk leaves it out, so it is said here (once, outermost).
  for (const element of topmost(hiddenByStyle)) {
    // An anchor with a role was said hidden above; one without is said here, by what it held.
    // A popup said closed is not said hidden again, nor is the roleless wrapper that held it (tom-select's dropdown).
    if ((anchors.includes(element) && roleOf(element)) || closed.some((popup) => popup.element === element || (!roleOf(element) && element.contains(popup.element)))) continue;
    // A wrapper without a role stands for what it holds that the agent may have a ref of.
    const inner = roleOf(element) ? [] : [...element.querySelectorAll('*')].filter((each) => roleOf(each) && existingLocalId(each) !== undefined);
    const named = roleOf(element) ? element : inner[0];
    const role = named ? roleOf(named) : null;
    // A closed menu's wrapper stands for all its items: the first named, the others counted.
    const others = inner.length > 1 ? ` and ${inner.length - 1} more` : '';
    if (named && role && existingLocalId(named) !== undefined) add(`- hidden: ${role}${nameSuffix(named, role)}${others}`);
    else if (!roleOf(element)) {
      const text = wordsOf(element);
      if (text) add(`- hidden: text ${quote(text.length > 80 ? `${text.slice(0, 80)}…` : text)}`);
    }
  }
  for (const line of moves.lines) add(line);
  for (const line of removalLines(current.records, removals, closed)) add(line);
  const focusLine = movedFocusLine(current, target, (line) => seen.has(lineKey(line) ?? ''));
  if (focusLine) add(focusLine);
  if (truncated) {
    // The reply reached its cap: say so, and where to read on (the first element left out, else the subtree).
    lines.push(`- (delta cut at ${args.maxChars} chars; ${readOn(cutAt ?? anchors[0] ?? null, cutHint)})`);
  } else if (partCut) {
    // Only one subtree was cut, to leave room for the others: the reply did not reach its cap, and says so.
    lines.push(`- (more changed inside ${describe(partCut.anchor)}; ${readOn(partCut.anchor, partCut.hint)})`);
    truncated = true;
  }
  const appeared = (element: Element): boolean => {
    // A popup shown before the action (a listbox left open, its options redrawn as one is picked) did not open now.
    if (current.rendered.get(element) === true) return false;
    for (let up: Element | null = element; up; up = parentOf(up)) if (addedElements.has(up) || attributed.has(up)) return true;
    return false;
  };
  return { docId: documentId, lines, popup: findPopup(anchors, expandedNow, target, appeared), records: current.records.length, truncated };
}

type OmittedHint = { id: number; role: string; name: string; continues: boolean };

/** A changed subtree's walk gets at least this many characters, whatever came before it. */
const SUBTREE_MIN = 1_500;

function describe(element: Element): string {
  const role = roleOf(element) ?? 'generic';
  return `${role}${nameSuffix(element, role)} [ref=#${localIdOf(element)}]`;
}

/** How to read what a cut left out: from its first element left out when known, else the whole subtree. */
function readOn(at: Element | null, hint: OmittedHint | null): string {
  if (hint) return `read_page with ref_id [ref=#${hint.id}] reads the first part left out (${hint.role}${hint.name ? ` ${quote(hint.name)}` : ''}${hint.continues ? ' and the ones after it' : ''})`;
  return at ? `read_page with ref_id of ${describe(at)} shows the rest` : 'read_page shows the rest';
}

/**
 * What a diff walk renders: elements that changed (added, text, non-cosmetic attributes) whole; elements that
 * only changed their look whole when nothing else changed inside them; their ancestors up to the anchor as context.
 */
function diffFocus(changed: Set<Element>, restyled: Set<Element>, anchors: Set<Element>, target: Element | null): { whole: Set<Element>; path: Set<Element>; renamed: Set<Element> } {
  const whole = new Set<Element>();
  const path = new Set<Element>();
  // A row named by its cells whose cell changed: its line, with the new name, is the change (its cells get none).
  const renamed = new Set<Element>();
  for (const element of changed) {
    for (let up = parentOf(element); up; up = parentOf(up)) {
      const role = roleOf(up);
      if (!role) continue;
      if (NAME_FROM_CONTENT.has(role)) renamed.add(up);
      break;
    }
  }
  // The target's own restyling (a pressed or focused look, a data-* state) is not news: the reply's head names it.
  // The components wrapping the target (an sl-button around its inner <button>) count as the target.
  const hosts = new Set<Element>();
  for (let root = target?.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode()) hosts.add(root.host);
  const aroundTarget = (element: Element): boolean => target !== null && (hosts.has(element) || composedContains(target, element));
  const marked = [...changed, ...[...restyled].filter((element) => !aroundTarget(element))].filter((element) => element.isConnected);
  for (const element of marked) {
    for (let up = parentOf(element); up; up = parentOf(up)) {
      if (path.has(up)) break;
      path.add(up);
      if (anchors.has(up)) break;
    }
  }
  for (const element of marked) {
    // A restyled element around other changes (<html> getting a scroll-lock class) is only the way to them.
    if (changed.has(element) || !path.has(element)) whole.add(element);
  }
  return { whole, path, renamed };
}

function composedContains(outer: Element, inner: Element): boolean {
  for (let up: Element | null = inner; up; up = parentOf(up)) if (up === outer) return true;
  return false;
}

function targetOf(args: DeltaFinishArgs): Element | null {
  if (!args.target) return null;
  try {
    return elementFor(args.target.docId, args.target.id);
  } catch {
    return null;
  }
}

/**
 * A walk's lines with its anchor's bare context line (`- main`) named by the text heading it (`- main (Done)`) when
 * the delta has more than one of that role: repeated bare lines said nothing of where each change is. One with
 * nothing to name it by is left out, its lines moved up a level.
 */
function contextNamed(lines: string[], contextLines: Set<number>, anchor: Element, bareCount: Map<string, number>): string[] {
  const bare = /^- ([a-z]+)$/.exec(lines[0] ?? '');
  if (!bare || !contextLines.has(0) || (bareCount.get(bare[1]!) ?? 0) < 2) return lines;
  const named = namedContextLine(anchor, lines[0]!);
  return named ? [named, ...lines.slice(1)] : lines.slice(1).map((line) => line.replace(/^ {2}/, ''));
}

/** One line for a large subtree that only changed its look: what it is, and how to read it if it matters. */
function restyledSummary(anchor: Element): string {
  const role = roleOf(anchor);
  const what = role ? `${role}${nameSuffix(anchor, role)} [ref=#${localIdOf(anchor)}]` : `<${anchor.localName}>`;
  const read = role ? 'read_page with this ref_id' : 'read_page';
  return `- restyled: ${what} (only its class/style changed; ${read} shows what it looks like now)`;
}

/** What makes two delta lines the same: an element's ref (its line once), a text run's text; none for the rest. */
/**
 * A walk's lines without one said already in this delta (the field's own line, said first), the lines under it
 * moved up a level: left at their depth they would read as under whatever line came before.
 */
function underSaid(lines: string[], said: (line: string) => boolean): string[] {
  const out: string[] = [];
  let under = -1;
  for (const line of lines) {
    const indent = line.length - line.trimStart().length;
    if (under >= 0 && indent <= under) under = -1;
    if (under < 0 && said(line)) {
      under = indent;
      continue;
    }
    out.push(under >= 0 ? line.slice(2) : line);
  }
  return out;
}

function lineKey(line: string): string | null {
  const text = line.trim();
  if (text.startsWith('- text:')) return text.includes('[ref=#') ? text : null;
  // An element's line: its role, its name, then its ref (a removal's or a count's ref names another element).
  return /^- [a-z]+(?: "(?:[^"\\]|\\.)*")? (\[ref=#\d+\])/.exec(text)?.[1] ?? null;
}

/** The focused element inside shadow roots. */
function deepActive(element: Element): Element {
  let active = element;
  for (let inner = shadowOf(active)?.activeElement; inner; inner = shadowOf(inner)?.activeElement) active = inner;
  return active;
}

/** Form controls, whose value and checkedness change as properties that no MutationObserver sees. */
function holdsState(element: Element): boolean {
  const tag = element.localName;
  return tag === 'input' || tag === 'select' || tag === 'textarea' || (element as HTMLElement).isContentEditable;
}

/** Drops every element that has another one of the list as an ancestor (composed tree). */
function topmost(elements: Element[]): Element[] {
  const set = new Set(elements);
  return elements.filter((element) => {
    for (let up = parentOf(element); up; up = parentOf(up)) if (set.has(up)) return false;
    return true;
  });
}
