// The side-by-side suite: every server on every page, the two tasks, the raw BiDi floor, then the targets and
// the report files.
import { fileURLToPath } from 'node:url';
import { coldStart } from './foundation.mjs';
import { FLOWS, runFlow } from './flows.mjs';
import { installPeers } from './install.mjs';
import { measurePages } from './measure.mjs';
import { treeMemory } from './procs.mjs';
import { rawBidiFloor } from './rawbidi.mjs';
import { PairedTypist } from './typing-floor.mjs';
import { ALL_SERVERS } from './servers.mjs';
import { round } from './stats.mjs';
import { evaluateTargets } from './targets.mjs';

export const RESULTS_DIR = fileURLToPath(new URL('../results/', import.meta.url));

/** The paired typing floor's Firefox, or null (with why in the log) when it cannot start. */
async function startPairedTypist(log) {
  try {
    return await PairedTypist.start();
  } catch (error) {
    log(`paired typing floor: not started: ${error.message}`);
    return null;
  }
}

async function benchServer(adapter, fixtures, { calls, log, pages }) {
  log(`${adapter.id}: cold start`);
  const { server, handle, ms, retried_after } = await coldStart(adapter);
  // Started after the cold start is timed, so the second Firefox's launch does not weigh on it.
  const pairedTypist = adapter.id === 'firefox-use' ? await startPairedTypist(log) : null;
  try {
    const entry = { label: adapter.label, browser: adapter.browser, cold_start_ms: round(ms, 0), tools: server.tools.size };
    if (retried_after) entry.cold_start_retried_after = retried_after;
    entry.pages = await measurePages(adapter, server, handle, fixtures, { calls, log, pairedTypist, pages });
    await pairedTypist?.close();
    entry.tasks = {};
    for (const flow of pages ? [] : FLOWS) {
      log(`${adapter.id}: task ${flow.id}`);
      entry.tasks[flow.id] = await runFlow(adapter, server, handle, fixtures, flow);
    }
    Object.assign(entry, treeMemory(server.pid));
    return entry;
  } finally {
    await pairedTypist?.close();
    await server.close();
  }
}

async function measureFloor(fixtures, { calls, log, pages }) {
  try {
    return await rawBidiFloor(fixtures, { calls, log, pages });
  } catch (error) {
    return { error: error.message };
  }
}

export async function runSuite(fixtures, { flags, log }) {
  const calls = Math.max(10, Number(flags.calls) || 10);
  const wanted = flags.servers ? flags.servers.split(',') : ALL_SERVERS.map((s) => s.id);
  const adapters = ALL_SERVERS.filter((s) => wanted.includes(s.id));
  if (!flags['no-install'] && adapters.some((a) => a.packageName && a.missing()?.includes('not installed'))) {
    const failure = installPeers(log);
    if (failure) log(failure);
  }
  const results = { calls_per_figure: calls, servers: {}, floor: null };
  for (const adapter of adapters) {
    const missing = adapter.missing();
    if (missing) {
      log(`${adapter.id}: skipped: ${missing}`);
      results.servers[adapter.id] = { label: adapter.label, skipped: missing };
      continue;
    }
    try {
      results.servers[adapter.id] = await benchServer(adapter, fixtures, { calls, log, pages: flags.pages });
    } catch (error) {
      log(`${adapter.id}: failed: ${error.message}`);
      results.servers[adapter.id] = { label: adapter.label, error: error.message.slice(0, 500) };
    }
    // The floor right after firefox-use, before the Chromium peers: ratios against it mean something only when both
    // ran on the same machine state (measured after the peers, the login page's floor came out from 12 to 27 ms).
    // Not before it: a browser just closed slowed firefox-use's first page by 3-8 ms a call.
    if (adapter.id === 'firefox-use') results.floor = await measureFloor(fixtures, { calls, log, pages: flags.pages });
  }
  results.floor ??= await measureFloor(fixtures, { calls, log, pages: flags.pages });
  results.targets = evaluateTargets(results);
  return results;
}
