#!/usr/bin/env node
// Soak: many tool calls across several tabs and MCP sessions under `firefox-use serve`, on fixture pages that
// re-render constantly (test/fixtures/soak/). Reports calls per second, latency percentiles per tool, errors by
// code, server and Firefox memory every --sample-every calls, and whether the run passed:
//   no unexpected error code, every call answered, growth of the server's live memory under --max-growth % between
//   call --baseline and the end, and no Firefox left once the server has stopped.
// Live memory is the server's JS heap plus its external memory (Buffers) right after a full garbage collection:
// test/helpers/heap-probe.mjs, preloaded into the server, collects and reports them at each sample. The server's
// RSS is reported too but not judged: over a minute it mostly says how far V8 is behind in collecting garbage
// (one CI run saw it grow 28% while a 5-minute run's heap snapshots showed a flat heap), not what the server keeps.
// What the server keeps and may grow by design is bounded: each tab's console and network logs (Rings of 1,000
// entries, full within the first minute) and the ref registry, which on these re-rendering pages gains ~1.5 refs a
// call at ~300 bytes each up to MAX_REFS (src/browser/tab/refs.ts; 304 bytes a ref in heap snapshots of a 5-minute run).
// Refs are numbered in the order issued, so the newest ref seen in a reply counts them: the registry's share of the
// growth (REF_BYTES a ref) is taken out before the growth is judged. What is left is a leak (the code the JIT
// compiles adds ~2% in the first thousand calls).
// Usage: node scripts/soak.mjs [--calls N] [--seconds S] [--sessions N] [--tabs N] [--sample-every N]
//                              [--baseline N] [--max-growth PCT] [--json FILE] [--heap-snapshots DIR] [--quiet]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startFixtureServer } from '../test/helpers/fixtures.mjs';
import { startServe } from '../test/helpers/http-server.mjs';
import { firefoxPids, waitFor } from '../test/helpers/processes.mjs';
import { MAX_REFS } from '../dist/browser/tab/refs.js';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '0' },
    sessions: { type: 'string', default: '3' },
    tabs: { type: 'string', default: '5' },
    'sample-every': { type: 'string', default: '1000' },
    baseline: { type: 'string', default: '1000' },
    'max-growth': { type: 'string', default: '10' },
    json: { type: 'string' },
    'heap-snapshots': { type: 'string' },
    quiet: { type: 'boolean', default: false },
  },
});
const totalCalls = Number(values.calls);
const maxSeconds = Number(values.seconds);
const sessionCount = Number(values.sessions);
const tabCount = Number(values.tabs);
const sampleEvery = Number(values['sample-every']);
const baselineCall = Number(values.baseline);
const maxGrowth = Number(values['max-growth']);
const ACTION_MS = 5_000;
const NAVIGATION_MS = 15_000;
// A call unanswered this long after it was sent counts as lost (the server's own limits are far below it).
const ANSWER_MS = NAVIGATION_MS + 30_000;
/** What one ref costs the server's heap (RefTarget, its two Map entries and their strings), measured in heap snapshots. */
const REF_BYTES = 300;
// Codes a well-behaved run may see on pages that re-render under the agent's feet: each is the server refusing
// to act on something that moved or went away, which is the truth.
const EXPECTED_CODES = new Set(['ref_stale', 'ref_hidden', 'target_occluded', 'focus_moved', 'out_of_viewport']);
const PAGES = ['/soak/list.html', '/soak/rerender.html', '/soak/moving.html'];
const log = (line) => values.quiet || process.stderr.write(`${line}\n`);

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] * 10) / 10;
}

function rssMb(pid) {
  try {
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024);
  } catch {
    return null;
  }
}

/** Proportional set size: shared pages split between the processes that map them, so a sum is meaningful. */
function pssMb(pid) {
  try {
    return Math.round(Number(/Pss:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))[1]) / 1024);
  } catch {
    return null;
  }
}

const sum = (list) => list.filter((v) => v !== null).reduce((a, b) => a + b, 0);

const fixtures = await startFixtureServer();
const PROBE = fileURLToPath(new URL('../test/helpers/heap-probe.mjs', import.meta.url));
const serverEnv = { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --expose-gc --import="${PROBE}"`.trim() };
if (values['heap-snapshots']) {
  mkdirSync(values['heap-snapshots'], { recursive: true });
  serverEnv.HEAP_PROBE_SNAPSHOTS = values['heap-snapshots'];
}
const serve = await startServe({
  args: ['--isolated', '--timeout-action', String(ACTION_MS), '--timeout-navigation', String(NAVIGATION_MS)],
  env: serverEnv,
});
const serverPid = serve.child.pid;

const sessions = [];
for (let i = 0; i < sessionCount; i++) sessions.push({ client: await serve.connect(), tabs: [] });
// Spread the tabs over the sessions, each tab starting on a different page.
for (let i = 0; i < tabCount; i++) {
  const session = sessions[i % sessionCount];
  const created = await session.client.call('tabs_create_mcp', { url: fixtures.url(PAGES[i % PAGES.length]) });
  if (created.isError) throw new Error(`tabs_create_mcp: ${session.client.text(created)}`);
  session.tabs.push(created.structuredContent.tabId);
}
log(`soak: ${serve.url}, ${sessionCount} sessions, ${tabCount} tabs, Firefox ${await serve.firefoxPid()}`);

const latencies = new Map();
const errors = new Map();
const unexpectedSamples = [];
const memory = [];
let unexpected = 0;
let unanswered = 0;
let issued = 0;
let answered = 0;
/** The newest ref any reply named: refs are numbered in the order the server issued them. */
let newestRef = 0;
const started = performance.now();
const deadline = maxSeconds > 0 ? Date.now() + maxSeconds * 1000 : Infinity;

const mb = (bytes) => Math.round((bytes / 1048576) * 10) / 10;
let probes = 0;
// One probe at a time: two signals sent before the server handles the first would be delivered as one.
let probing = Promise.resolve();

/** The heap probe's answer to one more SIGUSR2: the server's memory right after a full GC (null if it never came). */
async function liveMemory() {
  const n = ++probes;
  try {
    process.kill(serverPid, 'SIGUSR2');
  } catch {
    return null; // the server is gone: the run fails on that, not here
  }
  const pattern = new RegExp(`^heap-probe (\\{"n":${n},.*\\})$`, 'm');
  const line = await waitFor(() => pattern.exec(serve.stderr), values['heap-snapshots'] ? 120_000 : 30_000, 20);
  return line ? JSON.parse(line[1]) : null;
}

function sampleMemory() {
  const firefox = firefoxPids();
  const seconds = (performance.now() - started) / 1000;
  const sample = {
    calls: answered,
    seconds: Math.round(seconds),
    refs: Math.min(newestRef, MAX_REFS),
    serverLiveMb: null,
    serverHeapMb: null,
    serverCodeMb: null,
    serverRssMb: rssMb(serverPid),
    firefoxRssMb: sum(firefox.map(rssMb)),
    firefoxPssMb: sum(firefox.map(pssMb)),
    firefoxProcesses: firefox.length,
  };
  memory.push(sample);
  probing = probing.then(async () => {
    const live = await liveMemory();
    if (live) {
      sample.serverHeapMb = mb(live.heapUsed);
      sample.serverCodeMb = mb(live.code);
      sample.serverLiveMb = mb(live.heapUsed + live.external);
    }
    log(`  ${String(sample.calls).padStart(6)} calls ${String(sample.seconds).padStart(5)} s  server ${sample.serverLiveMb} MB live (heap ${sample.serverHeapMb}, code ${sample.serverCodeMb}) / ${sample.serverRssMb} MB RSS  Firefox ${sample.firefoxRssMb} MB RSS / ${sample.firefoxPssMb} MB PSS in ${sample.firefoxProcesses} processes`);
  });
}

/** One timed tool call; returns its result, or null when it failed or got no answer. */
async function timedCall(client, name, args) {
  const label = name === 'computer' ? `computer.${args.action}` : name;
  const t0 = performance.now();
  let result;
  try {
    result = await client.client.callTool({ name, arguments: args }, undefined, { timeout: ANSWER_MS });
  } catch (error) {
    unanswered++;
    errors.set('no_answer', (errors.get('no_answer') ?? 0) + 1);
    if (unexpectedSamples.length < 20) unexpectedSamples.push(`${label}: no answer: ${error.message}${error.cause ? ` (${error.cause.code ?? error.cause.message})` : ''}`);
    return null;
  } finally {
    answered++;
    if (answered % sampleEvery === 0) sampleMemory();
  }
  const ms = performance.now() - t0;
  for (const part of result.content ?? []) {
    if (part.type === 'text') for (const match of part.text.matchAll(/\bref_(\d+)\b/g)) newestRef = Math.max(newestRef, Number(match[1]));
  }
  if (!latencies.has(label)) latencies.set(label, []);
  latencies.get(label).push(ms);
  if (!result.isError) return result;
  const code = result.structuredContent?.error?.code ?? 'uncoded';
  errors.set(code, (errors.get(code) ?? 0) + 1);
  if (!EXPECTED_CODES.has(code)) {
    unexpected++;
    if (unexpectedSamples.length < 20) unexpectedSamples.push(`${label}: ${client.text(result).split('\n')[0]}`);
  }
  return null;
}

/** An agent's loop on one tab: look, find, act, look again; one call at a time, like a model would. */
async function agent(client, tabId, index) {
  let step = 0;
  let buttonRef = null;
  let noteRef = null;
  const more = () => issued < totalCalls && Date.now() < deadline;
  while (more()) {
    const kind = step++ % 8;
    issued++;
    if (kind === 0) {
      await timedCall(client, 'navigate', { tabId, url: fixtures.url(PAGES[(index + Math.floor(step / 8)) % PAGES.length]) });
    } else if (kind === 1) {
      await timedCall(client, 'read_page', { tabId });
    } else if (kind === 2) {
      const found = await timedCall(client, 'find', { tabId, query: 'Add one button' });
      buttonRef = found?.structuredContent?.matches?.find((m) => m.role === 'button')?.ref ?? null;
    } else if (kind === 3) {
      await timedCall(client, 'computer', buttonRef ? { tabId, action: 'left_click', ref: buttonRef } : { tabId, action: 'left_click', coordinate: [120, 90] });
    } else if (kind === 4) {
      const found = await timedCall(client, 'find', { tabId, query: 'Note' });
      noteRef = found?.structuredContent?.matches?.find((m) => m.role === 'textbox')?.ref ?? null;
    } else if (kind === 5) {
      await timedCall(client, 'computer', noteRef ? { tabId, action: 'type', ref: noteRef, text: 'soak text' } : { tabId, action: 'type', text: 'soak text' });
    } else if (kind === 6) {
      await timedCall(client, 'computer', { tabId, action: 'screenshot' });
    } else {
      await timedCall(client, 'computer', { tabId, action: 'zoom', region: [0, 0, 400, 240] });
    }
  }
}

sampleMemory();
let tabIndex = 0;
await Promise.all(sessions.flatMap((session) => session.tabs.map((tabId) => agent(session.client, tabId, tabIndex++))));
const seconds = (performance.now() - started) / 1000;
if (memory.at(-1).calls !== answered) sampleMemory();
await probing;

// Shut down the way a client and an operator would: end the MCP sessions, then SIGTERM the server.
for (const session of sessions) await session.client.end();
const exit = await serve.stop('SIGTERM');
const firefoxLeft = (await waitFor(() => firefoxPids().length === 0, 10_000)) ? 0 : firefoxPids().length;
await fixtures.close();

const perTool = Object.fromEntries(
  [...latencies].sort(([a], [b]) => a.localeCompare(b)).map(([label, list]) => {
    const sorted = list.sort((a, b) => a - b);
    return [label, { calls: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) }];
  }),
);
const base = memory.find((m) => m.calls >= baselineCall);
const last = memory.at(-1);
const growthOf = (field) => (base && base !== last && base[field] && last[field] ? Math.round(((last[field] - base[field]) / base[field]) * 1000) / 10 : null);
// Live memory's growth less what the ref registry may hold for the refs issued meanwhile (bounded by MAX_REFS).
const refsMb = base && last ? mb((last.refs - base.refs) * REF_BYTES) : 0;
const growth = base && base !== last && base.serverLiveMb && last.serverLiveMb ? Math.round(((last.serverLiveMb - refsMb - base.serverLiveMb) / base.serverLiveMb) * 1000) / 10 : null;
const rawGrowth = growthOf('serverLiveMb');
const rssGrowth = growthOf('serverRssMb');
const failures = [];
if (unexpected > 0) failures.push(`${unexpected} unexpected errors`);
if (unanswered > 0) failures.push(`${unanswered} calls without an answer`);
if (growth === null) failures.push(`too few calls (${answered}) or no heap probe answer to measure growth from call ${baselineCall}`);
else if (growth >= maxGrowth) failures.push(`server live memory (heap + external after a full GC, less ${refsMb} MB for ${last.refs - base.refs} refs) grew ${growth}% from call ${base.calls} (limit ${maxGrowth}%)`);
if (firefoxLeft > 0) failures.push(`${firefoxLeft} Firefox processes left after the server stopped`);
if (exit.code !== 0) failures.push(`the server exited with ${exit.code ?? exit.signal}`);
const report = {
  calls: answered,
  seconds: Math.round(seconds * 10) / 10,
  callsPerSecond: Math.round((answered / seconds) * 10) / 10,
  sessions: sessionCount,
  tabs: tabCount,
  perTool,
  errorsByCode: Object.fromEntries([...errors].sort(([a], [b]) => a.localeCompare(b))),
  unexpectedErrors: unexpected,
  unexpectedSamples,
  unanswered,
  memory,
  serverLiveGrowthPercent: growth,
  serverLiveGrowthWithRefsPercent: rawGrowth,
  refsIssuedSinceBaseline: base && last ? last.refs - base.refs : null,
  serverRssGrowthPercent: rssGrowth,
  growthFromCall: base?.calls ?? null,
  firefoxLeft,
  serverExit: exit,
  failures,
  pass: failures.length === 0,
};
if (values.json) writeFileSync(values.json, JSON.stringify(report, null, 2) + '\n');
if (!values.quiet) {
  log(`\n${answered} calls in ${report.seconds} s: ${report.callsPerSecond} calls/s`);
  log('tool                    calls    p50 ms   p95 ms   p99 ms');
  for (const [label, t] of Object.entries(perTool)) {
    log(`${label.padEnd(22)} ${String(t.calls).padStart(6)} ${String(t.p50).padStart(9)} ${String(t.p95).padStart(8)} ${String(t.p99).padStart(8)}`);
  }
  log(`errors by code: ${JSON.stringify(report.errorsByCode)}`);
  for (const sample of unexpectedSamples) log(`  unexpected: ${sample}`);
  log(`server growth from call ${report.growthFromCall}: live memory ${growth}% (${rawGrowth}% with ${report.refsIssuedSinceBaseline} new refs), RSS ${rssGrowth}% (not judged); Firefox left: ${firefoxLeft}`);
  log(report.pass ? 'PASS' : `FAIL: ${failures.join('; ')}`);
}
process.stdout.write(JSON.stringify({ pass: report.pass, failures }) + '\n');
process.exit(report.pass ? 0 : 1);
