#!/usr/bin/env node
// read_page / find / click-with-delta figures against a real Firefox (run `npm run build` first). Progress goes
// to stderr; stdout gets one JSON object. Targets (2 cores): default snapshot <= 4,000 chars in < 150 ms,
// filter "all" of the 2,000-row table < 600 ms, find < 50 ms, click by ref with its delta p50 ~40 ms.
import { startFixtureServer } from '../test/helpers/fixtures.mjs';
import { startServer, firstTab } from '../test/helpers/mcp-client.mjs';
import { summarize } from './lib/stats.mjs';

const RUNS = Number(process.env.SNAPSHOT_BENCH_RUNS ?? 10);
const log = (message) => process.stderr.write(`[bench:snapshot] ${message}\n`);

async function sample(server, name, args, runs = RUNS) {
  const times = [];
  let last;
  for (let i = 0; i < runs + 1; i++) {
    const started = performance.now();
    last = await server.call(name, args);
    const ms = performance.now() - started;
    if (last.isError) throw new Error(`${name} failed: ${server.text(last)}`);
    if (i > 0) times.push(ms); // the first call warms the page scripts up
  }
  return { ms: summarize(times), chars: server.text(last).length, structured: last.structuredContent };
}

async function main() {
  const fixtures = await startFixtureServer();
  const other = await startFixtureServer();
  const server = await startServer();
  const figures = { runs: RUNS };
  try {
    const tabId = await firstTab(server);
    const go = (path) => server.ok('navigate', { tabId, url: fixtures.url(path) });

    await go('/snapshot/table.html');
    const visible = await sample(server, 'read_page', { tabId });
    const all = await sample(server, 'read_page', { tabId, filter: 'all' });
    const interactive = await sample(server, 'read_page', { tabId, filter: 'interactive' });
    const next = /ref_id "(ref_\d+)"/.exec(all.structured.hint ?? '')?.[1];
    const paged = next ? await sample(server, 'read_page', { tabId, ref_id: next }) : null;
    const findRow = await sample(server, 'find', { tabId, query: 'open 1500' });
    const findRole = await sample(server, 'find', { tabId, query: 'button' });
    figures.table_2000_rows = {
      default: { ms: visible.ms, chars: visible.structured.snapshot.length },
      all: { ms: all.ms, chars: all.structured.snapshot.length, omitted: all.structured.omitted },
      interactive: { ms: interactive.ms, chars: interactive.structured.snapshot.length },
      ...(paged ? { page_by_ref_id: { ms: paged.ms, chars: paged.structured.snapshot.length } } : {}),
      find_words: { ms: findRow.ms, first: findRow.structured.matches[0]?.name },
      find_role: { ms: findRole.ms, matches: findRole.structured.matches.length },
    };
    log(JSON.stringify(figures.table_2000_rows));

    for (const [key, path] of [
      ['roles', '/snapshot/roles.html'],
      ['shadow', '/snapshot/shadow.html'],
      ['frames', `/snapshot/frames.html?other=${encodeURIComponent(other.origin)}`],
    ]) {
      await go(path);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const snap = await sample(server, 'read_page', { tabId });
      const whole = await sample(server, 'read_page', { tabId, filter: 'all' });
      const found = await sample(server, 'find', { tabId, query: key === 'frames' ? 'frame button' : 'button' });
      figures[key] = { default: { ms: snap.ms, chars: snap.structured.snapshot.length }, all: { ms: whole.ms, chars: whole.structured.snapshot.length }, find: { ms: found.ms } };
      log(`${key}: ${JSON.stringify(figures[key])}`);
    }

    // Click by ref, delta included: open and close the menu (each click changes the page).
    await go('/snapshot/menu.html');
    const snap = (await server.ok('read_page', { tabId })).structuredContent.snapshot;
    const ref = /button "File" \[ref=(ref_\d+)\]/.exec(snap)?.[1];
    if (ref) {
      const clicks = await sample(server, 'computer', { tabId, action: 'left_click', ref }, 20);
      figures.click_by_ref_with_delta = { ms: clicks.ms, chars: clicks.chars };
      log(`click: ${JSON.stringify(figures.click_by_ref_with_delta)}`);
    }
  } finally {
    await server.close();
    await fixtures.close();
    await other.close();
  }
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
}

main().catch((error) => {
  process.stderr.write(`[bench:snapshot] failed: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});
