// Text inserted as one paste, for code editors that auto-close brackets and indent on typed keys: a paste event
// carrying the text at the focused element (what editors handle), else one insertText edit for plain fields.
import type { PasteReport } from '../browser/page-types.js';
import { summarize } from './describe.js';
import { deepActiveElement } from './delivery.js';

function editable(element: Element): boolean {
  if (element instanceof HTMLTextAreaElement) return !element.readOnly && !element.disabled;
  if (element instanceof HTMLInputElement) return !element.readOnly && !element.disabled && !['checkbox', 'radio', 'button', 'submit', 'file', 'range', 'color'].includes(element.type);
  return element instanceof HTMLElement && element.isContentEditable;
}

export function pasteText(args: { text: string }): PasteReport {
  const target = deepActiveElement();
  if (!target || target === document.body || target === document.documentElement) return { how: 'no_focus' };
  // Made with the page's own constructors where the sandbox can reach them, so the page's handlers read the
  // clipboard data (and its items' callbacks) in their own realm.
  const page = (window as Window & { wrappedJSObject?: typeof window }).wrappedJSObject ?? window;
  const data = new page.DataTransfer();
  data.setData('text/plain', args.text);
  const init = { clipboardData: data, bubbles: true, cancelable: true, composed: true };
  const event = new page.ClipboardEvent('paste', page === window ? init : (cloneIntoPage(init, page) as ClipboardEventInit));
  // An editor that takes the paste cancels the event and inserts the text itself, as one edit.
  if (!target.dispatchEvent(event)) return { how: 'paste_event', target: summarize(target) };
  if (!editable(target)) return { how: 'ignored', target: summarize(target) };
  const inserted = document.execCommand('insertText', false, args.text);
  return { how: inserted ? 'insert_text' : 'ignored', target: summarize(target) };
}

/** A plain dictionary handed to a constructor of the page's realm (Firefox's cloneInto, present in the sandbox). */
function cloneIntoPage(value: object, page: Window): unknown {
  const clone = (globalThis as { cloneInto?: (v: object, scope: Window, options: { wrapReflectors: boolean }) => unknown }).cloneInto;
  return clone ? clone(value, page, { wrapReflectors: true }) : value;
}
