// read_page on the server side: runs the page's snapshot in the top frame and in every child frame it shows,
// stitches each frame's lines under its iframe line, and turns page-local ids into global refs.
import { mapFrames } from '../tab/frames.js';
import type { PageSnapshot, SnapshotHint } from '../../contract/index.js';
import { resolveRef } from '../tab/resolve.js';
import type { Tab } from '../tab/tab.js';

export type SnapshotFilter = 'visible' | 'interactive' | 'all';

export interface SnapshotOptions {
  /** 'visible' (default): what is in or near the viewport; 'interactive': controls and their landmarks; 'all'. */
  filter?: SnapshotFilter;
  depth?: number;
  /** Read this element's subtree (and, for a row or list item, the items after it). */
  refId?: string;
  maxChars?: number;
}

export interface TabSnapshot {
  url: string;
  title: string;
  snapshot: string;
  truncated: boolean;
  /** Lines the budget left out. */
  omitted: number;
  /** Lines outside the viewport (visible-only filters). */
  above: number;
  below: number;
  /** What to ask for next when truncated: refs of cut subtrees. */
  hint?: string;
}

export const DEFAULT_MAX_CHARS = 4_000;

/** Said once under a tree with shortened lines. */
export const CUT_NOTE = '- ([cut]: shortened; read_page with that line\'s ref_id gives its whole text)';

interface Collected {
  lines: string[];
  omitted: number;
  above: number;
  below: number;
  deeper: number;
  truncated: boolean;
  hints: { ref: string; hint: SnapshotHint }[];
  cut: number;
}

/** `[ref=#12]` placeholders in one frame's lines, made into global refs. */
export function globalizeRefs(tab: Tab, context: string, docId: string, text: string): string {
  const refs = tab.refs;
  return text.replace(/\[ref=#(\d+)\]/g, (_match, id: string) => `[ref=${refs.refFor(tab.id, context, docId, Number(id))}]`);
}

/** Snapshot of a tab (or of one ref's subtree) within `maxChars`, frames included. */
export async function snapshotTab(tab: Tab, options: SnapshotOptions = {}): Promise<TabSnapshot> {
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  const filter = options.filter ?? 'visible';
  let context = tab.context;
  let root: { docId: string; id: number } | undefined;
  if (options.refId) {
    const resolved = await resolveRef(tab, options.refId);
    context = resolved.target.frameContext;
    root = { docId: resolved.target.docId, id: resolved.target.localId };
  }
  // Room for the closing "outside the viewport" line.
  const reserve = Math.min(120, Math.floor(maxChars / 5));
  const collected: Collected = { lines: [], omitted: 0, above: 0, below: 0, deeper: 0, truncated: false, hints: [], cut: 0 };
  const top = await collect(tab, context, { mode: filter === 'all' ? 'all' : filter, depth: options.depth, maxChars: maxChars - reserve, root }, 0, collected);
  const tail: string[] = [];
  if (collected.above || collected.below) {
    tail.push(
      `- (outside the viewport: ${collected.above} elements above, ${collected.below} below; scroll, or read_page with filter "all")`,
    );
  }
  if (collected.deeper) tail.push(`- (${collected.deeper} elements deeper than depth ${options.depth})`);
  if (collected.cut) tail.push(CUT_NOTE);
  const { text, cut } = capLines(collected.lines, tail, maxChars);
  const omitted = collected.omitted + cut;
  const truncated = collected.truncated || cut > 0;
  return {
    url: top.url,
    title: top.title,
    snapshot: text,
    truncated,
    omitted,
    above: collected.above,
    below: collected.below,
    ...(truncated ? { hint: hintText(omitted, maxChars, collected.hints) } : {}),
  };
}

async function collect(
  tab: Tab,
  context: string,
  args: { mode: 'visible' | 'interactive' | 'all'; depth?: number; maxChars: number; root?: { docId: string; id: number } },
  indent: number,
  into: Collected,
): Promise<PageSnapshot> {
  const page = await tab.callPage('snapshot', args, { context });
  const pad = '  '.repeat(indent);
  const lines = page.lines.map((line) => pad + globalizeRefs(tab, context, page.docId, line));
  into.omitted += page.omitted;
  into.above += page.above;
  into.below += page.below;
  into.deeper += page.deeper;
  into.cut += page.cut ?? 0;
  into.truncated ||= page.truncated;
  for (const hint of page.hints) into.hints.push({ ref: tab.refs.refFor(tab.id, context, page.docId, hint.id), hint });
  if (page.frames.length === 0) {
    into.lines.push(...lines);
    return page;
  }
  const children = await mapFrames(tab, context, page.docId, page.frames.map((frame) => frame.id)).catch(() => new Map<number, string>());
  let used = lines.reduce((sum, line) => sum + line.length + 1, 0);
  let from = 0;
  for (const frame of page.frames) {
    into.lines.push(...lines.slice(from, frame.line + 1));
    from = frame.line + 1;
    const child = children.get(frame.id);
    const room = args.maxChars - used;
    if (!child || room < 40) continue;
    const before = into.lines.length;
    try {
      const depth = args.depth === undefined ? undefined : Math.max(0, args.depth - frame.depth);
      const inner = await collect(tab, child, { mode: args.mode, depth, maxChars: room }, indent + frame.depth, into);
      // Say whose content this is: its links are absolute, but a reader should know the frame is another site.
      const origin = originOf(inner.url);
      if (origin && origin !== originOf(page.url) && before > 0) into.lines[before - 1] += ` [origin=${origin}]`;
    } catch (error) {
      if (tab.isFatal(error, child)) throw error;
      into.lines.push(`${pad}${'  '.repeat(frame.depth)}- (frame not readable: ${(error as Error).message.slice(0, 80)})`);
    }
    for (let i = before; i < into.lines.length; i++) used += into.lines[i]!.length + 1;
  }
  into.lines.push(...lines.slice(from));
  return page;
}

function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** Joins lines, cutting whole lines so the text (tail included) stays within `maxChars`. */
function capLines(lines: string[], tail: string[], maxChars: number): { text: string; cut: number } {
  const tailChars = tail.reduce((sum, line) => sum + line.length + 1, 0);
  const kept: string[] = [];
  let chars = 0;
  let cut = 0;
  for (const line of lines) {
    if (cut || chars + line.length + 1 + tailChars > maxChars) {
      cut++;
      continue;
    }
    kept.push(line);
    chars += line.length + 1;
  }
  for (const line of tail) if (chars + line.length + 1 <= maxChars + 1) {
    kept.push(line);
    chars += line.length + 1;
  }
  return { text: kept.join('\n'), cut };
}

function hintText(omitted: number, maxChars: number, hints: { ref: string; hint: SnapshotHint }[]): string {
  let text = `${omitted} more elements, with what is inside them, did not fit in max_chars ${maxChars}.`;
  const next = hints.find((entry) => entry.hint.continues);
  if (next) {
    text += ` Continue from ${next.hint.role}${next.hint.name ? ` "${next.hint.name}"` : ''} with read_page ref_id "${next.ref}" (reads it and the ${next.hint.role}s after it).`;
  }
  const others = hints.filter((entry) => entry !== next).slice(0, 5);
  if (others.length) {
    text += ` Subtrees not shown: ${others.map((entry) => `${entry.ref} (${entry.hint.role}${entry.hint.name ? ` "${entry.hint.name}"` : ''})`).join(', ')}.`;
  }
  if (!next && !others.length) text += ' Ask for a subtree with ref_id, use filter "interactive", or raise max_chars.';
  return text;
}
