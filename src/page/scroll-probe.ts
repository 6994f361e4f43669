// Measures how far a wheel action moved things: every scrollable box under the point, before and after.
import type { ScrollReport } from '../contract/index.js';
import { describe } from './describe.js';
import { deepElementFromPoint } from './guard.js';

interface Probe {
  boxes: Array<{ element: Element; left: number; top: number }>;
}

const probes = new Map<string, Probe>();

function scrollChain(start: Element | null): Element[] {
  const chain: Element[] = [];
  for (let node: Element | null = start; node; node = node.parentElement ?? ((node.parentNode as ShadowRoot | null)?.host ?? null)) {
    if (node.scrollHeight > node.clientHeight || node.scrollWidth > node.clientWidth) chain.push(node);
  }
  const root = document.scrollingElement;
  if (root && !chain.includes(root)) chain.push(root);
  return chain;
}

export function armScrollProbe(args: { token: string; x: number; y: number }): { boxes: number } {
  const boxes = scrollChain(deepElementFromPoint(args.x, args.y)).map((element) => ({ element, left: element.scrollLeft, top: element.scrollTop }));
  probes.set(args.token, { boxes });
  return { boxes: boxes.length };
}

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

/** A partial distance is final only after this long without movement: under load a later notch lands ~100 ms on. */
const PARTIAL_STILL_MS = 120;

/**
 * After the wheel: Firefox applies wheel scrolling at its next refresh ticks, not during the input. Waits a frame
 * at a time until all of `expected` (px) has landed, or until the positions stop changing: two still frames and
 * PARTIAL_STILL_MS after a movement, four still frames when nothing moved at all (max 30 frames).
 */
export async function readScrollProbe(args: { token: string; expected: number }): Promise<ScrollReport> {
  const probe = probes.get(args.token);
  probes.delete(args.token);
  if (!probe) return { found: false, dx: 0, dy: 0 };
  const total = () => probe.boxes.reduce((sum, b) => sum + Math.abs(b.element.scrollLeft - b.left) + Math.abs(b.element.scrollTop - b.top), 0);
  const positions = () => probe.boxes.map((b) => `${b.element.scrollLeft},${b.element.scrollTop}`).join(';');
  let last = positions();
  let still = 0;
  let movedAt = performance.now();
  for (let i = 0; i < 30; i++) {
    const moved = total();
    if (moved >= args.expected - 0.5) break;
    if (moved > 0 ? still >= 2 && performance.now() - movedAt >= PARTIAL_STILL_MS : still >= 4) break;
    await frame();
    const now = positions();
    if (now === last) {
      still++;
    } else {
      still = 0;
      movedAt = performance.now();
    }
    last = now;
  }
  let best: ScrollReport = { found: true, dx: 0, dy: 0 };
  for (const box of probe.boxes) {
    const dx = Math.round(box.element.scrollLeft - box.left);
    const dy = Math.round(box.element.scrollTop - box.top);
    if (Math.abs(dx) + Math.abs(dy) > Math.abs(best.dx) + Math.abs(best.dy)) {
      const page = box.element === document.scrollingElement;
      best = { found: true, dx, dy, box: page ? 'the page' : describe(box.element), page };
    }
  }
  return best;
}
