#!/usr/bin/env node
// The real-app trial: every task of bench/lib/trial-tasks.mjs done through each server's tools on third-party apps
// served from 127.0.0.1 (test/helpers/real-apps.mjs). Per task: success, calls, reply characters and misleading
// replies. Writes bench/results/trial-latest.{json,md}; --show prints every reply.
//
//   node bench/trial.mjs [--servers=firefox-use,playwright] [--tasks=sl-agree,grid-sort] [--show] [--no-install]
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { missingApps, startRealAppServer } from '../test/helpers/real-apps.mjs';
import { installPeers } from './lib/install.mjs';
import { McpServer } from './lib/mcp.mjs';
import { ALL_SERVERS } from './lib/servers.mjs';
import { runTask } from './lib/trial.mjs';
import { TASKS } from './lib/trial-tasks.mjs';

const { values: flags } = parseArgs({
  options: {
    servers: { type: 'string', default: 'firefox-use,playwright' },
    tasks: { type: 'string', default: '' },
    show: { type: 'boolean', default: false },
    'no-install': { type: 'boolean', default: false },
  },
});
const log = (message) => process.stderr.write(`[bench:trial] ${message}\n`);
const RESULTS = new URL('./results/', import.meta.url);

async function main() {
  const missing = missingApps();
  if (missing.length) throw new Error(`real apps missing: ${missing.join(', ')} (run scripts/install-test-apps.sh and npm ci)`);
  const wanted = flags.servers.split(',');
  const tasks = flags.tasks ? TASKS.filter((task) => flags.tasks.split(',').includes(task.id)) : TASKS;
  const adapters = ALL_SERVERS.filter((s) => wanted.includes(s.id));
  if (!flags['no-install'] && adapters.some((a) => a.packageName && a.missing()?.includes('not installed'))) {
    const failure = installPeers(log);
    if (failure) log(failure);
  }
  const apps = await startRealAppServer();
  const out = { load: loadavg().map((l) => +l.toFixed(2)), servers: {} };
  try {
    for (const adapter of adapters) {
      const why = adapter.missing();
      if (why) {
        out.servers[adapter.id] = { skipped: why };
        log(`${adapter.id}: skipped (${why})`);
        continue;
      }
      const server = new McpServer(adapter.id, adapter.spec());
      await server.start();
      const results = {};
      try {
        const handle = await adapter.open(server);
        for (const task of tasks) {
          const result = await runTask(adapter, server, handle, apps, task);
          results[task.id] = result;
          log(`${adapter.id} ${task.id}: ${result.ok ? 'ok' : `FAILED (${result.failed})`} ${result.calls} calls, ${result.chars} chars${result.misleading ? `, ${result.misleading} misleading` : ''}`);
          if (flags.show) for (const entry of result.log) process.stderr.write(`\n----- ${entry.note} ${entry.tool} ${JSON.stringify(entry.args)} -> ${entry.chars} chars\n${entry.text}\n`);
        }
      } finally {
        await server.close();
      }
      out.servers[adapter.id] = results;
    }
  } finally {
    await apps.close();
  }
  writeFileSync(new URL('trial-latest.json', RESULTS), `${JSON.stringify(out, null, 2)}\n`);
  writeFileSync(new URL('trial-latest.md', RESULTS), report(out, tasks));
  process.stdout.write(report(out, tasks));
}

function report(out, tasks) {
  const ids = Object.keys(out.servers).filter((id) => !out.servers[id].skipped);
  const lines = [
    `# Real-app trial (load average ${out.load.join(', ')})`,
    '',
    `| task | app | ${ids.map((id) => `${id}: done, calls, chars, misleading`).join(' | ')} |`,
    `|---|---|${ids.map(() => '---').join('|')}|`,
  ];
  const totals = Object.fromEntries(ids.map((id) => [id, { done: 0, calls: 0, chars: 0, misleading: 0 }]));
  for (const task of tasks) {
    const cells = ids.map((id) => {
      const r = out.servers[id][task.id];
      if (!r) return '-';
      Object.assign(totals[id], { done: totals[id].done + (r.ok ? 1 : 0), calls: totals[id].calls + r.calls, chars: totals[id].chars + r.chars, misleading: totals[id].misleading + r.misleading });
      return `${r.ok ? 'yes' : `**no** (${r.failed})`}, ${r.calls}, ${r.chars.toLocaleString('en')}, ${r.misleading}`;
    });
    lines.push(`| ${task.title} | ${task.app} | ${cells.join(' | ')} |`);
  }
  lines.push(`| **all ${tasks.length} tasks** | | ${ids.map((id) => `${totals[id].done} done, ${totals[id].calls}, ${totals[id].chars.toLocaleString('en')}, ${totals[id].misleading}`).join(' | ')} |`, '');
  return `${lines.join('\n')}\n`;
}

main().catch((error) => {
  process.stderr.write(`[bench:trial] failed: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});
