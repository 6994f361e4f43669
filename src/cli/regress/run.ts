import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { BrowserManager } from '../../browser/manager.js';
import type { ServerOptions } from '../../config.js';
import { toToolError } from '../../mcp/dispatch.js';
import { enabledTools } from '../../mcp/server.js';
import { TabGroup } from '../../browser/group/index.js';
import type { Tool } from '../../tools/tool.js';
import { ScriptParseError } from '../script.js';
import { startupLine } from '../startup-report.js';
import { loadCapture, retire, shootCapture, type Lane, type Loaded } from './capture.js';
import { compareShot, type Outcome } from './compare.js';
import { regressManager } from './launch.js';
import { capturesOf, parseConfig, parseShard, shardOf, type Capture } from './config.js';
import { PhaseTotals, Phases } from './phases.js';
import { acceptCommand, summarize, writeReports, type CaptureResult, type Report } from './report.js';
import { NetworkWatch } from './stillness.js';
import { LocalFiles } from '../local-files.js';

/** Tabs one Firefox serves in parallel before another process is worth starting. */
const TABS_PER_PROCESS = 4;
/** Captures a worker loads ahead while it shoots the current one, unless --prefetch says otherwise. */
export const DEFAULT_PREFETCH = 1;
/** Exit code when the run could not be done: no Firefox, a page that did not load or answered an HTTP error, a step that failed. */
export const EXIT_NOT_RUN = 3;
export interface RegressFlags {
  baselineDir?: string;
  reportDir?: string;
  update: boolean;
  ci: boolean;
  workers: number;
  /** Captures each worker loads ahead (in windows of their own) while it shoots the current one; 0: one at a time. */
  prefetch?: number;
  shard?: string;
  /** Only the captures whose id (page@viewport) matches this regular expression. */
  grep?: string;
  /** What an unstable capture that differs from its baseline does: fail the run, or only warn. */
  flaky: 'fail' | 'warn';
  /** Print the startup phases of the first Firefox and each capture's phases to stderr. */
  verbose?: boolean;
}

interface Worker {
  manager: BrowserManager;
  /** Holds the lanes' anchor tabs. */
  anchors: TabGroup;
  network: Promise<NetworkWatch>;
  /** One window per capture in flight: the one being shot and the ones loading ahead. */
  lanes: Lane[];
  /** Captures' sessions being closed (their tabs and user contexts removed) while the worker goes on. */
  closing: Promise<unknown>[];
}

type RunContext = { tools: Tool[]; options: ServerOptions; flags: RegressFlags; baselineDir: string; reportDir: string; totals: PhaseTotals; localFiles: LocalFiles };

/** A capture on its way: its page loading (or loaded) in a lane of the worker. */
interface InFlight {
  capture: Capture;
  lane: Lane;
  phases: Phases;
  started: number;
  loaded: Promise<Loaded>;
}

function resultOf(flight: InFlight, outcome: Outcome, ctx: RunContext): CaptureResult {
  const { capture, phases } = flight;
  phases.mark('compare');
  ctx.totals.print(capture.id, phases);
  const limits = { ...(capture.page.maxDiffPixels !== undefined ? { maxDiffPixels: capture.page.maxDiffPixels } : {}), ...(capture.page.maxDiffRatio !== undefined ? { maxDiffRatio: capture.page.maxDiffRatio } : {}) };
  return { id: capture.id, page: capture.page.name, viewport: capture.viewport.name, ...limits, ...outcome, ms: Math.round(performance.now() - flight.started) };
}

const failed = (error: unknown): Outcome => ({ status: 'error', failure: true, message: toToolError(error).message });

/**
 * One worker: one capture is made still and shot while the next ones load in windows of their own (each in a user
 * context of its own, as always), and the comparison of a shot runs beside the next capture (the diff is CPU in this
 * process, the capture waits on Firefox). User contexts are removed in the background for the same reason.
 */
async function runWorker(worker: Worker, queue: Capture[], ctx: RunContext, report: (result: CaptureResult) => void, shotAt: () => void): Promise<void> {
  const free = [...worker.lanes];
  const inFlight: InFlight[] = [];
  const fill = (): void => {
    for (let lane = free.shift(); lane; lane = free.shift()) {
      const capture = queue.shift();
      if (!capture) {
        free.unshift(lane);
        return;
      }
      const phases = new Phases(ctx.totals);
      const loaded = loadCapture(worker.manager, worker.anchors, lane, capture, ctx.tools, ctx.options, phases, ctx.localFiles);
      loaded.catch(() => undefined); // awaited in turn below
      inFlight.push({ capture, lane, phases, started: performance.now(), loaded });
    }
  };
  let comparing: Promise<void> = Promise.resolve();
  fill();
  for (let flight = inFlight.shift(); flight; flight = inFlight.shift()) {
    let outcome: () => Promise<Outcome>;
    try {
      const loaded = await flight.loaded;
      flight.phases.mark('wait');
      try {
        const shot = await shootCapture(loaded, await worker.network, flight.capture, ctx.options.timeoutAction, flight.phases);
        shotAt();
        const target = { capture: flight.capture, flags: ctx.flags, baselineDir: ctx.baselineDir, reportDir: ctx.reportDir };
        outcome = () => compareShot(shot, target);
      } catch (error) {
        outcome = () => Promise.resolve(failed(error));
      }
      const closed = new Promise<void>((resolve) => {
        flight.lane.retiring = () => loaded.group.dispose().catch(() => undefined).then(resolve);
      });
      worker.closing.push(closed);
    } catch (error) {
      outcome = () => Promise.resolve(failed(error));
    }
    free.push(flight.lane);
    fill();
    await comparing;
    const current = flight;
    comparing = outcome().then((result) => report(resultOf(current, result, ctx)));
  }
  await comparing;
  for (const lane of worker.lanes) retire(lane);
  await Promise.all(worker.closing);
}

/** 3: the run could not be done (a capture could not be made); 1: screenshots changed; 0: all good. */
function exitCode(results: CaptureResult[]): number {
  if (results.some((result) => result.status === 'error')) return EXIT_NOT_RUN;
  return results.some((result) => result.failure) ? 1 : 0;
}

/**
 * `firefox-use regress CONFIG`: 0 when nothing failed, 1 on any failure, 2 for a config that does not parse.
 * `first`: a Firefox already starting (main starts it before these modules load); closed unused on a config error.
 */
export async function runRegress(configPath: string, options: ServerOptions, flags: RegressFlags, first?: BrowserManager): Promise<number> {
  const startedAt = new Date();
  const started = performance.now();
  const tools = enabledTools(options);
  let captures: Capture[];
  let shard: { index: number; total: number } | undefined;
  try {
    captures = capturesOf(parseConfig(readFileSync(configPath, 'utf8'), configPath, tools, options.viewport, (text) => process.stderr.write(`firefox-use regress: ${configPath}:${text}\n`)));
    if (flags.grep !== undefined) {
      const pattern = new RegExp(flags.grep);
      captures = captures.filter((capture) => pattern.test(capture.id));
      if (!captures.length) throw new Error(`--grep ${flags.grep} matches no capture (ids are page@viewport)`);
    }
    if (flags.shard) {
      shard = parseShard(flags.shard);
      captures = shardOf(captures, shard);
    }
  } catch (error) {
    const message = error instanceof ScriptParseError ? `${configPath}:${error.line}: ${error.reason}` : `${configPath}: ${(error as Error).message}`;
    process.stderr.write(`firefox-use regress: ${message}\n`);
    await first?.close();
    return 2;
  }
  const baselineDir = resolve(flags.baselineDir ?? join(dirname(configPath), 'baselines'));
  const reportDir = resolve(flags.reportDir ?? (shard ? join('firefox-use-report', `shard-${shard.index}-of-${shard.total}`) : 'firefox-use-report'));
  const workerCount = Math.max(1, Math.min(flags.workers, captures.length || 1));
  // On a WebDriver endpoint (a Grid) each worker gets a session of its own, which the Grid spreads over its slots.
  const processes = options.webdriverUrl ? workerCount : Math.ceil(workerCount / TABS_PER_PROCESS);
  const managers = Array.from({ length: processes }, (_, i) => (i === 0 && first ? first : regressManager(options)));
  const lanes = 1 + Math.max(0, flags.prefetch ?? DEFAULT_PREFETCH);
  const workers: Worker[] = Array.from({ length: workerCount }, (_, i) => {
    const manager = managers[i % processes]!;
    const anchors = new TabGroup(manager);
    // The first worker of a Firefox takes the first window's selected tab; every other lane needs a window of its own.
    const laneList: Lane[] = Array.from({ length: lanes }, (_, lane) => ({ anchor: null, foreground: i < processes && lane === 0 ? 'tab' : 'window', retiring: null }));
    return { manager, anchors, network: anchors.browser().then((browser) => new NetworkWatch(browser)), lanes: laneList, closing: [] };
  });
  const totals = new PhaseTotals(Boolean(flags.verbose) || process.env['FIREFOX_USE_TRACE_REGRESS'] === '1');
  const ctx: RunContext = { tools, options, flags, baselineDir, reportDir, totals, localFiles: new LocalFiles() };
  const results: CaptureResult[] = [];
  const queue = [...captures];
  let firstCaptureAt: number | null = null;
  const progress = (result: CaptureResult): void => {
    results.push(result);
    const line = `${result.failure ? '✗' : '✓'} ${result.id} ${result.status}${result.message ? ` — ${result.message}` : ''} (${result.ms} ms)`;
    // The counter goes to CI logs too: a slow suite must show how far it got.
    process.stderr.write(`[${results.length}/${captures.length}] ${line}\n`);
  };
  try {
    await Promise.all(workers.map((worker) => runWorker(worker, queue, ctx, progress, () => (firstCaptureAt ??= performance.now()))));
    if (totals.enabled) process.stderr.write(totals.summary(captures.length));
    if (flags.verbose) process.stderr.write(startupLine('regress', managers[0]!.lastStartup, firstCaptureAt));
  } finally {
    for (const worker of workers) void worker.network.then((watch) => watch.close()).catch(() => undefined);
    await Promise.all(managers.map((manager) => manager.close()));
    await ctx.localFiles.close();
  }
  results.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const report: Report = { tool: 'firefox-use regress', config: configPath, ...(shard ? { shard } : {}), ...(flags.baselineDir ? { baselineDir: flags.baselineDir } : {}), startedAt: startedAt.toISOString(), ms: Math.round(performance.now() - started), summary: summarize(results), results };
  const paths = await writeReports(report, reportDir);
  const s = report.summary;
  process.stdout.write(`${JSON.stringify({ summary: s, ms: report.ms, reports: paths })}\n`);
  process.stderr.write(`firefox-use regress: ${s.total} captures, ${s.passed} passed, ${s.failed} failed, ${s.new} new, ${s.updated} updated, ${s.flaky} flaky, ${s.error} errors in ${report.ms} ms; report: ${paths.html}\n`);
  const accept = acceptCommand(report);
  if (accept) process.stderr.write(`firefox-use regress: to accept the changes: ${accept}\n`);
  return exitCode(report.results);
}
