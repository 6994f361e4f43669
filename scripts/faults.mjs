#!/usr/bin/env node
// Faults: Firefox's main process SIGKILLed at a random moment during each kind of tool call, under `firefox-use
// serve` on a named (non-isolated) profile. Per trial it checks that the call answers within --answer-ms of the kill
// with browser_crashed or a result, that the next call works (the server relaunches Firefox on the same profile),
// that a cookie stored before the first kill is still there, and that nothing of the killed Firefox is left.
// Usage: node scripts/faults.mjs [--trials N] [--answer-ms MS] [--seed N] [--json FILE] [--quiet]
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startFixtureServer } from '../test/helpers/fixtures.mjs';
import { startServe } from '../test/helpers/http-server.mjs';
import { alive, firefoxPids, waitFor } from '../test/helpers/processes.mjs';

const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '100' },
    'answer-ms': { type: 'string', default: '2000' },
    seed: { type: 'string', default: String(Date.now() % 100_000) },
    json: { type: 'string' },
    quiet: { type: 'boolean', default: false },
  },
});
const trials = Number(values.trials);
const answerMs = Number(values['answer-ms']);
const log = (line) => values.quiet || process.stderr.write(`${line}\n`);
const KINDS = ['navigate', 'read_page', 'find', 'left_click', 'type', 'screenshot', 'zoom'];
const COOKIE = 'kept=before-kills';

// A small seeded generator (mulberry32), so a run's kill moments can be replayed with --seed.
let seed = Number(values.seed) >>> 0;
function random() {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

/** The Firefox main process of a server: its child that has the remote-debugging flag (not the watchdog shell). */
function mainFirefox(serverPid) {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== serverPid || /\) Z /.test(stat)) continue;
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (/firefox/.test(argv[0]) && argv.some((arg) => arg.startsWith('--remote-debugging-port'))) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

const dataHome = mkdtempSync(join(tmpdir(), 'fu-faults-'));
const profileDir = join(dataHome, 'firefox-use', 'profiles', 'faults');
const fixtures = await startFixtureServer();
const page = fixtures.url('/soak/list.html');
const serve = await startServe({
  args: ['--profile', 'faults', '--shared-browser-context', '--timeout-action', '5000', '--timeout-navigation', '10000'],
  env: { XDG_DATA_HOME: dataHome },
});
const client = await serve.connect();
const text = (result) => client.text(result);

/** Opens (or finds) a tab on the test page and returns its id. */
async function readyTab() {
  const context = await client.call('tabs_context_mcp', { createIfEmpty: true });
  if (context.isError) return { error: text(context) };
  const tabId = context.structuredContent.tabs[0].tabId;
  const nav = await client.call('navigate', { tabId, url: page });
  if (nav.isError) return { error: text(nav) };
  return { tabId, notice: context.structuredContent.notice ?? null };
}

/** The arguments of one call of `kind`, with fresh refs for the ones that aim at an element. */
async function argsFor(kind, tabId) {
  const refOf = async (query, role) => (await client.call('find', { tabId, query })).structuredContent?.matches?.find((m) => m.role === role)?.ref;
  if (kind === 'navigate') return ['navigate', { tabId, url: `${page}?n=${Math.floor(random() * 1e6)}` }];
  if (kind === 'read_page') return ['read_page', { tabId }];
  if (kind === 'find') return ['find', { tabId, query: 'Add one button' }];
  if (kind === 'left_click') return ['computer', { tabId, action: 'left_click', ref: await refOf('Add one', 'button') }];
  if (kind === 'type') return ['computer', { tabId, action: 'type', ref: await refOf('Note', 'textbox'), text: 'typed while Firefox dies' }];
  if (kind === 'screenshot') return ['computer', { tabId, action: 'screenshot' }];
  return ['computer', { tabId, action: 'zoom', region: [0, 0, 400, 240] }];
}

/** Whether the profile's cookie store on disk holds the cookie (Firefox writes it a moment after it is set). */
function cookieOnDisk() {
  for (const name of ['cookies.sqlite', 'cookies.sqlite-wal']) {
    const file = join(profileDir, name);
    if (existsSync(file) && readFileSync(file).includes('before-kills')) return true;
  }
  return false;
}

async function cookieSeen(tabId) {
  const nav = await client.call('navigate', { tabId, url: fixtures.url('/cookies') });
  if (nav.isError) return false;
  const body = await client.call('get_page_text', { tabId });
  return !body.isError && text(body).includes(COOKIE);
}

// Set-up: a stored cookie, and how long each kind of call takes here, so kills land inside calls.
const setup = await readyTab();
if (setup.error) throw new Error(`setup: ${setup.error}`);
let tabId = setup.tabId;
await client.call('navigate', { tabId, url: fixtures.url(`/set-cookie?name=kept&value=before-kills`) });
const stored = await waitFor(cookieOnDisk, 15_000, 100);
await client.call('navigate', { tabId, url: page });
const typical = {};
for (const kind of KINDS) {
  const times = [];
  for (let i = 0; i < 3; i++) {
    const [name, args] = await argsFor(kind, tabId);
    const t0 = performance.now();
    await client.call(name, args);
    times.push(performance.now() - t0);
  }
  typical[kind] = Math.round(Math.min(...times));
}
log(`faults: seed ${values.seed}, cookie on disk: ${stored}, typical ms ${JSON.stringify(typical)}`);

const results = [];
for (let trial = 0; trial < trials; trial++) {
  // Start the rotation at a seeded kind, so short runs (CI) cover every kind over time.
  const kind = KINDS[(trial + Number(values.seed)) % KINDS.length];
  const firefox = mainFirefox(serve.child.pid);
  const before = firefoxPids();
  const [name, args] = await argsFor(kind, tabId);
  // Anywhere from the moment the call is sent to just before its quickest run ended.
  const delay = Math.round(random() * typical[kind] * 0.9);
  let killedAt = 0;
  const killer = sleep(delay).then(() => {
    killedAt = performance.now();
    process.kill(firefox, 'SIGKILL');
  });
  const sentAt = performance.now();
  const answer = await client.call(name, args, undefined).catch((error) => ({ noAnswer: error.message }));
  const answeredAt = performance.now();
  await killer;
  const inFlight = answeredAt > killedAt;
  const code = answer.noAnswer ? 'no_answer' : answer.isError ? answer.structuredContent?.error?.code ?? 'uncoded' : 'result';
  const record = { trial, kind, delay, inFlight, outcome: code, callMs: Math.round(answeredAt - sentAt), afterKillMs: inFlight ? Math.round(answeredAt - killedAt) : 0, problems: [] };
  if (inFlight && record.afterKillMs > answerMs) record.problems.push(`answered ${record.afterKillMs} ms after the kill`);
  if (inFlight && code !== 'result' && code !== 'browser_crashed') record.problems.push(`answered ${code}: ${answer.noAnswer ?? text(answer).split('\n')[0]}`);

  // The next call: the server notices the crash and relaunches on the same profile.
  await sleep(200);
  const relaunchStarted = performance.now();
  const next = await readyTab();
  record.relaunchMs = Math.round(performance.now() - relaunchStarted);
  if (next.error) {
    record.problems.push(`next call failed: ${next.error.split('\n')[0]}`);
    // One more try, so a single failure does not cascade through the rest of the run.
    Object.assign(next, await readyTab());
  }
  if (!next.error) {
    tabId = next.tabId;
    if (!next.notice) record.problems.push('no notice that the tabs were lost');
    record.cookieKept = await cookieSeen(tabId);
    if (!record.cookieKept) record.problems.push('the stored cookie is gone');
    await client.call('navigate', { tabId, url: page });
  }
  const leftovers = await waitFor(() => (before.some(alive) ? null : true), 5_000);
  if (!leftovers) record.problems.push(`processes of the killed Firefox still alive: ${before.filter(alive).join(', ')}`);
  if (mainFirefox(serve.child.pid) === firefox) record.problems.push('the same Firefox is still running');
  results.push(record);
  log(`  ${String(trial + 1).padStart(3)} ${kind.padEnd(10)} kill at ${String(delay).padStart(4)} ms: ${inFlight ? `in flight, ${code} ${record.afterKillMs} ms after the kill` : `answered first (${code})`}; relaunch ${record.relaunchMs} ms${record.problems.length ? `; PROBLEM: ${record.problems.join('; ')}` : ''}`);
}

await client.end();
const exit = await serve.stop('SIGTERM');
const firefoxLeft = (await waitFor(() => firefoxPids().length === 0, 10_000)) ? 0 : firefoxPids().length;
const lockLeft = existsSync(join(profileDir, 'firefox-use.lock'));
await fixtures.close();
rmSync(dataHome, { recursive: true, force: true });

const byKind = Object.fromEntries(
  KINDS.map((kind) => {
    const mine = results.filter((r) => r.kind === kind);
    const flying = mine.filter((r) => r.inFlight);
    return [
      kind,
      {
        trials: mine.length,
        killedInFlight: flying.length,
        browserCrashed: flying.filter((r) => r.outcome === 'browser_crashed').length,
        resultDespiteKill: flying.filter((r) => r.outcome === 'result').length,
        maxAfterKillMs: Math.max(0, ...flying.map((r) => r.afterKillMs)),
      },
    ];
  }),
);
const problems = results.flatMap((r) => r.problems.map((p) => `trial ${r.trial + 1} (${r.kind}): ${p}`));
if (!stored) problems.push('the cookie never reached the profile on disk before the first kill');
if (firefoxLeft) problems.push(`${firefoxLeft} Firefox processes left after the server stopped`);
if (lockLeft) problems.push('the profile lock was left behind');
if (exit.code !== 0) problems.push(`the server exited with ${exit.code ?? exit.signal}`);
const flying = results.filter((r) => r.inFlight);
const relaunch = results.map((r) => r.relaunchMs).sort((a, b) => a - b);
const report = {
  seed: Number(values.seed),
  trials: results.length,
  killedInFlight: flying.length,
  maxAfterKillMs: Math.max(0, ...flying.map((r) => r.afterKillMs)),
  p50AfterKillMs: flying.length ? median(flying.map((r) => r.afterKillMs)) : null,
  relaunchP50Ms: relaunch.length ? relaunch[Math.floor(relaunch.length / 2)] : null,
  relaunchMaxMs: relaunch.at(-1) ?? null,
  cookieKept: results.filter((r) => r.cookieKept).length,
  typicalMs: typical,
  byKind,
  firefoxLeft,
  problems,
  pass: problems.length === 0,
  results,
};
if (values.json) writeFileSync(values.json, JSON.stringify(report, null, 2) + '\n');
log(`\n${report.trials} kills, ${report.killedInFlight} during a call: answered ${report.p50AfterKillMs} ms (p50) / ${report.maxAfterKillMs} ms (max) after the kill`);
log(`relaunch + first call: p50 ${report.relaunchP50Ms} ms, max ${report.relaunchMaxMs} ms; cookie kept after ${report.cookieKept}/${report.trials} kills`);
for (const [kind, k] of Object.entries(byKind)) log(`  ${kind.padEnd(10)} ${JSON.stringify(k)}`);
log(report.pass ? 'PASS' : `FAIL:\n  ${problems.join('\n  ')}`);
process.stdout.write(JSON.stringify({ pass: report.pass, problems }) + '\n');
process.exit(report.pass ? 0 : 1);
