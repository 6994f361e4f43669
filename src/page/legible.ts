// Whether a person can see text: the rules get_page_text and the snapshot share, so that words a page hides from
// the reader (opacity 0, off the page, white on white) reach the model from neither.
import { composedParent } from './composed.js';
import { Drawings } from './drawn.js';

type Rgba = [number, number, number, number];

/** Text for assistive technology only (the "visually hidden" pattern): not what a reader sees. */
export function visuallyHidden(style: CSSStyleDeclaration, element: Element): boolean {
  if (style.position !== 'absolute' && style.position !== 'fixed') return false;
  const box = element.getBoundingClientRect();
  return box.width <= 1 && box.height <= 1 && style.overflow !== 'visible';
}

/** An rgb()/rgba() colour as [r, g, b, alpha]; null for anything else. */
function rgba(color: string): Rgba | null {
  const match = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(color);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3]), match[4] === undefined ? 1 : Number(match[4])] : null;
}

/** Relative luminance (WCAG) of an sRGB colour. */
function luminance([r, g, b]: Rgba): number {
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
export function backgroundOf(style: CSSStyleDeclaration, behind: Rgba | null): Rgba | null {
  if (style.backgroundImage !== 'none') return null;
  const own = rgba(style.backgroundColor);
  // A positioned box may lie over anything (a caption over a photo): what its parent paints says nothing.
  if (!own || own[3] === 0) return style.position === 'static' || style.position === 'relative' ? behind : null;
  return own[3] >= 0.95 ? own : null;
}

/** Where an element's background comes from when a walk starts at it (get_page_text by ref). */
export function backgroundAbove(element: Element): Rgba | null {
  const chain: Element[] = [];
  for (let up = element.parentElement; up; up = up.parentElement) chain.unshift(up);
  let behind: Rgba | null = [255, 255, 255, 1];
  for (const up of chain) behind = backgroundOf(getComputedStyle(up), behind);
  return behind;
}

/** Text a person cannot read: transparent, a font too small to see, or the colour of what is behind it. */
export function unreadableText(element: Element, style: CSSStyleDeclaration, behind: Rgba | null, drawings: Drawings): boolean {
  if (parseFloat(style.fontSize) < 2) return true;
  const color = rgba(style.color);
  if (!color) return false;
  // Transparent words over the picture that paints them (a PDF viewer's text layer) are what a person reads.
  if (color[3] < 0.1) return !drawings.paintedUnder(element);
  if (!behind) return false;
  const [light, dark] = [luminance(color), luminance(behind)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05) < UNREADABLE_CONTRAST;
}

/** Wholly outside the page, where no scrolling brings it (left: -9999px). */
export function offPage(element: Element): boolean {
  const box = element.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) return false;
  return box.right + window.scrollX <= 0 || box.bottom + window.scrollY <= 0;
}


interface Seen {
  /** Nothing in this subtree shows: opacity 0, or off the page. */
  subtreeHidden: boolean;
  /** What shows behind the element's text (null: cannot be said). */
  behind: Rgba | null;
  /** This element's own text cannot be read (its colour is its background's, or too small). */
  ownUnreadable: boolean;
}

/**
 * The snapshot's question, asked of each text node: can a person read it? Styles are read once an element per walk
 * (through the sandbox they are costly), from the top down, so an element's answer builds on its parent's.
 */
export class Legibility {
  private readonly seen = new Map<Element, Seen>();
  private readonly drawings = new Drawings();

  textShown(text: Node): boolean {
    const parent = composedParent(text);
    return !parent || !this.of(parent).ownUnreadable;
  }

  private of(element: Element): Seen {
    const known = this.seen.get(element);
    if (known) return known;
    const parent = composedParent(element);
    const above: Seen = parent ? this.of(parent) : { subtreeHidden: false, behind: [255, 255, 255, 1], ownUnreadable: false };
    let seen: Seen;
    if (above.subtreeHidden) {
      seen = above;
    } else {
      const style = getComputedStyle(element);
      // A visually hidden box (1 px, clipped) is what screen readers read, and the snapshot is theirs: it stays.
      const hidden = Number(style.opacity) < 0.05 || ((style.position === 'absolute' || style.position === 'fixed') && offPage(element));
      const behind = backgroundOf(style, above.behind);
      seen = hidden ? { subtreeHidden: true, behind, ownUnreadable: true } : { subtreeHidden: false, behind, ownUnreadable: unreadableText(element, style, behind, this.drawings) };
    }
    this.seen.set(element, seen);
    return seen;
  }
}
