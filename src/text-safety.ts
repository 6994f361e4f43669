// What a page writes reaches the model and the user's terminal. These keep it from posing as our own lines (a forged
// `[ref=…]`), from driving a terminal (ESC, BEL) or reordering what is read (bidi overrides), and from flooding a reply.

/**
 * Characters that are layout or control rather than text: C0 (but tab and line feed) and C1 controls, the line and
 * paragraph separators (a model may read them as line breaks), and the bidi marks, embeddings, overrides and isolates.
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_TEST = new RegExp(UNSAFE.source);

function escapeOne(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with every control, separator and bidi character written as an escape (`\x1b`, `\u202e`). */
export function escapeControls(text: string): string {
  return UNSAFE_TEST.test(text) ? text.replace(UNSAFE, escapeOne) : text;
}

/** Page text must never look like a ref line the server would rewrite or an agent would trust. */
export function defangRefs(text: string): string {
  return text.replace(/\[ref=/gi, '(ref=');
}

/** At most `max` characters, the cut said with `…` and how long the whole was. */
export function capText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… [cut: ${text.length} chars]` : text;
}

/** How long a title, dialog message or URL may be in a reply. */
export const TITLE_LIMIT = 300;
export const MESSAGE_LIMIT = 2_000;
export const URL_LIMIT = 2_048;

/** A page-given string shown on one line of ours (a title, a dialog message): one line, no ref, no control, capped. */
export function pageLine(text: string, max = TITLE_LIMIT): string {
  return capText(escapeControls(defangRefs(text.replace(/\r\n?|\n/g, '\\n').replace(/[\t\f\v ]+/g, ' '))), max);
}

/** A URL as a reply shows it: capped (controls are percent-encoded by the URL parser; escaped here all the same). */
export function pageUrl(url: string): string {
  return capText(escapeControls(url), URL_LIMIT);
}

/**
 * A reply's strings made safe to print, all of them: every control, separator and bidi character escaped. Structured
 * content is walked as deep as it goes; the result is a copy only where something changed.
 */
export function escapeDeep<T>(value: T): T {
  if (typeof value === 'string') return escapeControls(value) as T;
  if (Array.isArray(value)) {
    let changed = false;
    const out = (value as unknown[]).map((item) => {
      const next: unknown = escapeDeep(item);
      if (next !== item) changed = true;
      return next;
    });
    return (changed ? out : value) as T;
  }
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      const next: unknown = escapeDeep(item);
      if (next !== item) changed = true;
      out[key] = next;
    }
    return (changed ? out : value) as T;
  }
  return value;
}
