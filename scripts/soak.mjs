#!/usr/bin/env node
// Soak: many tool calls across several tabs and MCP sessions under `firefox-use serve`, on pages that re-render
// constantly. Reports calls per second, latency percentiles per tool, errors by code, and memory over time.
// Usage: node scripts/soak.mjs [--calls N] [--seconds S] [--sessions N] [--tabs N] [--json FILE]
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '0' },
    sessions: { type: 'string', default: '3' },
    tabs: { type: 'string', default: '5' },
    json: { type: 'string' },
  },
});
const totalCalls = Number(values.calls);
const maxSeconds = Number(values.seconds);
const sessionCount = Number(values.sessions);
const tabCount = Number(values.tabs);
const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
// Codes a well-behaved run may see on pages that re-render under the agent's feet.
const EXPECTED_CODES = new Set(['ref_stale', 'ref_hidden', 'target_occluded', 'out_of_viewport']);

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>soak</title>
<style>body{font:14px sans-serif;margin:16px} li{padding:2px} .hot{background:#fe9}</style></head><body>
<main><h1>Soak page</h1><label>Note <input id="note" placeholder="note"></label>
<button id="add" onclick="document.getElementById('count').textContent = String(Number(document.getElementById('count').textContent) + 1)">Add one</button>
<span id="count">0</span><ul id="list"></ul></main>
<script>
  let tick = 0;
  setInterval(() => {
    tick++;
    const list = document.getElementById('list');
    const li = document.createElement('li');
    li.textContent = 'row ' + tick;
    li.className = tick % 3 ? '' : 'hot';
    list.prepend(li);
    while (list.children.length > 30) list.lastElementChild.remove();
  }, 50);
</script></body></html>`;

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 10) / 10;
}

function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024);
  } catch {
    return null;
  }
}

/** Pids of every process below `pid` (Firefox and its content processes). */
function descendants(pid) {
  const procs = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      procs.push({ pid: Number(entry), ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) });
    } catch {
      // gone meanwhile
    }
  }
  const out = [];
  const queue = [pid];
  while (queue.length) {
    const parent = queue.shift();
    for (const proc of procs) {
      if (proc.ppid !== parent) continue;
      out.push(proc.pid);
      queue.push(proc.pid);
    }
  }
  return out;
}

const fixture = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
await new Promise((resolve) => fixture.listen(0, '127.0.0.1', resolve));
const pageUrl = `http://127.0.0.1:${fixture.address().port}/`;

const server = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--isolated', '--timeout-action', '5000'], { stdio: ['ignore', 'ignore', 'pipe'] });
const endpoint = await new Promise((resolve, reject) => {
  let text = '';
  server.stderr.on('data', (chunk) => {
    text += chunk;
    const match = /(http:\/\/[^\s]+\/mcp)/.exec(text);
    if (match) resolve(match[1]);
  });
  server.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${text}`)));
});

const sessions = [];
for (let i = 0; i < sessionCount; i++) {
  const client = new Client({ name: `soak-${i}`, version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint)));
  sessions.push({ client, tabs: [] });
}
// Spread the tabs over the sessions.
for (let i = 0; i < tabCount; i++) {
  const session = sessions[i % sessionCount];
  const created = await session.client.callTool({ name: 'tabs_create_mcp', arguments: { url: pageUrl } });
  if (created.isError) throw new Error(`tabs_create_mcp: ${created.content[0].text}`);
  session.tabs.push(created.structuredContent.tabId);
}

const latencies = new Map();
const errors = new Map();
const memory = [];
let unexpected = 0;
let unanswered = 0;
let done = 0;
const started = performance.now();
const deadline = maxSeconds > 0 ? Date.now() + maxSeconds * 1000 : Infinity;

async function oneCall(session, tabId, n) {
  const kind = n % 7;
  let name;
  let args;
  if (kind === 0) {
    name = 'navigate';
    args = { tabId, url: pageUrl };
  } else if (kind === 1) {
    name = 'read_page';
    args = { tabId };
  } else if (kind === 2) {
    name = 'find';
    args = { tabId, query: 'Add one button' };
  } else if (kind === 3) {
    const found = await session.client.callTool({ name: 'find', arguments: { tabId, query: 'Add one' } });
    const ref = found.structuredContent?.matches?.[0]?.ref;
    name = 'computer';
    args = ref ? { tabId, action: 'left_click', ref } : { tabId, action: 'left_click', coordinate: [100, 80] };
  } else if (kind === 4) {
    name = 'computer';
    args = { tabId, action: 'type', text: 'soak text' };
  } else if (kind === 5) {
    name = 'computer';
    args = { tabId, action: 'screenshot' };
  } else {
    name = 'computer';
    args = { tabId, action: 'zoom', region: [0, 0, 300, 200] };
  }
  const label = name === 'computer' ? `computer.${args.action}` : name;
  const t0 = performance.now();
  let result;
  try {
    result = await Promise.race([
      session.client.callTool({ name, arguments: args }),
      new Promise((_, reject) => setTimeout(() => reject(new Error('no answer in 30 s')), 30_000)),
    ]);
  } catch (error) {
    unanswered++;
    errors.set('no_answer', (errors.get('no_answer') ?? 0) + 1);
    return;
  }
  const ms = performance.now() - t0;
  if (!latencies.has(label)) latencies.set(label, []);
  latencies.get(label).push(ms);
  if (result.isError) {
    const code = result.structuredContent?.error?.code ?? 'unknown';
    errors.set(code, (errors.get(code) ?? 0) + 1);
    if (!EXPECTED_CODES.has(code)) unexpected++;
  }
}

function sampleMemory() {
  const firefox = descendants(server.pid).map(rssMb).filter((v) => v !== null);
  memory.push({ calls: done, serverRssMb: rssMb(server.pid), firefoxRssMb: firefox.reduce((a, b) => a + b, 0) });
}

// One worker per tab: calls on a tab are sequential like an agent's, tabs run in parallel.
const workers = sessions.flatMap((session) =>
  session.tabs.map(async (tabId) => {
    while (done < totalCalls && Date.now() < deadline) {
      const n = done++;
      if (n % 1000 === 0) sampleMemory();
      await oneCall(session, tabId, n);
    }
  }),
);
await Promise.all(workers);
sampleMemory();
const seconds = (performance.now() - started) / 1000;

for (const session of sessions) await session.client.close().catch(() => undefined);
server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
fixture.close();

const perTool = Object.fromEntries(
  [...latencies].map(([label, list]) => {
    const sorted = list.sort((a, b) => a - b);
    return [label, { calls: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) }];
  }),
);
const at1000 = memory.find((m) => m.calls >= 1000) ?? memory[0];
const last = memory.at(-1);
const growth = at1000?.serverRssMb ? Math.round(((last.serverRssMb - at1000.serverRssMb) / at1000.serverRssMb) * 1000) / 10 : null;
const report = {
  calls: done,
  seconds: Math.round(seconds * 10) / 10,
  callsPerSecond: Math.round((done / seconds) * 10) / 10,
  sessions: sessionCount,
  tabs: tabCount,
  perTool,
  errorsByCode: Object.fromEntries(errors),
  unexpectedErrors: unexpected,
  unanswered,
  memory,
  serverRssGrowthPercentFrom1000: growth,
};
report.pass = unexpected === 0 && unanswered === 0 && (growth === null || done < 2000 || growth < 20);
const text = JSON.stringify(report, null, 2);
if (values.json) writeFileSync(values.json, text + '\n');
process.stdout.write(text + '\n');
process.exit(report.pass ? 0 : 1);
