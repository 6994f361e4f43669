// Where a `computer type` spends its time against Firefox's own typing, per page: `pre` (the client's call to the
// first keydown in the page), `span` (first keydown to last keyup) and `post` (last keyup to the reply in the
// client), for our server and for the paired raw-BiDi floor. Both Firefoxes run with precise timers
// (privacy.reduceTimerPrecision=false) and a keydown/keyup listener in the page's own realm, so the figures are
// comparable with each other, not with `npm run bench`'s (which has neither).
//
//   node bench/typing-breakdown.mjs [--pages=login,table,docs,shadow] [--calls=20] [--loads=20] [--quiet-ms=12000]
//
// Each page gets the bench's sequence (loads, snapshots, clicks, a quiet pause, then the paired types), in order,
// in one server: a page's figures carry what the pages before it left behind, as in the bench.
import { loadavg } from 'node:os';
import { startFixtures } from './lib/fixture-server.mjs';
import { McpServer, textOf } from './lib/mcp.mjs';
import { PAGES, TYPED_TEXT, pageUrl } from './lib/pages.mjs';
import { findRef } from './lib/refs.mjs';
import { firefoxUse } from './lib/servers.mjs';
import { percentile } from './lib/stats.mjs';
import { PairedTypist } from './lib/typing-floor.mjs';

const flags = Object.fromEntries(process.argv.slice(2).map((arg) => arg.replace(/^--/, '').split('=')));
for (const name of Object.keys(flags)) if (!['pages', 'calls', 'loads', 'quiet-ms'].includes(name)) usage(`unknown flag --${name}`);
const pageIds = (flags.pages ?? 'login,table,docs,shadow').split(',');
const calls = count('calls', 20, 2);
const loads = count('loads', 20, 1);
const quietMs = count('quiet-ms', 12_000, 0);
for (const id of pageIds) if (!PAGES.some((page) => page.id === id)) usage(`no bench page "${id}" (${PAGES.map((page) => page.id).join(', ')})`);

function usage(problem) {
  console.error(`typing-breakdown: ${problem}\nusage: node bench/typing-breakdown.mjs [--pages=login,table,docs,shadow] [--calls=20] [--loads=20] [--quiet-ms=12000]`);
  process.exit(2);
}

function count(name, fallback, least) {
  const value = Number(flags[name] ?? fallback);
  if (!Number.isInteger(value) || value < least) usage(`--${name} takes a whole number of at least ${least}`);
  return value;
}
const PRECISE = { 'privacy.reduceTimerPrecision': false };

// A listener in the page's own realm (registered after our key gate, so it runs after it): when each key event
// reached the page, on the page's clock.
const RECORD = `(() => { const log = (window.__typingLog = []); for (const type of ['keydown', 'keyup']) window.addEventListener(type, (e) => e.isTrusted && log.push(performance.now()), true); return true; })()`;
const READ = `JSON.stringify({ origin: performance.timeOrigin, times: (window.__typingLog || []).map((t) => Math.round(t * 1000) / 1000) })`;

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const epoch = () => performance.timeOrigin + performance.now();
const p50 = (values) => (values.length ? percentile(values, 50).toFixed(2) : '-');

/** pre / span / post of each call (the first, which clicks into the field, left out) from its key times. */
function phases(log, marks) {
  const times = log.times.map((t) => t + log.origin);
  const perCall = 40; // 20 characters: a keydown and a keyup each
  const rows = { pre: [], span: [], post: [] };
  for (let i = 1; i < marks.length && (i + 1) * perCall <= times.length; i++) {
    const keys = times.slice(i * perCall, (i + 1) * perCall);
    const [start, ms] = marks[i];
    rows.pre.push(keys[0] - start);
    rows.span.push(keys[keys.length - 1] - keys[0]);
    rows.post.push(start + ms - keys[keys.length - 1]);
  }
  return rows;
}

const fixtures = await startFixtures();
if (pageIds.some((id) => PAGES.find((page) => page.id === id)?.app)) {
  const { startRealAppServer } = await import('../test/helpers/real-apps.mjs');
  fixtures.apps = await startRealAppServer();
}
const spec = firefoxUse.spec();
spec.args.push('--allow-javascript', '--pref', 'privacy.reduceTimerPrecision=false');
const server = new McpServer('firefox-use', spec);
let typist = null;
try {
  await server.start();
  const handle = await firefoxUse.open(server);
  typist = await PairedTypist.start({ prefs: PRECISE });
  console.log('page       ours pre / span / post    floor pre / span / post    ratio p50   load');
  for (const id of pageIds) {
    const page = PAGES.find((p) => p.id === id);
    const url = page && pageUrl(page, fixtures);
    if (!url || !page.type) {
      console.log(`${id}: skipped (${!page ? 'no such page' : !url ? 'apps not installed' : 'not typed into'})`);
      continue;
    }
    const { ops } = firefoxUse;
    let snapshot = '';
    for (let i = 0; i < loads; i++) await server.call(...ops.navigate(handle, url));
    for (let i = 0; i < loads; i++) snapshot = textOf((await server.call(...ops.snapshot(handle))).result);
    const clickRef = findRef('firefox-use', snapshot, page.click);
    for (let i = 0; clickRef && i < loads; i++) await server.call(...ops.click(handle, clickRef));
    const typeRef = findRef('firefox-use', snapshot, page.type);
    if (!typeRef || !(await typist.ready(url, page.type.name))) {
      console.log(`${id}: skipped (field not found)`);
      continue;
    }
    await wait(quietMs);
    await server.call('javascript_tool', { tabId: handle.tabId, text: RECORD });
    await typist.evaluate(RECORD);
    const ours = [];
    const floor = [];
    const ratios = [];
    for (let i = 0; i < calls; i++) {
      const start = epoch();
      const typed = await server.call(...ops.type(handle, typeRef, TYPED_TEXT));
      if (typed.error) throw new Error(`${id}: ${typed.error}`);
      ours.push([start, typed.ms]);
      const floorStart = epoch();
      const floorMs = await typist.typeOnce();
      floor.push([floorStart, floorMs]);
      ratios.push(typed.ms / floorMs);
    }
    const read = await server.call('javascript_tool', { tabId: handle.tabId, text: READ });
    // javascript_tool's `result` is the value serialized as JSON: here a string holding our JSON.
    const ourLog = JSON.parse(JSON.parse(read.result.structuredContent.result));
    const a = phases(ourLog, ours);
    const b = phases(JSON.parse(await typist.evaluate(READ)), floor);
    const cell = (rows) => `${p50(rows.pre)} / ${p50(rows.span)} / ${p50(rows.post)}`.padEnd(27);
    console.log(`${id.padEnd(10)} ${cell(a)}${cell(b)}${p50(ratios).padEnd(12)}${loadavg()[0].toFixed(2)}`);
  }
} finally {
  await typist?.close();
  await server.close();
  await fixtures.close?.();
  await fixtures.apps?.close?.();
}
