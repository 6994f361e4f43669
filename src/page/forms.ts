// Setting form fields the way a user's edit ends up: value through the element's own (native) setter, then the
// input and change events a user's edit fires, so frameworks that track values (React, Vue) see the change.
import type { FieldResult, FileInputInfo } from '../contract/index.js';
import { PageError } from './errors.js';
import { nameSuffix } from './names.js';
import { roleOf } from './roles.js';
import { documentId, elementFor, localIdOf } from './registry.js';

export type FieldValue = string | number | boolean | string[];

interface SetArgs {
  docId: string;
  localId: number;
  value: FieldValue;
}

const TEXT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'password', '']);
const FORMAT_TYPES: Record<string, string> = {
  date: 'YYYY-MM-DD',
  time: 'HH:MM or HH:MM:SS',
  'datetime-local': 'YYYY-MM-DDTHH:MM',
  month: 'YYYY-MM',
  week: 'YYYY-Www (e.g. 2026-W05)',
  number: 'a number',
  color: '#rrggbb',
};
const UNSETTABLE = new Set(['button', 'submit', 'reset', 'image', 'hidden']);
const FIELD_SELECTOR = 'input, select, textarea, [contenteditable=""], [contenteditable="true"], [contenteditable="plaintext-only"]';

function invalid(message: string, details: Record<string, unknown> = {}): PageError {
  return new PageError('invalid_arguments', message, { field: 'value', ...details });
}

/** The form field a ref means: the element itself, the control of a label, or the one field inside a wrapper. */
function fieldOf(element: Element): Element {
  if (element instanceof HTMLLabelElement && element.control) return element.control;
  if (element.matches(FIELD_SELECTOR) || (element instanceof HTMLElement && element.isContentEditable)) return element;
  const inner = element.querySelectorAll(FIELD_SELECTOR);
  if (inner.length === 1) return inner[0]!;
  const what = inner.length > 1 ? `it contains ${inner.length} fields; use the ref of one of them` : 'it is not a form field';
  throw new PageError('invalid_arguments', `form_input cannot set a <${element.localName}>: ${what}.`, { field: 'ref' });
}

function describe(element: Element): string {
  if (element instanceof HTMLInputElement) return `input[type=${element.type}]`;
  if (element instanceof HTMLElement && element.isContentEditable && !(element instanceof HTMLTextAreaElement)) return 'contenteditable';
  return element.localName;
}

function fire(element: Element, type: 'input' | 'change', data?: string): void {
  const event =
    type === 'input'
      ? new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertReplacementText', ...(data !== undefined ? { data } : {}) })
      : new Event('change', { bubbles: true });
  element.dispatchEvent(event);
}

function asText(value: FieldValue, what: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw invalid(`${what} takes text, not ${Array.isArray(value) ? 'a list' : typeof value}.`);
}

function asBoolean(value: FieldValue, what: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  throw invalid(`${what} takes true (checked) or false (unchecked).`, { allowed: [true, false] });
}

function assertEditable(element: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement): void {
  if (element.matches(':disabled')) throw invalid(`The ${describe(element)} is disabled; a user could not change it.`, { field: 'ref' });
  if (!(element instanceof HTMLSelectElement) && element.readOnly) {
    throw invalid(`The ${describe(element)} is read-only; a user could not change it.`, { field: 'ref' });
  }
}

function focus(element: Element): void {
  if (element instanceof HTMLElement) element.focus({ preventScroll: true });
}

function validity(element: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement): Pick<FieldResult, 'valid' | 'validationMessage'> {
  if (element.validity.valid) return { valid: true };
  return { valid: false, validationMessage: element.validationMessage };
}

function setText(element: HTMLInputElement | HTMLTextAreaElement, raw: FieldValue): FieldResult {
  const kind = describe(element);
  const text = asText(raw, `The ${kind}`);
  if (element.maxLength >= 0 && text.length > element.maxLength) {
    throw invalid(`The ${kind} takes at most ${element.maxLength} characters (maxlength); the value has ${text.length}.`, { maxLength: element.maxLength });
  }
  const type = element instanceof HTMLInputElement ? element.type : 'textarea';
  if (type === 'range') return setRange(element as HTMLInputElement, text);
  if (type === 'color' && !/^#[0-9a-f]{6}$/i.test(text)) throw invalid(`The ${kind} takes a color as #rrggbb, e.g. #1a2b3c.`, { format: FORMAT_TYPES.color });
  const before = element.value;
  focus(element);
  element.value = text;
  if (text !== '' && element.value === '' && type in FORMAT_TYPES) {
    element.value = before;
    throw invalid(`"${text}" is not a valid value for the ${kind}: it takes ${FORMAT_TYPES[type]}.`, { format: FORMAT_TYPES[type] });
  }
  fire(element, 'input', text);
  fire(element, 'change');
  return result(element, kind);
}

function setRange(element: HTMLInputElement, text: string): FieldResult {
  const number = Number(text);
  const min = element.min === '' ? 0 : Number(element.min);
  const max = element.max === '' ? 100 : Number(element.max);
  if (text.trim() === '' || !Number.isFinite(number) || number < min || number > max) {
    throw invalid(`The slider takes a number from ${min} to ${max}${element.step && element.step !== 'any' ? ` in steps of ${element.step}` : ''}.`, {
      min,
      max,
      step: element.step || '1',
    });
  }
  focus(element);
  element.value = String(number);
  fire(element, 'input');
  fire(element, 'change');
  const out = result(element, 'input[type=range]');
  if (Number(element.value) !== number) out.note = `snapped to the slider's step: ${element.value}`;
  return out;
}

function setCheckable(element: HTMLInputElement, raw: FieldValue): FieldResult {
  const kind = describe(element);
  const want = asBoolean(raw, `The ${kind}`);
  if (element.checked !== want) {
    if (element.type === 'radio' && !want) {
      throw invalid('A radio button cannot be unchecked on its own: check another button of its group instead.', { allowed: [true] });
    }
    // A click is what a user does: it toggles, fires click, input and change, and honours the page's handlers.
    element.click();
  }
  const out = result(element, kind);
  if (element.checked !== want) out.note = `the page kept it ${element.checked ? 'checked' : 'unchecked'} (its click handler undid the change)`;
  return out;
}

function optionLabel(option: HTMLOptionElement): string {
  return (option.label || option.text).replace(/\s+/g, ' ').trim();
}

function findOption(select: HTMLSelectElement, wanted: string): HTMLOptionElement | undefined {
  const options = [...select.options];
  const folded = wanted.replace(/\s+/g, ' ').trim().toLowerCase();
  return (
    options.find((o) => o.value === wanted) ??
    options.find((o) => optionLabel(o) === wanted.trim()) ??
    options.find((o) => optionLabel(o).toLowerCase() === folded || o.value.toLowerCase() === folded)
  );
}

/** Picks the options named by `raw` (labels or values), or exactly `direct` when given (from an option's ref). */
function setSelect(select: HTMLSelectElement, raw: FieldValue, direct?: HTMLOptionElement[]): FieldResult {
  const wanted = direct ? direct : Array.isArray(raw) ? raw : [asText(raw, 'A select')];
  if (!select.multiple && wanted.length !== 1) throw invalid('This select takes one option (it is not multiple).');
  const allowed = [...select.options].slice(0, 50).map((o) => (o.value === optionLabel(o) ? o.value : `${optionLabel(o)} (value ${o.value})`));
  const chosen = wanted.map((want) => {
    const option = typeof want === 'string' ? findOption(select, want) : want;
    if (!option) {
      throw invalid(`The select has no option "${typeof want === 'string' ? want : optionLabel(want)}". Options: ${allowed.join(', ')}${select.options.length > 50 ? ', …' : ''}.`, { allowed });
    }
    if (option.disabled || (option.parentElement instanceof HTMLOptGroupElement && option.parentElement.disabled)) {
      throw invalid(`The option "${optionLabel(option)}" is disabled.`, { allowed });
    }
    return option;
  });
  const before = [...select.selectedOptions];
  const same = before.length === chosen.length && chosen.every((option) => option.selected);
  focus(select);
  if (!same) {
    for (const option of select.options) option.selected = chosen.includes(option);
    fire(select, 'input');
    fire(select, 'change');
  }
  return result(select, 'select');
}

function setEditable(element: HTMLElement, raw: FieldValue): FieldResult {
  const text = asText(raw, 'The editable element');
  element.focus({ preventScroll: true });
  const selection = element.ownerDocument.getSelection();
  if (selection) {
    const range = element.ownerDocument.createRange();
    range.selectNodeContents(element);
    selection.removeAllRanges();
    selection.addRange(range);
  }
  // insertText goes through the editor's own input pipeline (beforeinput/input), which rich editors listen to.
  const done = text === '' ? element.ownerDocument.execCommand('delete') : element.ownerDocument.execCommand('insertText', false, text);
  if (!done || element.innerText.replace(/\s+$/, '') !== text.replace(/\s+$/, '')) {
    element.textContent = text;
    element.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: text }));
  }
  return { field: 'contenteditable', value: element.innerText };
}

function result(element: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, field: string): FieldResult {
  if (element instanceof HTMLSelectElement) {
    const labels = [...element.selectedOptions].map(optionLabel);
    return { field, value: element.multiple ? labels : (labels[0] ?? ''), ...validity(element) };
  }
  if (element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio')) {
    return { field, value: element.checked, ...validity(element) };
  }
  if (element instanceof HTMLInputElement && element.type === 'password') {
    // Never echo a secret back into the model's context.
    return { field, masked: true, length: element.value.length, ...validity(element) };
  }
  return { field, value: element.value, ...validity(element) };
}

/** form_input: sets the field behind a ref, and says which field that was as a snapshot line would name it. */
export function setFieldValue(args: SetArgs): FieldResult {
  const result = setField(args);
  const referred = elementFor(args.docId, args.localId);
  const control = referred instanceof HTMLOptionElement ? referred.closest('select') : fieldOf(referred);
  const role = control && roleOf(control);
  return control && role ? { ...result, described: `${role}${nameSuffix(control, role)}` } : result;
}

function setField(args: SetArgs): FieldResult {
  const referred = elementFor(args.docId, args.localId);
  // An option's ref (read_page lists a select's options with refs): true picks it, false unpicks it (multiple).
  if (referred instanceof HTMLOptionElement && referred.parentElement?.closest('select')) {
    const select = referred.closest('select')!;
    assertEditable(select);
    if (typeof args.value !== 'boolean') throw invalid("An option's ref takes true (pick it) or false (unpick it, in a multiple select).");
    const others = select.multiple ? [...select.selectedOptions].filter((option) => option !== referred) : [];
    if (!args.value && !select.multiple) throw invalid('A single select always has one option picked: pick another one instead.');
    return setSelect(select, [], args.value ? [...others, referred] : others);
  }
  const element = fieldOf(referred);
  if (element instanceof HTMLSelectElement) {
    assertEditable(element);
    return setSelect(element, args.value);
  }
  if (element instanceof HTMLTextAreaElement) {
    assertEditable(element);
    return setText(element, args.value);
  }
  if (element instanceof HTMLInputElement) {
    const type = element.type;
    if (type === 'file') throw new PageError('invalid_arguments', 'This is a file input: use file_upload with paths.', { field: 'ref' });
    if (UNSETTABLE.has(type)) throw new PageError('invalid_arguments', `An input of type ${type} has no value to set; click it with computer instead.`, { field: 'ref' });
    assertEditable(element);
    if (type === 'checkbox' || type === 'radio') return setCheckable(element, args.value);
    if (TEXT_TYPES.has(type) || type === 'range' || type in FORMAT_TYPES) return setText(element, args.value);
    return setText(element, args.value);
  }
  if (element instanceof HTMLElement && element.isContentEditable) return setEditable(element, args.value);
  throw new PageError('invalid_arguments', `form_input cannot set a <${element.localName}>.`, { field: 'ref' });
}

function fileInfo(input: HTMLInputElement): FileInputInfo {
  return {
    docId: documentId,
    localId: localIdOf(input),
    name: input.name || input.id || input.getAttribute('aria-label') || '',
    multiple: input.multiple,
    accept: input.accept,
    disabled: input.matches(':disabled'),
    files: [...(input.files ?? [])].map((file) => file.name),
  };
}

/** Every file input of this document (open shadow roots included), hidden ones too: file_upload needs no click. */
export function fileInputs(): FileInputInfo[] {
  const found: HTMLInputElement[] = [];
  const visit = (root: Document | ShadowRoot) => {
    for (const input of root.querySelectorAll('input[type=file]')) found.push(input as HTMLInputElement);
    for (const host of root.querySelectorAll('*')) if (host.shadowRoot) visit(host.shadowRoot);
  };
  visit(document);
  return found.map(fileInfo);
}

/** The file input behind a ref (or a coded refusal if it is something else). */
export function fileInput(args: { docId: string; localId: number }): FileInputInfo {
  let element = elementFor(args.docId, args.localId);
  if (element instanceof HTMLLabelElement && element.control) element = element.control;
  if (!(element instanceof HTMLInputElement) || element.type !== 'file') {
    throw new PageError('invalid_arguments', `The ref is a <${element.localName}>, not a file input (input type=file).`, { field: 'ref' });
  }
  return fileInfo(element);
}
