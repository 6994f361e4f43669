// The page's readable text: what a reader sees, main content first, page chrome (navigation, banner, footer,
// sidebars) last, with just enough structure (headings, list items, table cells) to be followed.
import type { PageText } from '../contract/index.js';
import { composedChildren } from './composed.js';
import { Drawings } from './drawn.js';
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

/** Text for assistive technology only (the "visually hidden" pattern): not what a reader sees. */
function visuallyHidden(style: CSSStyleDeclaration, element: Element): boolean {
  if (style.position !== 'absolute' && style.position !== 'fixed') return false;
  const box = element.getBoundingClientRect();
  return box.width <= 1 && box.height <= 1 && style.overflow !== 'visible';
}

/** An rgb()/rgba() colour as [r, g, b, alpha]; null for anything else. */
function rgba(color: string): [number, number, number, number] | null {
  const match = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(color);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3]), match[4] === undefined ? 1 : Number(match[4])] : null;
}

/** Relative luminance (WCAG) of an sRGB colour. */
function luminance([r, g, b]: [number, number, number, number]): number {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** Text this close to its background (contrast ratio) is not readable: white on white, grey on grey. */
const UNREADABLE_CONTRAST = 1.2;

/**
 * The colour behind an element's text: its own background when opaque, else what shows through from its
 * parent (`behind`); null when an image or a gradient is involved (then nothing can be said).
 */
function backgroundOf(style: CSSStyleDeclaration, behind: [number, number, number, number] | null): [number, number, number, number] | null {
  if (style.backgroundImage !== 'none') return null;
  const own = rgba(style.backgroundColor);
  // A positioned box may lie over anything (a caption over a photo): what its parent paints says nothing.
  if (!own || own[3] === 0) return style.position === 'static' || style.position === 'relative' ? behind : null;
  return own[3] >= 0.95 ? own : null;
}

/** Where an element's background comes from when a walk starts at it (get_page_text by ref). */
function backgroundAbove(element: Element): [number, number, number, number] | null {
  const chain: Element[] = [];
  for (let up = element.parentElement; up; up = up.parentElement) chain.unshift(up);
  let behind: [number, number, number, number] | null = [255, 255, 255, 1];
  for (const up of chain) behind = backgroundOf(getComputedStyle(up), behind);
  return behind;
}

/** Text a person cannot read: transparent, a font too small to see, or the colour of what is behind it. */
function unreadableText(element: Element, style: CSSStyleDeclaration, behind: [number, number, number, number] | null, drawings: Drawings): boolean {
  if (parseFloat(style.fontSize) < 2) return true;
  const color = rgba(style.color);
  if (!color) return false;
  // Transparent words over the picture that paints them (a PDF viewer's text layer) are what a person reads.
  if (color[3] < 0.1) return !drawings.paintedUnder(element);
  if (!behind) return false;
  const [light, dark] = [luminance(color), luminance(behind)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05) < UNREADABLE_CONTRAST;
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

/** Wholly outside the page, where no scrolling brings it (left: -9999px). */
function offPage(element: Element): boolean {
  const box = element.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) return false;
  return box.right + window.scrollX <= 0 || box.bottom + window.scrollY <= 0;
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
    const keepSpaces = pre || style.whiteSpace.startsWith('pre') || style.whiteSpace === 'break-spaces';
    // A closed <details> shows only its summary.
    const closedDetails = tag === 'details' && !(node as HTMLDetailsElement).open;
    const children = closedDetails ? Array.from(node.children).filter((child) => child.localName === 'summary') : readingOrder(composedChildren(node));
    for (let i = 0; i < children.length; i++) visit(children[i]!, bucket, keepSpaces, invisible, background);
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
