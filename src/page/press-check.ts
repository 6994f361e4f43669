// Between the pointer's arrival and the press of a click aimed by ref: a page can answer the hover by swapping
// what lies under the pointer ("Cancel" becomes "Delete account"). The press goes out only if the ref's element
// is still the one under the pointer and still what it was when the action aimed at it.
import type { PressCheck, PressCheckArgs } from '../contract/index.js';
import { describe, summarize } from './describe.js';
import { deepElementFromPoint } from './guard.js';
import { hitsTarget } from './hit.js';
import { elementFor } from './registry.js';

export async function pressCheck(args: PressCheckArgs): Promise<PressCheck> {
  // Hover handlers that defer their change by a task or a microtask have run by then.
  await new Promise((resolve) => setTimeout(resolve, 0));
  let element: Element | null = null;
  try {
    element = elementFor(args.ref.docId, args.ref.localId);
  } catch {
    // Removed from the page (or another document came): said below with what is there now.
  }
  let hit = deepElementFromPoint(args.point.x, args.point.y);
  // A tooltip over the point goes once the pointer has left what it was shown for: give it that long.
  if (element && args.waitMs) {
    const until = performance.now() + args.waitMs;
    while ((!hit || !hitsTarget(hit, element)) && performance.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 16));
      hit = deepElementFromPoint(args.point.x, args.point.y);
    }
  }
  const there = hit ? describe(hit) : 'nothing';
  if (!element) return { ok: false, changed: `the page removed it and put ${there} in its place` };
  if (!hit || !hitsTarget(hit, element)) return { ok: false, changed: `the page put ${there} over it` };
  const now = summarize(element);
  // A name that appears only on hover (a tooltip naming an icon button) is not a change of target.
  if (now.role !== args.was.role || (args.was.name && now.name !== args.was.name)) {
    return { ok: false, changed: `it changed from ${label(args.was)} to ${label(now)}` };
  }
  return { ok: true };
}

function label(summary: { role: string; name: string }): string {
  return `${summary.role}${summary.name ? ` "${summary.name}"` : ''}`;
}
