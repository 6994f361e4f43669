// The page's readable text: what a reader sees, main content first, page chrome (navigation, banner, footer,
// sidebars) last, with just enough structure (headings, list items, table cells) to be followed.
import type { PageText } from '../browser/page-types.js';
import { composedChildren } from './composed.js';
import { documentId, elementFor, localIdOf } from './registry.js';

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'canvas', 'object', 'embed', 'select', 'textarea', 'datalist', 'video', 'audio', 'math']);

/** Stands for a frame's text on a line of its own; the server puts the frame's text there. */
export const FRAME_MARK = '\u0001frame:';
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

function extract(root: Element, buckets: boolean): Record<Bucket, string> & { frames: number[] } {
  const writers: Record<Bucket, Writer> = { main: new Writer(), rest: new Writer(), chrome: new Writer() };
  const frames: number[] = [];
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
    if (buckets && bucket !== 'main' && isMain(node)) bucket = 'main';
    else if (buckets && bucket === 'rest' && isChrome(node)) bucket = 'chrome';
    const out = writers[bucket];
    if (tag === 'br') {
      out.write('\n', true);
      return;
    }
    if (tag === 'iframe' || tag === 'frame') {
      if (invisible) return;
      const id = localIdOf(node);
      frames.push(id);
      out.lineBreak();
      out.write(`${FRAME_MARK}${id}\u0001`);
      out.lineBreak();
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
    const children = composedChildren(node);
    for (let i = 0; i < children.length; i++) visit(children[i]!, bucket, keepSpaces, invisible);
    if (block && !cell) out.lineBreak();
  };
  visit(root, buckets ? 'rest' : 'main', false, false);
  return { main: writers.main.toString(), rest: writers.rest.toString(), chrome: writers.chrome.toString(), frames };
}

/**
 * The readable text of this document (main content first, page chrome last), or of one element's subtree, whole:
 * the server stitches frames' text in at their marks and cuts the reply to max_chars.
 */
export function pageText(args: { root?: { docId: string; id: number } }): PageText {
  const base = { url: location.href, title: document.title, docId: documentId };
  if (args.root) {
    const parts = extract(elementFor(args.root.docId, args.root.id), false);
    return { ...base, text: parts.main, frames: parts.frames };
  }
  if (!document.body) return { ...base, text: '', frames: [] };
  const parts = extract(document.body, true);
  const sections = [parts.main, parts.rest];
  if (parts.chrome) sections.push(`[page chrome: navigation, header, footer, sidebars]\n${parts.chrome}`);
  return { ...base, text: sections.filter(Boolean).join('\n\n'), frames: parts.frames };
}
