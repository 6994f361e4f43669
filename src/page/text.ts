// The page's readable text: what a reader sees, main content first, page chrome (navigation, banner, footer,
// sidebars) last, with just enough structure (headings, list items, table cells) to be followed.
import type { PageText } from '../contract/index.js';
import { composedChildren } from './composed.js';
import { Drawings } from './drawn.js';
import { backgroundAbove, backgroundOf, offPage, unreadableText, visuallyHidden } from './legible.js';
import { documentId, elementFor, localIdOf } from './registry.js';
import { pageIdentity } from './info.js';
import { setApart } from './text-runs.js';

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
      .filter((line) => line.replace(/[\u200b\u2060\ufeff]/g, '').trim() !== '')
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

/**
 * Children in the order a person reads them. A stack of rows placed one by one (every child absolutely positioned
 * at the same left edge: a code editor's reused line elements, a virtual list's rows) may sit in the DOM in any
 * order: it is read top to bottom. Anything else (a PDF text layer's words, columns) keeps the DOM's order.
 */
function readingOrder(children: ArrayLike<Node>): ArrayLike<Node> {
  if (children.length < 2) return children;
  const placed: Array<{ node: Node; top: number; left: number }> = [];
  for (const node of Array.from(children)) {
    if (node.nodeType === Node.TEXT_NODE) {
      if (node.nodeValue?.trim()) return children;
      continue;
    }
    if (!(node instanceof Element)) continue;
    if (getComputedStyle(node).position !== 'absolute') return children;
    const box = node.getBoundingClientRect();
    placed.push({ node, top: box.top, left: box.left });
  }
  if (placed.some((entry) => Math.abs(entry.left - placed[0]!.left) > 1)) return children;
  return placed.sort((a, b) => a.top - b.top).map((entry) => entry.node);
}

function extract(root: Element, buckets: boolean): Record<Bucket, string> & { frames: number[] } {
  const writers: Record<Bucket, Writer> = { main: new Writer(), rest: new Writer(), chrome: new Writer() };
  const frames: number[] = [];
  const drawings = new Drawings();
  // What a person cannot see stays out, as in the snapshot: aria-hidden, closed <details>, opacity 0, text in the
  // colour of its background or too small to see, boxes off the page.
  const visit = (node: Node, bucket: Bucket, pre: boolean, hidden: boolean, behind: [number, number, number, number] | null) => {
    if (node.nodeType === Node.TEXT_NODE) {
      if (!hidden) writers[bucket].write(node.nodeValue ?? '', pre);
      return;
    }
    if (!(node instanceof Element)) return;
    const tag = node.localName;
    // A code editor's rendered lines are aria-hidden (its input holds the text for assistive technology), yet they
    // are what a person reads: they stand for the hidden input.
    if (SKIP.has(tag) || (node.getAttribute('aria-hidden') === 'true' && !drawings.drawsControl(node))) return;
    const style = getComputedStyle(node);
    if (style.display === 'none' || style.contentVisibility === 'hidden') return;
    if (visuallyHidden(style, node) || Number(style.opacity) < 0.05) return;
    if ((style.position === 'absolute' || style.position === 'fixed') && offPage(node)) return;
    const background = backgroundOf(style, behind);
    // visibility:hidden hides this element's own text, yet a child may be made visible again.
    const invisible = style.visibility === 'hidden' || style.visibility === 'collapse' || unreadableText(node, style, background, drawings);
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
    // A box of its own inside the line is a word of its own, with the text the style sheet draws around it.
    const apart = !block && !invisible ? setApart(node, style) : null;
    if (apart) out.write(` ${apart.before} `);
    const keepSpaces = pre || style.whiteSpace.startsWith('pre') || style.whiteSpace === 'break-spaces';
    // A closed <details> shows only its summary.
    const closedDetails = tag === 'details' && !(node as HTMLDetailsElement).open;
    const children = closedDetails ? Array.from(node.children).filter((child) => child.localName === 'summary') : readingOrder(composedChildren(node));
    for (let i = 0; i < children.length; i++) visit(children[i]!, bucket, keepSpaces, invisible, background);
    if (apart) out.write(` ${apart.after} `);
    if (block && !cell) out.lineBreak();
  };
  visit(root, buckets ? 'rest' : 'main', false, false, backgroundAbove(root));
  return { main: writers.main.toString(), rest: writers.rest.toString(), chrome: writers.chrome.toString(), frames };
}

/**
 * The readable text of this document (main content first, page chrome last), or of one element's subtree, whole:
 * the server stitches frames' text in at their marks and cuts the reply to max_chars.
 */
export function pageText(args: { root?: { docId: string; id: number } }): PageText {
  const base = { ...pageIdentity(), docId: documentId };
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
