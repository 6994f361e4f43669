// Short, human-readable descriptions of elements for results and errors: role and name, or tag#id.class "text".
import type { ElementSummary } from '../browser/page-types.js';

const IMPLICIT_ROLES: Record<string, string> = {
  a: 'link',
  button: 'button',
  select: 'combobox',
  textarea: 'textbox',
  img: 'img',
  h1: 'heading',
  h2: 'heading',
  h3: 'heading',
  h4: 'heading',
  h5: 'heading',
  h6: 'heading',
  li: 'listitem',
  ul: 'list',
  ol: 'list',
  nav: 'navigation',
  main: 'main',
  dialog: 'dialog',
  summary: 'button',
  option: 'option',
  table: 'table',
  form: 'form',
  p: 'paragraph',
};

const INPUT_ROLES: Record<string, string> = {
  button: 'button',
  submit: 'button',
  reset: 'button',
  checkbox: 'checkbox',
  radio: 'radio',
  range: 'slider',
  search: 'searchbox',
};

function clip(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function roleOf(element: Element): string {
  const explicit = element.getAttribute('role')?.trim().split(/\s+/)[0];
  if (explicit) return explicit;
  const tag = element.localName;
  if (tag === 'input') return INPUT_ROLES[(element as HTMLInputElement).type] ?? 'textbox';
  if (tag === 'a' && !element.hasAttribute('href')) return 'generic';
  return IMPLICIT_ROLES[tag] ?? 'generic';
}

export function nameOf(element: Element): string {
  const label = element.getAttribute('aria-label');
  if (label?.trim()) return clip(label);
  const labelledBy = element.getAttribute('aria-labelledby');
  if (labelledBy) {
    const text = labelledBy
      .split(/\s+/)
      .map((id) => element.ownerDocument.getElementById(id)?.textContent ?? '')
      .join(' ');
    if (text.trim()) return clip(text);
  }
  const labels = (element as HTMLInputElement).labels;
  if (labels && labels.length > 0) return clip([...labels].map((l) => l.textContent ?? '').join(' '));
  for (const attr of ['alt', 'title', 'placeholder']) {
    const value = element.getAttribute(attr);
    if (value?.trim()) return clip(value);
  }
  if (element instanceof HTMLInputElement && ['button', 'submit', 'reset'].includes(element.type)) return clip(element.value);
  return clip((element as HTMLElement).innerText ?? element.textContent ?? '');
}

/** tag#id.class "text", the way a person would point at it in devtools. */
export function selectorOf(element: Element): string {
  let out = element.localName;
  if (element.id) out += `#${element.id}`;
  const classes = [...element.classList].slice(0, 2);
  if (classes.length) out += `.${classes.join('.')}`;
  return out;
}

export function summarize(element: Element): ElementSummary {
  const name = nameOf(element);
  return { role: roleOf(element), name, selector: selectorOf(element) };
}

/** One line for messages: `button "Save" (button#save)`. */
export function describe(element: Element): string {
  const { role, name, selector } = summarize(element);
  return `${role}${name ? ` "${name}"` : ''} (${selector})`;
}
