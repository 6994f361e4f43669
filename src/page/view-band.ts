// The viewport and a margin around it: what a 'visible' snapshot renders. Long child lists are cut to it by
// bisecting over their boxes (long lists and tables flow top to bottom); what lies out of it is counted.

/** Children lists longer than this are cut to the viewport by binary search over their boxes. */
export const BISECT_OVER = 40;

export class ViewBand {
  /** Elements left out above and below the band. */
  above = 0;
  below = 0;
  private readonly top: number;
  private readonly bottom: number;

  constructor() {
    const margin = Math.max(100, Math.round(window.innerHeight / 4));
    this.top = -margin;
    this.bottom = window.innerHeight + margin;
  }

  /** Where the element lies against the band; 'out' is counted above/below. */
  place(element: Element): 'inside' | 'partial' | 'out' {
    const rect = element.getBoundingClientRect();
    if (rect.width === 0 && rect.height === 0) return 'partial';
    if (rect.bottom < this.top) {
      this.above++;
      return 'out';
    }
    if (rect.top > this.bottom) {
      this.below++;
      return 'out';
    }
    return rect.top >= this.top && rect.bottom <= this.bottom ? 'inside' : 'partial';
  }

  /** The part of a long child list in the band; what lies before and after it is counted. */
  within(children: ArrayLike<Node>): Node[] {
    const all = Array.from(children);
    const elements = all.filter((node) => node.nodeType === Node.ELEMENT_NODE) as Element[];
    const span = this.span(elements);
    if (!span) return all;
    if (span.first === 0 && span.end === elements.length) return all;
    const from = span.first < elements.length ? all.indexOf(elements[span.first]!) : all.length;
    const to = span.end > 0 ? all.indexOf(elements[span.end - 1]!) + 1 : 0;
    return all.slice(from, Math.max(from, to));
  }

  /**
   * within() for a plain child list: bisects over the parent's element collection, reading only the boxes it needs
   * and then the nodes between the first and last element in view. Copying a 2,000-row table's child list into
   * the sandbox first cost a wrapper crossing per node (about 10 ms).
   */
  withinChildrenOf(container: ParentNode): ArrayLike<Node> {
    const elements = container.children;
    const span = this.span(elements);
    if (!span || (span.first === 0 && span.end === elements.length)) return container.childNodes;
    const nodes: Node[] = [];
    if (span.end <= span.first) return nodes;
    const last = elements[span.end - 1]!;
    for (let node: Node | null = elements[span.first]!; node; node = node.nextSibling) {
      nodes.push(node);
      if (node === last) break;
    }
    return nodes;
  }

  /**
   * The elements [first, end) in the band, found by bisection, with those before and after counted; null when the
   * boxes are out of order (positioned children), which makes bisecting meaningless: keep everything then.
   */
  private span(elements: ArrayLike<Element>): { first: number; end: number } | null {
    const n = elements.length;
    const boxes = new Map<number, DOMRect>();
    const box = (i: number): DOMRect => {
      let rect = boxes.get(i);
      if (!rect) boxes.set(i, (rect = elements[i]!.getBoundingClientRect()));
      return rect;
    };
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (box(mid).bottom < this.top) lo = mid + 1;
      else hi = mid;
    }
    const first = lo;
    hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (box(mid).top <= this.bottom) lo = mid + 1;
      else hi = mid;
    }
    const end = lo;
    if (first > 0 && box(first - 1).top > box(0).top && box(0).top > this.bottom) return null;
    this.above += first;
    this.below += n - end;
    return { first, end };
  }
}
