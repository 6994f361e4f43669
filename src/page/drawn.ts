// What another element draws. A form control may be hidden under the visible control that stands for it (a custom
// checkbox's box, a code editor around its input textarea), and what a person reads may be painted in place of the
// element that holds it (an editor's aria-hidden lines, a document viewer's transparent text laid over the canvas
// that paints it). The guard, the hit test, the delta and the page text all follow this one rule, so what an agent
// reads and what it can act on agree.
import { composedParent } from './composed.js';

/**
 * Whether `target` is a form control drawn by something else: transparent, clipped away, not hit-testable or
 * (nearly) without size, the way components hide the native input under their own visible control.
 */
export function drawnElsewhere(target: Element): boolean {
  if (target.localName !== 'input' && target.localName !== 'textarea') return false;
  const style = getComputedStyle(target);
  if (Number(style.opacity) < 0.05 || style.pointerEvents === 'none') return true;
  const rect = target.getBoundingClientRect();
  if (rect.width <= 3 || rect.height <= 3 || /rect\(\s*0/.test(style.clip) || style.clipPath === 'inset(50%)') return true;
  // Clipped away by a sizeless container (CodeMirror 5 keeps its textarea in a 3×0 box with overflow hidden).
  const parent = target.parentElement;
  if (!parent || getComputedStyle(parent).overflow === 'visible') return false;
  const box = parent.getBoundingClientRect();
  return box.width <= 3 || box.height <= 3;
}

/**
 * The box a hidden control is drawn by: its nearest ancestor of some size (a checkbox's wrapper, a code editor's
 * frame holding its input textarea), or null past 30% of the viewport, where it is layout, not the control. A
 * textarea's editor may be a page-wide pane (EasyMDE's CodeMirror, 1240x300): up to 80% for it.
 */
function controlBox(target: Element): Element | null {
  const share = target.localName === 'textarea' ? 0.8 : 0.3;
  for (let up = composedParent(target); up && up !== document.body && up !== document.documentElement; up = composedParent(up)) {
    const box = up.getBoundingClientRect();
    if (box.width * box.height < 400) continue;
    return box.width * box.height <= share * window.innerWidth * window.innerHeight ? up : null;
  }
  return null;
}

/** The visible control that stands for a hidden form control; null for a control drawn by itself. */
export function drawnBy(target: Element): Element | null {
  return drawnElsewhere(target) ? controlBox(target) : null;
}

/**
 * What a code editor drawn around a hidden textarea shows in its place, from one look at its box: `onPage` when its
 * lines are page text the snapshot lists itself (CodeMirror 5; the textarea holds only a typing buffer), else the
 * lines of its aria-hidden layer top to bottom (Monaco, whose textarea holds at most the lines around the caret);
 * null for a textarea nothing draws. Line numbers (a gutter of digits) are not lines.
 */
export function editorText(target: Element): { onPage: true } | { lines: string } | null {
  if (target.localName !== 'textarea') return null;
  const box = drawnBy(target);
  if (!box) return null;
  const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeValue?.trim() && !node.parentElement?.closest('[aria-hidden="true"]')) return { onPage: true };
  }
  let best: Element | null = null;
  let most = 0;
  for (const layer of box.querySelectorAll('[aria-hidden="true"]')) {
    let count = 0;
    for (const child of layer.children) if (/\D/.test(child.textContent?.trim() || '0')) count++;
    if (count > most) {
      best = layer;
      most = count;
    }
  }
  if (!best) return null;
  const lines = [...best.children].map((line) => ({ top: line.getBoundingClientRect().top, text: (line.textContent ?? '').replace(/\u00a0/g, ' ') }));
  lines.sort((a, b) => a.top - b.top);
  return { lines: lines.map((line) => line.text).join('\n').replace(/\s+$/, '') };
}

/**
 * Finds what a document draws in place of other elements, once per walk (page text, snapshot): the boxes standing
 * for hidden controls, and the pictures (canvas, img) that paint the words of a text layer laid over them.
 */
export class Drawings {
  private boxes: Element[] | null = null;
  private pictures: DOMRect[] | null = null;

  constructor(private readonly doc: Document = document) {}

  /**
   * Whether `element`, hidden from assistive technology, is part of what a hidden control's box draws (Monaco's
   * rendered lines stand for its input textarea): a person reads it there.
   */
  drawsControl(element: Element): boolean {
    this.boxes ??= [...this.doc.querySelectorAll('input, textarea')].map(drawnBy).filter((box): box is Element => box !== null);
    return this.boxes.some((box) => box.contains(element));
  }

  /** Whether invisible (transparent) text lies over a canvas or image that paints it (pdf.js's text layer). */
  paintedUnder(element: Element): boolean {
    this.pictures ??= [...this.doc.querySelectorAll('canvas, img')]
      .filter((picture) => picture.checkVisibility({ opacityProperty: true, visibilityProperty: true } as CheckVisibilityOptions))
      .map((picture) => picture.getBoundingClientRect())
      .filter((rect) => rect.width >= 8 && rect.height >= 8);
    const box = element.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) return false;
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    return this.pictures.some((rect) => x >= rect.left && x <= rect.right && y >= rect.top && y <= rect.bottom);
  }
}
