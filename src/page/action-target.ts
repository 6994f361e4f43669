// What an action is about to act on, read without dispatching anything: --confirm-actions asks a person about a
// click on "Place order" before the click goes out, so the server must know the control first (src/tools/confirm.ts).
import type { ActionTarget } from '../contract/index.js';
import { composedParent, shadowOf } from './composed.js';
import { nameOf } from './names.js';
import { elementFor } from './registry.js';
import { roleOf } from './roles.js';

/** What a click on an element activates: the nearest link, button or form control around it (itself included). */
const CONTROL = 'a[href], area[href], button, input, select, textarea, summary, [role=button], [role=link], [role=menuitem], [role=tab], [role=option]';
const FRAMES = new Set(['iframe', 'frame', 'object', 'embed']);
/** Inputs in which Enter does not submit their form (a button type's own activation is read from `submits`). */
const NO_IMPLICIT_SUBMIT = new Set(['button', 'reset', 'hidden', 'file']);

function controlAround(element: Element): Element {
  for (let at: Element | null = element; at; at = composedParent(at)) if (at.matches(CONTROL)) return at;
  return element;
}

function formOf(element: Element): HTMLFormElement | null {
  return (element as HTMLInputElement).form ?? null;
}

/** A click on it submits its form: a submit button (a <button> is one unless its type says otherwise) or an image input. */
function submits(element: Element): boolean {
  if (element.localName === 'button') return (element as HTMLButtonElement).type === 'submit' && formOf(element) !== null;
  if (element.localName === 'input') return ['submit', 'image'].includes((element as HTMLInputElement).type) && formOf(element) !== null;
  return false;
}

function enterSubmits(element: Element): boolean {
  if (submits(element)) return true;
  return element.localName === 'input' && !NO_IMPLICIT_SUBMIT.has((element as HTMLInputElement).type) && formOf(element) !== null;
}

/** The button Enter in a field of this form would press: its first submit button. */
function submitterName(element: Element): string | undefined {
  const form = formOf(element);
  if (!form || !enterSubmits(element) || submits(element)) return undefined;
  const button = Array.from(form.elements).find((control) => submits(control));
  if (!button) return undefined;
  const role = roleOf(button) ?? 'button';
  return nameOf(button, role);
}

function describe(element: Element): ActionTarget {
  const frame = FRAMES.has(element.localName);
  const control = frame ? element : controlAround(element);
  const role = roleOf(control) ?? 'generic';
  const submitter = submitterName(control);
  const link = control.localName === 'a' || control.localName === 'area' ? (control as HTMLAnchorElement) : null;
  return {
    role,
    name: nameOf(control, role),
    submits: submits(control),
    enterSubmits: enterSubmits(control),
    ...(submitter === undefined ? {} : { submitter }),
    ...(link?.href ? { href: link.href } : {}),
    download: link !== null && link.hasAttribute('download'),
    frame,
  };
}

/** The element at a viewport point of this document, inside open shadow roots; a frame is where it stops. */
function elementAt(x: number, y: number): Element | null {
  let hit = document.elementFromPoint(x, y);
  while (hit) {
    const inner = shadowOf(hit)?.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

function focusedElement(): Element | null {
  let active = document.activeElement;
  while (active) {
    const inner = shadowOf(active)?.activeElement;
    if (!inner) break;
    active = inner;
  }
  return active && active !== document.body && active !== document.documentElement ? active : null;
}

export function describeTarget(args: { ref?: { docId: string; id: number }; point?: { x: number; y: number }; focused?: boolean }): ActionTarget | null {
  const element = args.ref ? elementFor(args.ref.docId, args.ref.id) : args.point ? elementAt(args.point.x, args.point.y) : args.focused ? focusedElement() : null;
  return element ? describe(element) : null;
}
