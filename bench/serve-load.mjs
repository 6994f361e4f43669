#!/usr/bin/env node
// A load test of `serve` on one machine (issue 39): N MCP sessions at once (16 by default) for a while (2 minutes),
// each looping navigate → find → click → type → screenshot on its own tab; prints p50/p95 per call kind, errors,
// the browser's memory (PSS of Firefox and its children) and the server's RSS, with the load average.
//
//   npm run build && node bench/serve-load.mjs [--sessions 16] [--seconds 120]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const { values: flags } = parseArgs({ options: { sessions: { type: 'string', default: '16' }, seconds: { type: 'string', default: '120' } } });
const SESSIONS = Number(flags.sessions);
const SECONDS = Number(flags.seconds);
const CLI = new URL('../dist/cli/main.js', import.meta.url).pathname;
const log = (message) => process.stderr.write(`[serve-load] ${message}\n`);

const page = (n) =>
  `<!doctype html><title>form ${n}</title><h1>Order ${n}</h1><label>Name <input id="name"></label>` +
  `<button onclick="out.textContent = 'saved ' + name.value">Save</button><p id="out"></p>` +
  `<ul>${Array.from({ length: 40 }, (_, i) => `<li><a href="#${i}">item ${i}</a></li>`).join('')}</ul>`;
const site = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page(req.url.slice(1) || '0')));
await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
const siteUrl = `http://127.0.0.1:${site.address().port}`;

const probe = createServer();
await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
const port = probe.address().port;
await new Promise((resolve) => probe.close(resolve));
const outputDir = mkdtempSync(join(tmpdir(), 'fu-load-'));
const serve = spawn(process.execPath, [CLI, 'serve', '--isolated', '--port', String(port), '--output-dir', outputDir, '--max-sessions', String(SESSIONS)], {
  stdio: ['ignore', 'ignore', 'pipe'],
});
let stderr = '';
serve.stderr.on('data', (chunk) => (stderr += chunk));
for (let i = 0; i < 200 && !stderr.includes('/mcp'); i++) await new Promise((resolve) => setTimeout(resolve, 50));

function descendants(root) {
  const children = new Map();
  for (const entry of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {
      // gone
    }
  }
  const all = [];
  const walk = (pid) => (children.get(pid) ?? []).forEach((child) => (all.push(child), walk(child)));
  walk(root);
  return all;
}
const kb = (pid, field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/${field === 'Pss' ? 'smaps_rollup' : 'status'}`, 'utf8'))?.[1] ?? 0);
function memory() {
  let pss = 0;
  for (const pid of descendants(serve.pid)) {
    try {
      pss += kb(pid, 'Pss');
    } catch {
      // gone
    }
  }
  return { browserPssMb: Math.round(pss / 1024), serverRssMb: Math.round(kb(serve.pid, 'VmRSS') / 1024) };
}

const times = new Map();
let errors = 0;
const timed = async (client, kind, name, args) => {
  const started = performance.now();
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
  (times.get(kind) ?? times.set(kind, []).get(kind)).push(performance.now() - started);
  if (result.isError) errors++;
  return result;
};
const text = (result) => result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');

async function agent(n, deadline) {
  const client = new Client({ name: `load-${n}`, version: '0' });
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`));
  await client.connect(transport);
  const created = await timed(client, 'tabs_create', 'tabs_create_mcp', { url: `${siteUrl}/${n}` });
  const tabId = created.structuredContent.tabId;
  let loops = 0;
  while (Date.now() < deadline) {
    await timed(client, 'navigate', 'navigate', { tabId, url: `${siteUrl}/${n}-${loops}` });
    const found = await timed(client, 'find', 'find', { tabId, query: 'Name textbox' });
    const ref = /\[ref=(ref_\d+)\]/.exec(text(found))?.[1];
    if (ref) await timed(client, 'type (by ref)', 'computer', { tabId, action: 'type', ref, text: `agent ${n}` });
    const button = /\[ref=(ref_\d+)\]/.exec(text(await timed(client, 'find', 'find', { tabId, query: 'Save button' })))?.[1];
    if (button) await timed(client, 'click (by ref)', 'computer', { tabId, action: 'left_click', ref: button });
    await timed(client, 'screenshot', 'computer', { tabId, action: 'screenshot' });
    loops++;
  }
  await transport.terminateSession().catch(() => undefined);
  await client.close();
  return loops;
}

const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);
};
log(`${SESSIONS} sessions for ${SECONDS} s; load before ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
const deadline = Date.now() + SECONDS * 1000;
let peak = { browserPssMb: 0, serverRssMb: 0 };
const sampler = setInterval(() => {
  const now = memory();
  peak = { browserPssMb: Math.max(peak.browserPssMb, now.browserPssMb), serverRssMb: Math.max(peak.serverRssMb, now.serverRssMb) };
}, 5_000);
const loops = await Promise.all(Array.from({ length: SESSIONS }, (_, n) => agent(n, deadline)));
clearInterval(sampler);
const load = loadavg().map((x) => x.toFixed(2)).join(' ');
serve.kill('SIGTERM');
site.close();
const rows = [...times].map(([kind, values]) => ({ kind, calls: values.length, p50: pct(values, 50), p95: pct(values, 95) }));
const summary = {
  sessions: SESSIONS,
  seconds: SECONDS,
  loops: loops.reduce((a, b) => a + b, 0),
  errors,
  calls: rows,
  peakBrowserPssMb: peak.browserPssMb,
  browserPssPerSessionMb: Math.round(peak.browserPssMb / SESSIONS),
  peakServerRssMb: peak.serverRssMb,
  load,
};
console.log(JSON.stringify(summary, null, 2));
