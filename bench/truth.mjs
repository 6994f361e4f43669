#!/usr/bin/env node
// The truth oracle (issue 36, deliverable 2): scripted actions on real apps through the MCP tools, each reply
// judged against full reads before the action and after a long settle. Writes bench/results/<out>.json and, for
// the main run, <out>.md (with the --base run's reply sizes as the "before" column when its JSON exists).
//   node bench/truth.mjs [--apps a,b] [--server-dir PATH] [--out truth] [--base truth-base] [--rejudge]
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import { installPeers } from './lib/install.mjs';
import { APPS } from './lib/truth/apps.mjs';
import { judge } from './lib/truth/compare.mjs';
import { renderMarkdown } from './lib/truth/report.mjs';
import { runApp } from './lib/truth/runner.mjs';
import { TruthSession, missingPackages, startApps } from './lib/truth/session.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const RESULTS = join(ROOT, 'bench/results');

function parseArgs(argv) {
  const opts = { serverDir: ROOT, out: 'truth', base: 'truth-base', apps: null };
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--server-dir') opts.serverDir = resolve(value);
    else if (flag === '--out') opts.out = value;
    else if (flag === '--base') opts.base = value;
    else if (flag === '--apps') opts.apps = value.split(',');
    else if (flag === '--rejudge') {
      opts.rejudge = true;
      i -= 1;
    }
    else throw new Error(`unknown flag ${flag}`);
    i += 1;
  }
  return opts;
}

const log = (line) => process.stderr.write(`${line}\n`);

/** Judges a saved run again with the current oracle (after a fix of compare.mjs), from its kept reads. */
function rejudge(opts) {
  const saved = JSON.parse(readFileSync(join(RESULTS, `${opts.out}.json`), 'utf8'));
  const reads = JSON.parse(readFileSync(join(RESULTS, `${opts.out}-reads.tmp`), 'utf8'));
  saved.meta.rejudgedAt = new Date().toISOString();
  for (const [i, r] of saved.records.entries()) {
    if (r.judged && reads[i]) r.verdict = judge({ reply: r.reply, replyChars: r.replyChars, ...reads[i] });
  }
  return saved;
}

function write(opts, { meta, records }, reads) {
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, `${opts.out}.json`), `${JSON.stringify({ meta, records }, null, 1)}\n`);
  if (reads) writeFileSync(join(RESULTS, `${opts.out}-reads.tmp`), JSON.stringify(reads));
  const basePath = join(RESULTS, `${opts.base}.json`);
  const base = opts.out !== opts.base && existsSync(basePath) ? JSON.parse(readFileSync(basePath, 'utf8')) : null;
  writeFileSync(join(RESULTS, `${opts.out}.md`), renderMarkdown({ meta, records, base }));
  log(`wrote bench/results/${opts.out}.json and .md (${records.length} records, ${meta.seconds} s)`);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.rejudge) return write(opts, rejudge(opts), null);
  if (missingPackages().length) {
    const failed = installPeers(log);
    if (failed || missingPackages().length) throw new Error(failed ?? `still missing: ${missingPackages().join(', ')}`);
  }
  const chosen = opts.apps ? APPS.filter((app) => opts.apps.includes(app.id)) : APPS;
  const started = Date.now();
  const loadStart = loadavg();
  const apps = await startApps();
  const records = [];
  const failures = [];
  // One server (one Firefox) per app: an app's leftovers (a dialog, a focused frame) cannot reach the next one.
  let current = null;
  // Ctrl-C or a kill still closes the server and its Firefox (the machine is shared).
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, async () => {
      await current?.close();
      process.exit(130);
    });
  }
  for (const app of chosen) {
    const session = new TruthSession({ serverDir: opts.serverDir, log });
    current = session;
    log(`${app.id} (${app.script.filter(([l]) => l !== 'nav').length} actions)`);
    try {
      await session.start();
      records.push(...(await runApp(session, apps, app, log)));
    } catch (error) {
      log(`  ${app.id} failed: ${error.stack}`);
      failures.push({ app: app.id, error: String(error.message) });
    } finally {
      await session.close();
    }
  }
  await apps.close();
  const commit = spawnSync('git', ['log', '-1', '--format=%h %s'], { cwd: opts.serverDir, encoding: 'utf8' }).stdout?.trim().slice(0, 80) ?? '';
  const meta = {
    serverDir: opts.serverDir, commit, startedAt: new Date(started).toISOString(), seconds: Math.round((Date.now() - started) / 1000),
    loadavgStart: loadStart.map((l) => Number(l.toFixed(2))), loadavgEnd: loadavg().map((l) => Number(l.toFixed(2))), failures,
  };
  // The reads (full snapshots, megabytes) go to a .tmp file git ignores; the committed JSON has replies and verdicts.
  const reads = records.map((r) => r.reads ?? null);
  for (const r of records) delete r.reads;
  write(opts, { meta, records }, reads);
  if (failures.length) process.exitCode = 1;
}

main().catch((error) => {
  log(error.stack);
  process.exit(1);
});
