// The guard that runs before any input aimed at an element: resolved, visible, in view, and not covered.
import type { AimResult, FocusCheck, GateArgs, GateResult, GuardArgs, PointArgs, TypingTarget } from '../contract/index.js';
import { coverage, describe, summarize } from './describe.js';
import { PageError } from './errors.js';
import { frameOrigin } from './frames.js';
import { documentId, elementFor, localIdOf } from './registry.js';
import { waitUntil } from './wait.js';
import { composedChildren, composedParent } from './composed.js';
import { drawnBy } from './drawn.js';
import { focusReaches, hitsTarget } from './hit.js';
import { peekPressGate } from './press-gate.js';

/** The element at a viewport point, looking into open shadow roots (elementFromPoint stops at the host). */
export function deepElementFromPoint(x: number, y: number): Element | null {
  let hit = document.elementFromPoint(x, y);
  while (hit?.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

/** Why the element cannot be seen, or null when it can. */
export function hiddenReason(element: Element): string | null {
  if (element.closest('[inert]')) return 'it is inside an inert subtree';
  const closedDetails = element.parentElement?.closest('details:not([open])');
  if (closedDetails && !element.closest('summary')) return 'it is inside a closed <details>';
  if (!element.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true } as CheckVisibilityOptions)) {
    const style = getComputedStyle(element);
    return style.visibility !== 'visible' && style.display !== 'none' ? 'it has visibility: hidden' : 'it (or an ancestor) is not rendered (display: none or hidden)';
  }
  const rect = element.getBoundingClientRect();
  if (rect.width < 1 || rect.height < 1) return 'it has zero size';
  return null;
}

function visibleRect(element: Element): DOMRect | null {
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  for (const rect of [...element.getClientRects(), element.getBoundingClientRect()]) {
    const left = Math.max(0, rect.left);
    const top = Math.max(0, rect.top);
    const right = Math.min(vw, rect.right);
    const bottom = Math.min(vh, rect.bottom);
    if (right - left >= 1 && bottom - top >= 1) return new DOMRect(left, top, right - left, bottom - top);
  }
  return null;
}

/** Points to try, centre first: a banner over the middle of a wide button still leaves its ends clickable. */
function candidatePoints(rect: DOMRect): Array<{ x: number; y: number }> {
  const points = [{ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 }];
  for (const fy of [0.5, 0.25, 0.75]) for (const fx of [0.25, 0.75, 0.5]) points.push({ x: rect.left + rect.width * fx, y: rect.top + rect.height * fy });
  return points.map((p) => ({ x: Math.min(window.innerWidth - 1, Math.floor(p.x)), y: Math.min(window.innerHeight - 1, Math.floor(p.y)) }));
}

/**
 * Inside the viewport but not shown at its centre, because a scroll box holding it has it out of its own view (a row
 * scrolled out of its list's box): scrollIntoView brings it in by scrolling that box too. Read only when the hit
 * test at its centre misses it, so a click on what is plainly shown pays one hit test.
 */
function clippedAtCentre(element: Element, rect: DOMRect): boolean {
  const hit = deepElementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
  if (!hit || hit === element) return false;
  for (let up: Element | null = hit; up; up = up.parentElement ?? ((up.parentNode as ShadowRoot | null)?.host ?? null)) if (up === element) return false;
  // Something drawn over it (a dialog, a sticky header) is no clip: only a scroll box holding it clips it.
  for (let up = element.parentElement; up && up !== document.documentElement; up = up.parentElement) {
    if (up.scrollHeight <= up.clientHeight && up.scrollWidth <= up.clientWidth) continue;
    const box = up.getBoundingClientRect();
    if (rect.top < box.top || rect.bottom > box.bottom || rect.left < box.left || rect.right > box.right) return true;
  }
  return false;
}

/** Resolves a ref's element, refusing hidden ones, and scrolls it into view when needed. */
export function resolveVisible(args: GuardArgs): Element {
  const element = elementFor(args.docId, args.localId);
  const hidden = hiddenReason(element);
  // A code editor's zero-size input textarea is reached through the editor drawn around it.
  const editor = hidden === 'it has zero size' ? drawnBy(element) : null;
  if (hidden && !editor) throw new PageError('ref_hidden', `${describe(element)} is hidden: ${hidden}. Nothing was done.`, { reason: hidden });
  const shown = editor ?? element;
  if (!visibleRect(shown) || args.center) {
    const rect = shown.getBoundingClientRect();
    const inside = rect.top >= 0 && rect.left >= 0 && rect.bottom <= window.innerHeight && rect.right <= window.innerWidth;
    if (!inside || clippedAtCentre(shown, rect)) shown.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  }
  return element;
}

/**
 * Where to aim at a hidden input drawn by `box` (a code editor): its own spot first, which an editor keeps at
 * the caret (a click there leaves the caret where it is), then the box's points.
 */
function proxyPoints(element: Element, box: Element): Array<{ x: number; y: number }> {
  const boxRect = visibleRect(box);
  if (!boxRect) return [];
  const own = element.getBoundingClientRect();
  // A sizeless input sits at the caret's top-left corner: aim a pixel into the caret's line, within the box.
  const x = Math.ceil(own.left + Math.max(own.width / 2, 1));
  const y = Math.ceil(own.top + Math.max(own.height / 2, 2));
  const inside = x >= boxRect.left && x < boxRect.right && y >= boxRect.top && y < boxRect.bottom;
  return [...(inside ? [{ x: Math.min(x, window.innerWidth - 1), y: Math.min(y, window.innerHeight - 1) }] : []), ...candidatePoints(boxRect)];
}

/** Where to aim at the element behind a ref, after the guard: or ref_hidden / target_occluded, nothing dispatched. */
export function aimAtRef(args: GuardArgs): AimResult {
  const element = resolveVisible({ ...args, center: true });
  const rect = visibleRect(element);
  const editor = rect ? null : drawnBy(element);
  if (!rect && !editor) throw new PageError('ref_hidden', `${describe(element)} could not be brought into view. Nothing was done.`, { reason: 'out of view' });
  const points = [...(rect ? candidatePoints(rect) : proxyPoints(element, editor!)), ...labelPoints(element)];
  if (!points.length) throw new PageError('ref_hidden', `${describe(editor!)} (the editor holding it) could not be brought into view. Nothing was done.`, { reason: 'out of view' });
  let firstHit: Element | null = null;
  for (const point of points) {
    const hit = deepElementFromPoint(point.x, point.y);
    if (hit && hitsTarget(hit, element)) {
      // An iframe aimed at by ref: the press goes to the frame's own document, where the server follows it.
      if (isFrame(element) && hit === element) {
        const id = localIdOf(element);
        return { point, target: summarize(element), docId: documentId, frame: { id, origin: frameOrigin({ docId: documentId, id }) } };
      }
      return { point, target: summarize(element), docId: documentId };
    }
    firstHit ??= hit;
  }
  // A tooltip shows for where the pointer rests (another element) and goes when the pointer leaves, as a person's
  // would on the way to this one: aim through it. The press waits for it to go and is held back if it stays.
  if (firstHit && isTooltip(firstHit)) return { point: points[0]!, target: summarize(element), docId: documentId, throughTooltip: true };
  const cover = firstHit ? describe(firstHit) : 'nothing (the point is outside the document)';
  throw new PageError('target_occluded', `${describe(element)} is covered by ${cover}; nothing was dispatched. Close or scroll away what covers it first.`, {
    covered_by: cover,
  });
}

/**
 * Points on a checkbox's or radio's labels, after its own: a click on its label toggles it, and a person clicks
 * the label's text when the box itself is covered (a tooltip over a switch's toggle).
 */
function labelPoints(element: Element): Array<{ x: number; y: number }> {
  if (element.localName !== 'input' || !['checkbox', 'radio'].includes((element as HTMLInputElement).type)) return [];
  const labels = (element as HTMLInputElement).labels ?? [];
  return [...labels].flatMap((label) => {
    const rect = visibleRect(label);
    return rect ? candidatePoints(rect) : [];
  });
}

/**
 * Whether `element` is part of a tooltip: inside one, or the popup box drawn around one (Shoelace's sl-popup) and
 * not much larger than it (an overlay that merely holds a tooltip somewhere is no tooltip).
 */
function isTooltip(element: Element): boolean {
  for (let up: Element | null = element, steps = 0; up && steps < 8; up = composedParent(up), steps++) {
    if (up.getAttribute('role') === 'tooltip') return true;
  }
  const outer = element.getBoundingClientRect();
  const queue: Node[] = [element];
  for (let i = 0; i < queue.length && i < 40; i++) {
    const children = composedChildren(queue[i]!);
    for (let j = 0; j < children.length; j++) {
      const child = children[j]!;
      if (child.nodeType !== Node.ELEMENT_NODE) continue;
      if ((child as Element).getAttribute('role') === 'tooltip') {
        const inner = (child as Element).getBoundingClientRect();
        return inner.width * inner.height > 0 && outer.width * outer.height <= 2 * inner.width * inner.height;
      }
      queue.push(child);
    }
  }
  return false;
}

export function isFrame(element: Element | null): element is HTMLIFrameElement {
  return element?.localName === 'iframe' || element?.localName === 'frame';
}

/** What lies at a coordinate, for coordinate-aimed actions; over an iframe, where its viewport starts. */
export function aimAtPoint(args: PointArgs): AimResult {
  const hit = deepElementFromPoint(args.x, args.y);
  const result: AimResult = { point: { x: args.x, y: args.y }, target: hit ? { ...summarize(hit), ...coverage(hit) } : undefined, docId: documentId };
  if (isFrame(hit)) {
    const id = localIdOf(hit);
    result.frame = { id, origin: frameOrigin({ docId: documentId, id }) };
  }
  return result;
}

function inViewport(point: PointArgs): boolean {
  return point.x >= 0 && point.y >= 0 && point.x < window.innerWidth && point.y < window.innerHeight;
}

/**
 * The parent's half of the guard for a target inside an iframe: the iframe is brought into view if the target's
 * point lies outside this viewport, and the hit test at that point must land on the iframe (not on a banner or
 * modal of the parent page drawn over it).
 */
export function gateFrame(args: GateArgs): GateResult {
  const frame = elementFor(args.frame.docId, args.frame.localId);
  const at = (): GateResult => {
    const origin = frameOrigin({ docId: args.frame.docId, id: args.frame.localId });
    return { origin, point: { x: Math.round(origin.x + args.point.x), y: Math.round(origin.y + args.point.y) } };
  };
  let gate = at();
  if (!inViewport(gate.point)) {
    frame.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    gate = at();
  }
  if (!inViewport(gate.point)) throw new PageError('ref_hidden', `${describe(frame)} (the frame holding it) could not be brought into view. Nothing was done.`, { reason: 'out of view' });
  const hit = deepElementFromPoint(gate.point.x, gate.point.y);
  if (hit !== frame) {
    const cover = hit ? describe(hit) : 'nothing';
    throw new PageError('target_occluded', `its frame ${describe(frame)} is covered by ${cover}; nothing was dispatched. Close or scroll away what covers it first.`, {
      covered_by: cover,
    });
  }
  return gate;
}

/**
 * After the click of a `type` with a ref: whether focus landed on that field, before any key is pressed. With
 * `caretToEnd`, the caret then goes after the field's text, so the keys append instead of landing where the click did.
 */
export async function focusCheck(args: { ref: GuardArgs; waitMs?: number; caretToEnd?: boolean; token?: string }): Promise<FocusCheck> {
  const stopped = args.token ? peekPressGate(args.token) : undefined;
  // The click never reached the field: no key may follow it, wherever focus is.
  if (stopped) return { focused: false, pressStopped: stopped };
  if (args.waitMs) await waitUntil(() => focusState(args.ref).focused, args.waitMs);
  const state = focusState(args.ref);
  if (state.focused && args.caretToEnd) {
    const field = deepActive();
    if ((field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) && appendBy(field) === 'selection') {
      field.setSelectionRange(field.value.length, field.value.length);
    }
  }
  return state;
}

/** Typing by ref: whether the field already holds focus, and how its caret is put after its text if it is clicked first. */
export function typingTarget(ref: GuardArgs): TypingTarget {
  const target = elementFor(ref.docId, ref.localId);
  const append = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement ? appendBy(target) : undefined;
  // Whether it has focus, without focusState's description of the focused element (a role and a name: half of this).
  const active = deepActive();
  const focused = active !== null && (active !== document.body || document.body.isContentEditable) && focusReaches(active, target) && document.hasFocus();
  return { ...(focused ? { focused: true as const } : {}), ...(append ? { append } : {}) };
}

/**
 * Typing into the ref's field that holds focus already: no click, so no hit test either (the keys reach a focused
 * field wherever it is drawn). Hidden fields are refused and the field is brought into view as for a click.
 */
export function aimAtFocusedField(args: GuardArgs): AimResult {
  const element = resolveVisible({ ...args, center: true });
  const rect = element.getBoundingClientRect();
  const point = { x: Math.round(rect.left + rect.width / 2), y: Math.round(rect.top + rect.height / 2) };
  return { point, target: summarize(element), docId: documentId };
}

/**
 * A plain text field with text in it: the selection API where the field has one, an End key where it does not
 * (email and number inputs). Never an editor's proxy textarea (Monaco's, CodeMirror's): tiny or zero-size, it
 * holds only a window of the editor's text.
 */
function appendBy(field: HTMLInputElement | HTMLTextAreaElement): TypingTarget['append'] {
  if (field.value === '' || field.readOnly) return undefined;
  if (field instanceof HTMLTextAreaElement) return field.clientWidth >= 20 && field.clientHeight >= 10 ? 'selection' : undefined;
  if (field.type === 'email' || field.type === 'number') return 'endKey';
  return field.selectionStart === null ? undefined : 'selection';
}

function deepActive(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

function focusState(ref: GuardArgs): FocusCheck {
  const args = { ref };
  const target = elementFor(args.ref.docId, args.ref.localId);
  const active = deepActive();
  // The body holds focus when nothing else does, unless it is the field itself (a rich-text editor's frame).
  if (!active || (active === document.body && !document.body.isContentEditable)) return { focused: false, ...(active ? { focus: summarize(active) } : {}) };
  return { focused: focusReaches(active, target), focus: summarize(active) };
}

/** Brings a ref's element into view (scroll_to) and says where it is now. */
export function scrollRefIntoView(args: GuardArgs): AimResult {
  const element = resolveVisible({ ...args, center: true });
  const rect = element.getBoundingClientRect();
  return {
    point: { x: Math.round(rect.left + rect.width / 2), y: Math.round(rect.top + rect.height / 2) },
    target: summarize(element),
    docId: documentId,
  };
}

/** Test and bench helper: the local id of the first element matching a selector (a stand-in ref source). */
export function localIdForSelector(args: { selector: string }): { docId: string; localId: number } | null {
  const element = document.querySelector(args.selector);
  return element ? { docId: documentId, localId: localIdOf(element) } : null;
}

/** Element for a ref or the element at a point, for the delivery and scroll probes. */
export function targetOf(args: { ref?: GuardArgs; point?: { x: number; y: number } }): Element | null {
  if (args.ref) return elementFor(args.ref.docId, args.ref.localId);
  if (args.point) return deepElementFromPoint(args.point.x, args.point.y);
  return document.activeElement;
}

/** Test and bench helper: the text (or value) of the first element matching a selector. */
export function textOfSelector(args: { selector: string }): string | null {
  const element = document.querySelector(args.selector);
  if (!element) return null;
  return element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement ? element.value : (element.textContent ?? '');
}
