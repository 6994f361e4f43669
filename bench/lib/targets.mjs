// The targets, judged on one run's ratios. A figure that could not be measured makes its target
// "skipped", never "met".
import { PAGES } from './pages.mjs';
import { FLOWS } from './flows.mjs';

const ratio = (a, b) => (typeof a === 'number' && typeof b === 'number' && b > 0 ? Math.round((a / b) * 100) / 100 : null);

function judge(checks) {
  if (!checks.length || checks.some((c) => c.ok === null)) return { status: 'skipped', checks };
  return { status: checks.every((c) => c.ok) ? 'met' : 'missed', checks };
}

export function evaluateTargets(results) {
  const fu = results.servers['firefox-use']?.pages;
  const pw = results.servers.playwright?.pages;
  const floor = results.floor?.pages;
  const p50 = (pages, page, op) => pages?.[page]?.[op]?.p50 ?? null;
  const out = {};

  out.click_vs_playwright = judge(
    PAGES.map(({ id }) => {
      const r = ratio(p50(pw, id, 'click'), p50(fu, id, 'click'));
      return { page: id, playwright_over_firefox_use: r, need: '>= 10', ok: r === null ? null : r >= 10 };
    }),
  );
  out.click_vs_raw_bidi = judge(
    PAGES.map(({ id }) => {
      const r = ratio(p50(fu, id, 'click'), p50(floor, id, 'click'));
      return { page: id, firefox_use_over_raw: r, need: '<= 4', ok: r === null ? null : r <= 4 };
    }),
  );
  out.snapshot_size = judge(
    PAGES.map(({ id }) => {
      const chars = fu?.[id]?.snapshot?.chars ?? null;
      return { page: id, chars, need: '<= 4000', ok: chars === null ? null : chars <= 4000 };
    }),
  );
  out.snapshot_speed_vs_playwright = judge(
    PAGES.map(({ id }) => {
      const r = ratio(p50(fu, id, 'snapshot'), p50(pw, id, 'snapshot'));
      return { page: id, firefox_use_over_playwright: r, need: '<= 1', ok: r === null ? null : r <= 1 };
    }),
  );
  out.screenshot_vs_raw_bidi = judge(
    PAGES.map(({ id }) => {
      const r = ratio(p50(fu, id, 'screenshot'), p50(floor, id, 'screenshot'));
      return { page: id, firefox_use_over_raw: r, need: '<= 1.3', ok: r === null ? null : r <= 1.3 };
    }),
  );
  // Typing key by key as trusted events, with delivery checked: within 30% of Firefox's own dispatch of the same keys,
  // measured call for call beside ours (type_floor: the median of the pairs' ratios) when it could be, else the
  // unpaired floor of the same run.
  out.type_vs_raw_bidi = judge(
    PAGES.filter((page) => page.type && page.id !== 'iframe').map(({ id }) => {
      const paired = fu?.[id]?.type_floor?.ratio_p50 ?? null;
      const r = paired ?? ratio(p50(fu, id, 'type'), p50(floor, id, 'type'));
      return { page: id, firefox_use_over_raw: r, floor: paired === null ? 'unpaired' : 'paired, median of per-call ratios', need: '<= 1.3', ok: r === null ? null : r <= 1.3 };
    }),
  );
  // Setting a value (form_input) against Playwright MCP's browser_type, which sets it too.
  out.form_input_vs_playwright_type = judge(
    PAGES.filter((page) => page.type).map(({ id }) => {
      const r = ratio(p50(fu, id, 'fill'), p50(pw, id, 'type'));
      return { page: id, firefox_use_over_playwright: r, need: '<= 1', ok: r === null ? null : r <= 1 };
    }),
  );
  out.task_context_vs_playwright = judge(
    FLOWS.map(({ id }) => {
      const mine = results.servers['firefox-use']?.tasks?.[id];
      const theirs = results.servers.playwright?.tasks?.[id];
      if (!mine?.ok || !theirs?.ok) return { task: id, ok: null, note: !mine?.ok ? `firefox-use: ${mine?.failed ?? mine?.skipped ?? 'not run'}` : `playwright: ${theirs?.failed ?? theirs?.skipped ?? 'not run'}` };
      const r = ratio(mine.chars, theirs.chars);
      return { task: id, chars_ratio: r, calls: [mine.calls, theirs.calls], need: '<= 0.33 and no more calls', ok: r <= 1 / 3 && mine.calls <= theirs.calls };
    }),
  );
  return out;
}
