#!/usr/bin/env node
// `npm run bench`: firefox-use's own figures, then the side-by-side suite against the peers, then what the
// other bench scripts report. Progress goes to stderr; stdout gets one JSON summary at the end. Full results:
// bench/results/latest.json, latest.md and chart.png.
//
//   node bench/run.mjs [--quick] [--servers=firefox-use,playwright,chrome-devtools] [--calls=10] [--no-install]
//                      [--no-extras] [--no-write] [--pages=shoelace,grid] (only those pages, no tasks: use with --results-dir)
import { parseArgs } from 'node:util';
import { foundationFigures } from './lib/foundation.mjs';
import { startFixtures } from './lib/fixture-server.mjs';
import { mkdirSync } from 'node:fs';
import { runExtras } from './lib/extras.mjs';
import { writeReport } from './lib/report.mjs';
import { RESULTS_DIR } from './lib/suite.mjs';

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    servers: { type: 'string' },
    calls: { type: 'string', default: '10' },
    'no-install': { type: 'boolean', default: false },
    'no-extras': { type: 'boolean', default: false },
    'no-write': { type: 'boolean', default: false },
    'results-dir': { type: 'string' },
    pages: { type: 'string' },
  },
});

const t0 = Date.now();
const log = (message) => process.stderr.write(`[bench +${((Date.now() - t0) / 1000).toFixed(1)}s] ${message}\n`);

/** What stdout gets: the foundation figures, the targets' verdicts and the extras, not every sample. */
function brief(summary) {
  const comparison = summary.comparison;
  return {
    ...summary,
    comparison: comparison && {
      calls_per_figure: comparison.calls_per_figure,
      servers: Object.fromEntries(Object.entries(comparison.servers).map(([id, s]) => [id, s.skipped ? { skipped: s.skipped } : s.error ? { error: s.error } : { cold_start_ms: s.cold_start_ms, server_rss_mb: s.server_rss_mb, browser_rss_mb: s.browser_rss_mb, tasks: Object.fromEntries(Object.entries(s.tasks).map(([t, r]) => [t, { ok: r.ok ?? false, calls: r.calls, chars: r.chars, ...(r.failed ? { failed: r.failed } : {}), ...(r.skipped ? { skipped: r.skipped } : {}) }])) }])),
      targets: Object.fromEntries(Object.entries(comparison.targets).map(([k, v]) => [k, v.status])),
      results: 'bench/results/latest.json',
    },
  };
}

async function main() {
  const started = Date.now();
  const fixtures = await startFixtures();
  // The real apps' pages are measured beside the fixtures when they are installed.
  const { missingApps, startRealAppServer } = await import('../test/helpers/real-apps.mjs');
  if (missingApps().length === 0) fixtures.apps = await startRealAppServer();
  else log(`real-app pages skipped: missing ${missingApps().join(', ')}`);
  const summary = { version: 1, date: new Date().toISOString() };
  try {
    log('foundation: cold start, 20 screenshots, RSS');
    summary.foundation = await foundationFigures(fixtures).catch((error) => ({ error: error.message.slice(0, 500) }));
    log(JSON.stringify(summary.foundation));
    if (!flags.quick) {
      const { runSuite } = await import('./lib/suite.mjs');
      summary.comparison = await runSuite(fixtures, { flags, log });
    }
  } finally {
    await fixtures.close();
    await fixtures.apps?.close();
  }
  if (!flags['no-extras']) summary.extras = await runExtras({ log });
  summary.elapsed_s = Math.round((Date.now() - started) / 100) / 10;
  if (summary.comparison && !flags['no-write']) {
    const dir = flags['results-dir'] ?? RESULTS_DIR;
    mkdirSync(dir, { recursive: true });
    await writeReport(summary, dir);
    log(`wrote ${dir}/latest.json, latest.md, chart.png`);
  }
  process.stdout.write(`${JSON.stringify(brief(summary), null, 2)}\n`);
}

main().catch((error) => {
  process.stderr.write(`[bench] failed: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});
