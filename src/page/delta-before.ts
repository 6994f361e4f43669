// What a delta reads before the action, in the page call that already checks the target: which elements around
// the target (and which popups) render, and the form fields' values. A style can show or hide an element with no
// mutation of its own, and a script can set a value (a property): neither is in the mutation records.
import { parentOf } from './shown.js';

/** Levels above the target whose children are looked at before the action, and how many elements at most. */
const AROUND_LEVELS = 4;
const AROUND_MAX = 150;
/** Elements that open and close by style alone, looked at anywhere in the document (at most POPUPS_MAX). */
const POPUP_SELECTOR = 'dialog, [role=dialog], [role=alertdialog], [role=menu], [role=listbox], [role=tooltip], [role=tabpanel], [popover]';
const POPUPS_MAX = 100;

/** Rendered and not visibility:hidden (what a row's hover actions toggle). */
export function rendersNow(element: Element): boolean {
  return element.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions);
}

/** What rendered before the action, of the elements whose showing or hiding a delta must not miss. */
export function renderedBefore(near: Element | null): Map<Element, boolean> {
  const rendered = new Map<Element, boolean>();
  lookAround(near, rendered, AROUND_MAX);
  // Where the previous action was: the pointer leaving it hides what its hover showed.
  if (previousNear && previousNear !== near && previousNear.isConnected) lookAround(previousNear, rendered, AROUND_MAX * 2);
  previousNear = near;
  // What the target says it opens and closes (a sidebar toggle's aria-controls, far from the toggle in the tree).
  for (const controlled of controlledBy(near)) {
    rendered.set(controlled, rendersNow(controlled));
    for (const inner of controlled.children) if (rendered.size < AROUND_MAX * 4) rendered.set(inner, rendersNow(inner));
  }
  const popups = document.querySelectorAll(POPUP_SELECTOR);
  for (let i = 0; i < popups.length && i < POPUPS_MAX; i++) rendered.set(popups[i]!, rendersNow(popups[i]!));
  return rendered;
}

/** The elements an action's target (or the control it sits in) names in aria-controls, at most a few. */
function controlledBy(near: Element | null): Element[] {
  const control = near?.closest('[aria-controls]');
  if (!control) return [];
  const root = control.getRootNode() as Document | ShadowRoot;
  return (control.getAttribute('aria-controls') ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 4)
    .map((id) => root.getElementById?.(id))
    .filter((element): element is HTMLElement => element instanceof Element);
}

/** The element the last action of this document aimed at. */
let previousNear: Element | null = null;

/** Notes whether each element near `near` renders: its ancestors' children and grandchildren, up to `max` in all. */
function lookAround(near: Element | null, rendered: Map<Element, boolean>, max: number): void {
  let level = 0;
  for (let up = near ? parentOf(near) : null; up && level < AROUND_LEVELS && up !== document.body && up !== document.documentElement; up = parentOf(up), level++) {
    for (const child of up.children) {
      if (rendered.size >= max) break;
      if (!rendered.has(child)) rendered.set(child, rendersNow(child));
      // A menu is often one level further down: the toggle's sibling's list, a tab panel's content.
      for (const inner of child === near ? [] : child.children) {
        if (rendered.size >= max) break;
        rendered.set(inner, rendersNow(inner));
      }
    }
  }
}

/** Fields whose value is watched across an action, at most this many. */
const VALUES_WATCHED = 200;

export function fieldState(element: Element): string {
  const field = element as HTMLInputElement;
  return field.type === 'checkbox' || field.type === 'radio' ? String(field.checked) : field.value;
}

/** Fields by tag name: a selector query with :not() walked the whole document at 3-4x the cost. */
const FIELD_TAGS = ['input', 'textarea', 'select'];

export function fieldValues(): Map<Element, string> {
  const values = new Map<Element, string>();
  for (const tag of FIELD_TAGS) {
    const fields = document.getElementsByTagName(tag);
    for (let i = 0; i < fields.length && values.size < VALUES_WATCHED; i++) {
      const field = fields[i]!;
      if ((field as HTMLInputElement).type !== 'hidden') values.set(field, fieldState(field));
    }
  }
  return values;
}
