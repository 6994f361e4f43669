// Accessible names and the states shown after them, following the order of the accname spec in a simplified form:
// aria-labelledby, aria-label, native labels (label, alt, legend, caption), content for roles named by content,
// then title and placeholder.
import { composedChildren, composedParent, elementById } from './composed.js';
import { ICON_ROLES, iconName } from './icon-name.js';
import { BLOCK_TAGS, NAME_FROM_CONTENT, SKIPPED_TAGS } from './roles.js';

export const NAME_LIMIT = 100;

export function squash(text: string): string {
  // Zero-width spaces (an editor's empty line) are no text to show.
  return text.replace(/[\u200b\u2060\ufeff]/g, '').replace(/\s+/g, ' ').trim();
}

export function clip(text: string, limit = NAME_LIMIT): string {
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

function byIds(element: Element, attr: string): Element[] {
  const ids = element.getAttribute(attr)?.trim();
  if (!ids) return [];
  const found: Element[] = [];
  for (const id of ids.split(/\s+/)) {
    const target = elementById(element, id);
    if (target) found.push(target);
  }
  return found;
}

/** Set when the last nameOf() shortened the name (read it with nameWasCut()). */
let textCut = false;

/** Whether the last nameOf() call shortened the name it returned. */
export function nameWasCut(): boolean {
  return textCut;
}

/** Text of a subtree as a name: text nodes, alt of images, aria-label of parts; hidden parts left out. */
export function textOf(node: Node, budget = 400, skip?: (element: Element) => boolean): string {
  let out = '';
  let stopped = false;
  // Runs of spaces collapsed as they come, so the budget counts what the name will show.
  const add = (text: string): void => {
    const collapsed = text.replace(/\s+/g, ' ');
    out += out.endsWith(' ') && collapsed.startsWith(' ') ? collapsed.slice(1) : collapsed;
  };
  const walk = (current: Node): void => {
    if (out.length > budget + 2) {
      stopped = true;
      return;
    }
    if (current.nodeType === Node.TEXT_NODE) {
      add(current.nodeValue ?? '');
      return;
    }
    if (current.nodeType !== Node.ELEMENT_NODE) return;
    const element = current as Element;
    if (SKIPPED_TAGS.has(element.localName) || element.getAttribute('aria-hidden') === 'true' || element.hasAttribute('hidden') || skip?.(element)) return;
    const label = element.getAttribute('aria-label');
    if (label) {
      add(` ${label} `);
      return;
    }
    if (element.localName === 'img' || (element.localName === 'input' && (element as HTMLInputElement).type === 'image')) {
      add(element.getAttribute('alt') ?? '');
      return;
    }
    if (element.localName === 'input' || element.localName === 'select' || element.localName === 'textarea') {
      add(` ${fieldValue(element) ?? ''} `);
      return;
    }
    const block = BLOCK_TAGS.has(element.localName);
    if (block) add(' ');
    const children = composedChildren(element);
    for (let i = 0; i < children.length; i++) walk(children[i]!);
    if (block) add(' ');
  };
  walk(node);
  const text = squash(out);
  if (stopped) textCut = true;
  return text;
}

/** The accessible name of an element with the given role ('' when it has none), cut at `limit` with "…". */
export function nameOf(element: Element, role: string, limit = NAME_LIMIT): string {
  textCut = false;
  const name = computeName(element, role, limit);
  if (name.length > limit) {
    textCut = true;
    return clip(name, limit);
  }
  if (textCut && !name.endsWith('…')) return `${name}…`;
  return name;
}

function computeName(element: Element, role: string, limit: number): string {
  const labelledBy = byIds(element, 'aria-labelledby');
  if (labelledBy.length) return squash(labelledBy.map((target) => textOf(target, limit)).join(' '));
  const label = element.getAttribute('aria-label');
  if (label && label.trim()) return squash(label);
  const native = nativeName(element);
  if (native) return native;
  if (NAME_FROM_CONTENT.has(role) || role === 'iframe') {
    const text = textOf(element, limit);
    if (text) return text;
  }
  const title = element.getAttribute('title');
  if (title && title.trim()) return squash(title);
  const placeholder = element.getAttribute('placeholder') ?? element.getAttribute('aria-placeholder');
  if (placeholder && placeholder.trim()) return squash(placeholder);
  return ICON_ROLES.has(role) ? squash(iconName(element)) : '';
}

function nativeName(element: Element): string {
  const tag = element.localName;
  if (tag === 'input' || tag === 'select' || tag === 'textarea' || tag === 'meter' || tag === 'progress' || tag === 'output') {
    const control = element as HTMLInputElement;
    if (tag === 'input' && ['button', 'submit', 'reset'].includes(control.type)) {
      return squash(control.value || (control.type === 'submit' ? 'Submit' : control.type === 'reset' ? 'Reset' : ''));
    }
    if (tag === 'input' && control.type === 'image') return squash(control.alt || control.value || 'Submit');
    const labels = control.labels;
    if (labels && labels.length) {
      return squash([...labels].map((label) => labelText(label, element)).join(' '));
    }
    return '';
  }
  if (tag === 'img' || tag === 'area') return squash(element.getAttribute('alt') ?? '');
  if (tag === 'optgroup') return squash(element.getAttribute('label') ?? '');
  if (tag === 'fieldset') {
    const legend = element.querySelector(':scope > legend');
    return legend ? textOf(legend) : '';
  }
  if (tag === 'table') {
    const caption = (element as HTMLTableElement).caption;
    return caption ? textOf(caption) : '';
  }
  if (tag === 'figure') {
    const caption = element.querySelector(':scope > figcaption');
    return caption ? textOf(caption) : '';
  }
  if (tag === 'svg') {
    const title = element.querySelector(':scope > title');
    return title ? squash(title.textContent ?? '') : '';
  }
  if (tag === 'iframe' || tag === 'frame') return squash(element.getAttribute('title') ?? element.getAttribute('name') ?? '');
  if (tag.includes('-')) return customElementLabel(element);
  return '';
}

/**
 * The <label> of a form-associated custom element (label for=its id, or a label around it), which `labels` does
 * not expose to scripts outside the element.
 */
function customElementLabel(element: Element): string {
  const labels: HTMLLabelElement[] = [];
  for (let up = composedParent(element); up; up = composedParent(up)) {
    if (up.localName === 'label') {
      labels.push(up as HTMLLabelElement);
      break;
    }
  }
  if (element.id) {
    const root = element.getRootNode() as Document | ShadowRoot;
    for (const label of root.querySelectorAll('label[for]')) if ((label as HTMLLabelElement).htmlFor === element.id) labels.push(label as HTMLLabelElement);
  }
  return squash(labels.map((label) => labelText(label, element)).join(' '));
}

/** A label's text without the value of the control it wraps. */
function labelText(label: HTMLLabelElement, control: Element): string {
  let out = '';
  const walk = (node: Node): void => {
    if (node === control) return;
    if (node.nodeType === Node.TEXT_NODE) out += node.nodeValue ?? '';
    else if (node.nodeType === Node.ELEMENT_NODE && !SKIPPED_TAGS.has((node as Element).localName) && (node as Element).getAttribute('aria-hidden') !== 'true') {
      // Slotted text counts: a web component's label is often the host's light text shown through a <slot>.
      const children = composedChildren(node);
      for (let i = 0; i < children.length; i++) walk(children[i]!);
    }
  };
  walk(label);
  return squash(out);
}

/**
 * The value a form field shows, or null for none; never the value of a password field. `role`: the element's role
 * where it says more than its tag (a combobox drawn with elements).
 */
export function fieldValue(element: Element, role?: string): string | null {
  const tag = element.localName;
  if (tag === 'input') {
    const input = element as HTMLInputElement;
    if (['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'hidden', 'password'].includes(input.type)) return null;
    if (input.type === 'file') return input.files && input.files.length ? [...input.files].map((file) => file.name).join(', ') : null;
    return input.value;
  }
  if (tag === 'textarea') return (element as HTMLTextAreaElement).value;
  if (tag === 'select') {
    const select = element as HTMLSelectElement;
    const chosen = [...select.selectedOptions].map((option) => squash(option.label || option.text));
    return chosen.join(', ');
  }
  if ((element as HTMLElement).isContentEditable) return squash((element as HTMLElement).innerText ?? element.textContent ?? '');
  const now = element.getAttribute('aria-valuetext') ?? element.getAttribute('aria-valuenow');
  if (now !== null || role !== 'combobox') return now;
  // A combobox drawn with elements (ag-grid's select editor, many design systems) shows its chosen option as its
  // text: that is its value, as browsers expose it. Its popup list and its open button, kept inside it, are not.
  // Its children's text: its own aria-label is its name, not its value.
  const skip = (inner: Element) => inner.localName === 'button' || NOT_COMBOBOX_VALUE.has(inner.getAttribute('role') ?? '');
  return squash(Array.from(composedChildren(element), (child) => textOf(child, 400, skip)).join(' ')) || null;
}

/** Roles of the parts a drawn combobox may keep inside itself besides its value. */
const NOT_COMBOBOX_VALUE = new Set(['button', 'listbox', 'option', 'tree', 'grid', 'dialog', 'menu']);

/** States shown after the name, e.g. ` [checked] [expanded=false]`. */
export function statesOf(element: Element, role: string): string {
  let out = '';
  const aria = (name: string) => element.getAttribute(name);
  if (role === 'heading') {
    const level = aria('aria-level') ?? (/^h([1-6])$/.exec(element.localName)?.[1] ?? null);
    if (level) out += ` [level=${level}]`;
  }
  const tag = element.localName;
  if (tag === 'input' && ((element as HTMLInputElement).type === 'checkbox' || (element as HTMLInputElement).type === 'radio')) {
    const input = element as HTMLInputElement;
    if (input.indeterminate) out += ' [checked=mixed]';
    else if (input.checked) out += ' [checked]';
  } else {
    const checked = aria('aria-checked');
    if (checked === 'true') out += ' [checked]';
    else if (checked === 'mixed') out += ' [checked=mixed]';
  }
  const expanded = aria('aria-expanded');
  if (expanded === 'true') out += ' [expanded]';
  else if (expanded === 'false') out += ' [expanded=false]';
  else if (tag === 'details') out += (element as HTMLDetailsElement).open ? ' [expanded]' : ' [expanded=false]';
  if (aria('aria-selected') === 'true' || (tag === 'option' && (element as HTMLOptionElement).selected)) out += ' [selected]';
  const pressed = aria('aria-pressed');
  if (pressed === 'true') out += ' [pressed]';
  else if (pressed === 'mixed') out += ' [pressed=mixed]';
  if (aria('aria-current') && aria('aria-current') !== 'false') out += ' [current]';
  // A sorted column says which way (a grid's header after a click on it).
  const sort = aria('aria-sort');
  if (sort === 'ascending' || sort === 'descending' || sort === 'other') out += ` [sort=${sort}]`;
  if (aria('aria-disabled') === 'true' || (element as HTMLInputElement).disabled === true) out += ' [disabled]';
  if (aria('aria-required') === 'true' || (element as HTMLInputElement).required === true) out += ' [required]';
  if (aria('aria-invalid') === 'true') out += ' [invalid]';
  if (aria('aria-readonly') === 'true' || ((tag === 'input' || tag === 'textarea') && (element as HTMLInputElement).readOnly)) out += ' [readonly]';
  if (aria('aria-haspopup') && aria('aria-haspopup') !== 'false') out += ` [haspopup=${aria('aria-haspopup') === 'true' ? 'menu' : aria('aria-haspopup')}]`;
  if (tag === 'input' && (element as HTMLInputElement).type === 'password') out += ' [password]';
  if (tag === 'input' && (element as HTMLInputElement).type === 'file') out += ' [type=file]';
  if (role === 'textbox' && tag === 'textarea') out += ' [multiline]';
  if (role === 'link') {
    const href = element.getAttribute('href');
    if (href) out += ` [url=${shortUrl(href, (element as HTMLAnchorElement).href)}]`;
  }
  if (element.ownerDocument.activeElement === element && role !== 'iframe') out += ' [focused]';
  return out;
}

/**
 * A link target as a user would open it: a path for a link to the top-level page's own origin (the reply's head
 * line gives that origin, scheme included); otherwise the absolute URL with its scheme, which is also the rule
 * inside any frame (a path there would be relative to the frame's origin, not the page's). Very long ones clipped.
 */
function shortUrl(raw: string, resolved: string): string {
  if (raw.startsWith('#') || raw.startsWith('javascript:') || raw.startsWith('mailto:')) return clip(raw, 60);
  try {
    const url = new URL(resolved);
    const sameOrigin = url.origin === location.origin && window.top === window;
    return clip(sameOrigin ? `${url.pathname}${url.search}${url.hash}` : url.href, 150);
  } catch {
    return clip(raw, 150);
  }
}

/** `"…"` with the quotes inside escaped. */
export function quote(text: string): string {
  return `"${defang(text).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Page text must never look like a ref the server would rewrite or an agent would trust. */
export function defang(text: string): string {
  return text.replace(/\[ref=/gi, '(ref=');
}

/** ` "name"` (clipped) for a line about an element, or '' when it has none. */
export function nameSuffix(element: Element, role: string): string {
  const name = nameOf(element, role);
  return name ? ` ${quote(clip(name, 60))}` : '';
}
