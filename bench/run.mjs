#!/usr/bin/env node
// `npm run bench`: firefox-use's own figures, then the side-by-side suite against the peers, then what the
// other bench scripts report. Progress goes to stderr; stdout gets one JSON summary at the end. Full results:
// bench/results/latest.json, latest.md and chart.png.
//
//   node bench/run.mjs [--quick] [--servers=firefox-use,playwright,chrome-devtools] [--calls=10] [--no-install]
//                      [--no-extras] [--no-write]
import { parseArgs } from 'node:util';
import { foundationFigures } from './lib/foundation.mjs';
import { startFixtures } from './lib/fixture-server.mjs';
import { runExtras } from './lib/extras.mjs';

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    servers: { type: 'string' },
    calls: { type: 'string', default: '10' },
    'no-install': { type: 'boolean', default: false },
    'no-extras': { type: 'boolean', default: false },
    'no-write': { type: 'boolean', default: false },
  },
});

const log = (message) => process.stderr.write(`[bench] ${message}\n`);

async function main() {
  const started = Date.now();
  const fixtures = await startFixtures();
  const summary = { version: 1, date: new Date().toISOString() };
  try {
    log('foundation: cold start, 20 screenshots, RSS');
    summary.foundation = await foundationFigures(fixtures);
    log(JSON.stringify(summary.foundation));
    if (!flags.quick) {
      const { runSuite } = await import('./lib/suite.mjs').catch(() => ({}));
      if (runSuite) {
        summary.comparison = await runSuite(fixtures, { flags, log });
      }
    }
  } finally {
    await fixtures.close();
  }
  if (!flags['no-extras']) summary.extras = await runExtras({ log });
  summary.elapsed_s = Math.round((Date.now() - started) / 100) / 10;
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
}

main().catch((error) => {
  process.stderr.write(`[bench] failed: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});
