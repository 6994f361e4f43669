// Per-page figures of one running server: navigate, default snapshot, click by ref, type, screenshot.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { findRef } from './refs.mjs';
import { TYPED_TEXT, pageUrl, selectedPages } from './pages.mjs';
import { textOf } from './mcp.mjs';
import { percentile, round, summarize } from './stats.mjs';

// A figure whose calls are very slow (a peer snapshotting 2,000 rows after every action) stops after this much
// time once it has MIN_CALLS samples, so the whole bench fits in a few minutes; `n` in the results says how many.
const BUDGET_MS = Number(process.env.BENCH_FIGURE_BUDGET_MS ?? 8_000);
const MIN_CALLS = 3;
/**
 * Idle time before each page's typing figure, for every server. The page's 20 navigations (and the previous
 * page's) leave the browser dead documents to collect: 20 loads of the 2,000-row table cost Firefox's cycle
 * collector ~350 ms in the content process, raw BiDi with no script of ours too, run in slices ~6 s later, i.e.
 * during the next figures. The paired floor's Firefox loads each page once and carries none of it, so typing's
 * ratio measured the collection of pages long gone (shadow 1.18-1.28 right after the docs page, 1.08-1.15 after a
 * quiet 15 s). Gecko starts a cycle collection ~6 s after the last one; 12 s lets it finish.
 */
const QUIET_BEFORE_TYPING_MS = Number(process.env.BENCH_QUIET_BEFORE_TYPING_MS ?? 12_000);

/**
 * Runs one operation `calls` times; p50/p95 of ms plus the reply size of the last call. `partner`, when given, runs
 * after each call and its ms are summarized as `partner` (the paired typing floor), with the median of the call's
 * time over its partner's, pair by pair (`ratio_p50`): a machine that slows down for a few seconds slows both
 * sides of the pairs it spans, where the two medians can come from different seconds.
 */
async function repeat(server, calls, op, partner) {
  const samples = [];
  const partnerSamples = [];
  let last = null;
  let first = null;
  const started = performance.now();
  for (let i = 0; i < calls; i++) {
    if (i >= MIN_CALLS && performance.now() - started > BUDGET_MS) break;
    const [tool, args] = op();
    if (!server.has(tool)) return { skipped: `no ${tool} tool` };
    last = await server.call(tool, args);
    first ??= last;
    if (last.error && /not available in this build/.test(last.error)) return { skipped: last.error.slice(0, 200) };
    if (last.error) return { error: last.error.slice(0, 300), after_calls: i };
    samples.push(last.ms);
    if (partner) partnerSamples.push(await partner());
  }
  const ratios = partnerSamples.map((raw, i) => samples[i] / raw);
  const paired = partner && ratios.length ? { partner: { ...summarize(partnerSamples), ratio_p50: round(percentile(ratios, 50), 2), ratios: ratios.map((r) => round(r, 2)) } } : {};
  return { ...summarize(samples), ...paired, ...(samples.length < calls ? { cut_short: `time budget ${BUDGET_MS} ms` } : {}), chars: last.chars, image_bytes: last.imageBytes || undefined, last, first };
}

const strip = ({ last, first, ...figures }) => figures;

/** How long after navigate the page is read again, to see whether navigate's snapshot was the settled page. */
const SETTLED_CHECK_MS = 2_000;

/**
 * The page snapshot in a reply, refs blanked: firefox-use's structured field, the peer's YAML block, or the YAML
 * file the reply links (Playwright MCP writes navigate's snapshot to its output dir, relative to the server's cwd).
 */
function snapshotIn(call, cwd) {
  const structured = call?.result?.structuredContent?.snapshot;
  const reply = textOf(call?.result ?? {});
  const linked = /\[Snapshot\]\(([^)]+\.ya?ml)\)/.exec(reply)?.[1];
  const fromFile = () => {
    try {
      return linked && cwd ? readFileSync(resolve(cwd, linked), 'utf8') : null;
    } catch {
      return null;
    }
  };
  const text = typeof structured === 'string' ? structured : (/```yaml\n([\s\S]*?)```/.exec(reply)?.[1] ?? fromFile());
  if (!text) return null;
  return text.replace(/\[?ref[=_:]?[\w-]+\]?/g, 'REF').replace(/\be\d+\b/g, 'REF').trim();
}

/**
 * Whether navigate's snapshot equals one taken 2 s later (`settled_snapshot`): a quick navigate that answered with
 * a page still being rendered would be a wrong answer, not a fast one. Null when the navigate reply has no snapshot.
 */
function settledSnapshot(navigated, later, cwd) {
  const early = snapshotIn(navigated, cwd);
  const settled = snapshotIn(later, cwd);
  if (early === null || settled === null) return null;
  return early === settled;
}

/** An element's ref, from the snapshot text or else the server's find tool. */
async function refFor(adapter, server, handle, snapshotText, target) {
  const fromSnapshot = snapshotText ? findRef(adapter.format, snapshotText, target) : null;
  if (fromSnapshot) return { ref: fromSnapshot, source: 'snapshot' };
  if (adapter.id === 'firefox-use' && server.has('find')) {
    const found = await server.call('find', { tabId: handle.tabId, query: [target.role].flat()[0] + ' ' + target.name });
    const ref = found.error ? null : findRef(adapter.format, textOf(found.result), target) ?? /ref_\d+/.exec(textOf(found.result))?.[0];
    if (ref) return { ref, source: 'find' };
  }
  return { ref: null };
}

/**
 * `pairedTypist` (firefox-use only): a raw-BiDi Firefox whose typing of the same text into the same page's field
 * follows each type call; its figure is the page's `type_floor`.
 */
export async function measurePages(adapter, server, handle, fixtures, { calls, log, pairedTypist, pages: only }) {
  const pages = {};
  for (const page of selectedPages(only)) {
    log(`${adapter.id}: ${page.id}`);
    const url = pageUrl(page, fixtures);
    if (!url) {
      pages[page.id] = { skipped: 'real apps not installed (scripts/install-test-apps.sh, npm ci)' };
      continue;
    }
    const figures = {};
    const nav = await repeat(server, calls, () => adapter.ops.navigate(handle, url));
    figures.navigate = strip(nav);
    if (page.app) await new Promise((resolve) => setTimeout(resolve, SETTLED_CHECK_MS));
    const snap = await repeat(server, calls, () => adapter.ops.snapshot(handle));
    figures.snapshot = strip(snap);
    if (page.app && !nav.error && !snap.error) {
      const settled = settledSnapshot(nav.last, snap.first, server.spec?.cwd);
      if (settled !== null) figures.navigate.settled_snapshot = settled;
    }
    const snapshotText = snap.last ? textOf(snap.last.result) : nav.last ? textOf(nav.last.result) : '';
    for (const [key, target, op] of [
      ['click', page.click, (ref) => adapter.ops.click(handle, ref, `${page.click.name} button`)],
      ['type', page.type, (ref) => adapter.ops.type(handle, ref, TYPED_TEXT, `${page.type.name} field`)],
      ['fill', adapter.ops.fill && page.type, (ref) => adapter.ops.fill(handle, ref, TYPED_TEXT, `${page.type.name} field`)],
    ]) {
      if (!target) continue;
      const { ref, source } = await refFor(adapter, server, handle, snapshotText, target);
      if (!ref) {
        figures[key] = { skipped: `no ref for ${[target.role].flat()[0]} "${String(target.name)}" in the snapshot${snap.skipped ? ` (${snap.skipped})` : ''}` };
        continue;
      }
      if (key === 'type' && QUIET_BEFORE_TYPING_MS > 0) await new Promise((resolve) => setTimeout(resolve, QUIET_BEFORE_TYPING_MS));
      const paired = key === 'type' && pairedTypist && page.id !== 'iframe' && (await pairedTypist.ready(url, page.type.name));
      const { partner, ...run } = await repeat(server, calls, () => op(ref), paired ? () => pairedTypist.typeOnce() : undefined);
      figures[key] = { ...strip(run), ref_source: source };
      if (partner) figures.type_floor = { ...partner, paired: 'raw BiDi typing of the same keys after each call, in a second Firefox' };
    }
    figures.screenshot = strip(await repeat(server, calls, () => adapter.ops.screenshot(handle)));
    pages[page.id] = figures;
  }
  return pages;
}
