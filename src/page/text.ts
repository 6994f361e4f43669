// The page's readable text: what a reader sees, main content first, page chrome (navigation, banner, footer,
// sidebars) last, with just enough structure (headings, list items, table cells) to be followed.
import type { PageText } from '../browser/page-types.js';

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'canvas', 'iframe', 'object', 'embed', 'select', 'textarea', 'datalist', 'video', 'audio', 'math']);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search']);
const CHROME_TAGS = new Set(['nav', 'header', 'footer', 'aside']);

type Bucket = 'main' | 'rest' | 'chrome';

/** Accumulates text with collapsed spaces and line breaks only where blocks begin and end. */
class Writer {
  private parts: string[] = [];
  private lineEmpty = true;
  private lastSpace = true;
  private pendingBreak = false;

  write(text: string, pre = false): void {
    if (!pre) text = text.replace(/\s+/g, ' ');
    if (text === '') return;
    if (this.pendingBreak && !this.lineEmpty) {
      this.parts.push('\n');
      this.lineEmpty = true;
      this.lastSpace = true;
    }
    this.pendingBreak = false;
    if (!pre && this.lastSpace) text = text.replace(/^ /, '');
    if (text === '') return;
    this.parts.push(text);
    this.lineEmpty = text.endsWith('\n');
    this.lastSpace = /\s$/.test(text);
  }

  lineBreak(): void {
    this.pendingBreak = true;
  }

  get onEmptyLine(): boolean {
    return this.lineEmpty || this.pendingBreak;
  }

  toString(): string {
    return this.parts
      .join('')
      .split('\n')
      .map((line) => line.trimEnd())
      .filter((line) => line.trim() !== '')
      .join('\n');
  }
}

function isChrome(element: Element): boolean {
  const role = element.getAttribute('role');
  if (role) return CHROME_ROLES.has(role);
  const tag = element.localName;
  if (!CHROME_TAGS.has(tag)) return false;
  // A header or footer inside an article or section belongs to it, not to the page.
  if (tag === 'header' || tag === 'footer') return !element.parentElement?.closest('article, section, main, [role=main]');
  return true;
}

function isMain(element: Element): boolean {
  return element.localName === 'main' || element.getAttribute('role') === 'main';
}

/** Text for assistive technology only (the "visually hidden" pattern): not what a reader sees. */
function visuallyHidden(style: CSSStyleDeclaration, element: Element): boolean {
  if (style.position !== 'absolute' && style.position !== 'fixed') return false;
  const box = element.getBoundingClientRect();
  return box.width <= 1 && box.height <= 1 && style.overflow !== 'visible';
}

function childrenOf(node: Element | ShadowRoot): Node[] {
  if (node instanceof HTMLSlotElement) {
    const assigned = node.assignedNodes({ flatten: true });
    return assigned.length ? assigned : [...node.childNodes];
  }
  if (node instanceof Element && node.shadowRoot) return [...node.shadowRoot.childNodes];
  return [...node.childNodes];
}

function extract(): Record<Bucket, string> {
  const writers: Record<Bucket, Writer> = { main: new Writer(), rest: new Writer(), chrome: new Writer() };
  const visit = (node: Node, bucket: Bucket, pre: boolean, hidden: boolean) => {
    if (node.nodeType === Node.TEXT_NODE) {
      if (!hidden) writers[bucket].write(node.nodeValue ?? '', pre);
      return;
    }
    if (!(node instanceof Element)) return;
    const tag = node.localName;
    if (SKIP.has(tag)) return;
    const style = getComputedStyle(node);
    if (style.display === 'none' || style.contentVisibility === 'hidden') return;
    if (visuallyHidden(style, node)) return;
    // visibility:hidden hides this element's own text, yet a child may be made visible again.
    const invisible = style.visibility === 'hidden' || style.visibility === 'collapse';
    if (bucket !== 'main' && isMain(node)) bucket = 'main';
    else if (bucket === 'rest' && isChrome(node)) bucket = 'chrome';
    const out = writers[bucket];
    if (tag === 'br') {
      out.write('\n', true);
      return;
    }
    const block = !style.display.startsWith('inline') && style.display !== 'contents';
    const cell = style.display === 'table-cell';
    if (cell) {
      if (!out.onEmptyLine) out.write(' | ');
    } else if (block) {
      out.lineBreak();
    }
    if (!invisible) {
      const heading = /^h([1-6])$/.exec(tag);
      if (heading) out.write(`${'#'.repeat(Number(heading[1]))} `);
      else if (style.display === 'list-item') out.write('- ');
    }
    const keepSpaces = pre || style.whiteSpace.startsWith('pre') || style.whiteSpace === 'break-spaces';
    for (const child of childrenOf(node)) visit(child, bucket, keepSpaces, invisible);
    if (block && !cell) out.lineBreak();
  };
  if (document.body) visit(document.body, 'rest', false, false);
  return { main: writers.main.toString(), rest: writers.rest.toString(), chrome: writers.chrome.toString() };
}

/** The readable text, cut to `maxChars` from `offset`; the cut falls on a line or word end when one is near. */
export function pageText(args: { maxChars: number; offset?: number }): PageText {
  const parts = extract();
  const sections = [parts.main, parts.rest];
  if (parts.chrome) sections.push(`[page chrome: navigation, header, footer, sidebars]\n${parts.chrome}`);
  const full = sections.filter(Boolean).join('\n\n');
  const offset = Math.min(Math.max(0, args.offset ?? 0), full.length);
  let end = Math.min(full.length, offset + args.maxChars);
  if (end < full.length) {
    const window = full.slice(offset, end);
    const floor = Math.floor(window.length * 0.8);
    const line = window.lastIndexOf('\n');
    const space = window.lastIndexOf(' ');
    if (line >= floor) end = offset + line + 1;
    else if (space >= floor) end = offset + space + 1;
  }
  const answer: PageText = { url: location.href, title: document.title, text: full.slice(offset, end), totalChars: full.length, offset };
  if (end < full.length) answer.nextOffset = end;
  return answer;
}
