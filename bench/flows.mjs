#!/usr/bin/env node
// The two whole-task flows alone (bench/lib/flows.mjs), with every reply printed, for tuning what firefox-use
// returns: which call cost how many characters and what the agent read there. Stdout gets a JSON summary.
//
//   node bench/flows.mjs [--servers=firefox-use,playwright] [--show] [--no-install]
import { parseArgs } from 'node:util';
import { startFixtures } from './lib/fixture-server.mjs';
import { FLOWS, runFlow } from './lib/flows.mjs';
import { installPeers } from './lib/install.mjs';
import { McpServer } from './lib/mcp.mjs';
import { ALL_SERVERS } from './lib/servers.mjs';

const { values: flags } = parseArgs({
  options: {
    servers: { type: 'string', default: 'firefox-use' },
    show: { type: 'boolean', default: false },
    'no-install': { type: 'boolean', default: false },
  },
});
const log = (message) => process.stderr.write(`[bench:flows] ${message}\n`);

async function main() {
  const wanted = flags.servers.split(',');
  const adapters = ALL_SERVERS.filter((s) => wanted.includes(s.id));
  if (!flags['no-install'] && adapters.some((a) => a.packageName && a.missing()?.includes('not installed'))) {
    const failure = installPeers(log);
    if (failure) log(failure);
  }
  const fixtures = await startFixtures();
  const out = {};
  try {
    for (const adapter of adapters) {
      const missing = adapter.missing();
      if (missing) {
        out[adapter.id] = { skipped: missing };
        continue;
      }
      const server = new McpServer(adapter.id, adapter.spec());
      await server.start();
      try {
        const handle = await adapter.open(server);
        if (flags.show) wrapForShow(server, adapter.id);
        out[adapter.id] = {};
        for (const flow of FLOWS) {
          const result = await runFlow(adapter, server, handle, fixtures, flow);
          out[adapter.id][flow.id] = { ok: result.ok ?? false, calls: result.calls, chars: result.chars, ...(result.failed ? { failed: result.failed } : {}), log: result.log };
          log(`${adapter.id} ${flow.id}: ${result.ok ? 'ok' : result.failed ?? result.skipped} ${result.calls} calls, ${result.chars} chars`);
        }
      } finally {
        await server.close();
      }
    }
  } finally {
    await fixtures.close();
  }
  const ours = out['firefox-use'];
  const theirs = out.playwright;
  if (ours && theirs && !ours.skipped && !theirs.skipped) {
    out.ratios = Object.fromEntries(FLOWS.map((flow) => [flow.id, { chars: +(ours[flow.id].chars / theirs[flow.id].chars).toFixed(3), calls: `${ours[flow.id].calls} vs ${theirs[flow.id].calls}` }]));
  }
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

/** Prints each call and its reply text to stderr. */
function wrapForShow(server, id) {
  const call = server.call.bind(server);
  server.call = async (name, args, options) => {
    const reply = await call(name, args, options);
    const text = (reply.result?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
    process.stderr.write(`\n===== ${id} ${name} ${JSON.stringify(args)} → ${reply.chars} chars, ${Math.round(reply.ms)} ms\n${text}\n`);
    return reply;
  };
}

main().catch((error) => {
  process.stderr.write(`[bench:flows] failed: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});
