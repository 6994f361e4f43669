import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { BrowserManager } from '../../browser/manager.js';
import { navigateTab } from '../../browser/navigation.js';
import type { Tab } from '../../browser/tab.js';
import type { ServerOptions } from '../../config.js';
import { toToolError } from '../../mcp/dispatch.js';
import { enabledTools } from '../../mcp/server.js';
import { Session } from '../../mcp/session.js';
import type { Tool } from '../../tools/tool.js';
import { ScriptParseError } from '../script.js';
import { ScriptRunner } from '../script-runner.js';
import { startupLine } from '../startup-report.js';
import { capturesOf, parseConfig, parseShard, shardOf, type Capture } from './config.js';
import { diffPngs, overLimits } from './diff.js';
import { acceptCommand, summarize, writeReports, type CaptureResult, type Report } from './report.js';
import { NetworkWatch, makeStill, waitFor } from './stillness.js';

/** Tabs one Firefox serves in parallel before another process is worth starting. */
const TABS_PER_PROCESS = 4;
const MAX_ATTEMPTS = 5;
/** Exit code when the run could not be done: no Firefox, a page that did not load or answered an HTTP error, a step that failed. */
export const EXIT_NOT_RUN = 3;

export interface RegressFlags {
  baselineDir?: string;
  reportDir?: string;
  update: boolean;
  ci: boolean;
  workers: number;
  shard?: string;
  /** Only the captures whose id (page@viewport) matches this regular expression. */
  grep?: string;
  /** What an unstable capture that differs from its baseline does: fail the run, or only warn. */
  flaky: 'fail' | 'warn';
  /** Print the startup phases of the first Firefox to stderr. */
  verbose?: boolean;
}

interface Worker {
  manager: BrowserManager;
  session: Session;
  network: Promise<NetworkWatch>;
  /** A blank tab that keeps the worker's window open; each capture's tab opens beside it (a new window costs ~300 ms). */
  anchor: Tab | null;
  /** The first worker of a Firefox takes the first window's selected tab; the others need windows of their own. */
  foreground: 'tab' | 'window';
  /** Captures' sessions being closed (their tabs and user contexts removed) while the worker goes on. */
  closing: Promise<unknown>[];
}

const TRACE = process.env['FIREFOX_USE_TRACE_REGRESS'] === '1';

/** Phase timings of one capture, printed to stderr with FIREFOX_USE_TRACE_REGRESS=1. */
class Phases {
  private last = performance.now();
  private readonly parts: string[] = [];
  mark(name: string): void {
    const now = performance.now();
    if (TRACE) this.parts.push(`${name} ${(now - this.last).toFixed(0)}`);
    this.last = now;
  }
  print(id: string): void {
    if (TRACE) process.stderr.write(`[regress] ${id}: ${this.parts.join(', ')} ms\n`);
  }
}

async function screenshot(tab: Tab, fullPage: boolean): Promise<Buffer> {
  return Buffer.from(await tab.screenshotBase64(undefined, fullPage ? 'document' : 'viewport'), 'base64');
}

/**
 * A tab for one capture, in a BiDi user context of its own (cookies, storage and cache start empty, whatever ran
 * before), opened selected in the worker's window, which a blank anchor tab keeps open between captures.
 */
async function captureTab(worker: Worker, session: Session, viewport: { width: number; height: number }): Promise<Tab> {
  const browser = await session.browser();
  if (!worker.anchor || worker.anchor.isClosed) {
    worker.anchor = await browser.createTab(worker.session.id, { foreground: worker.foreground });
    worker.session.remember(worker.anchor);
  }
  const tab = await browser.createTab(session.id, { viewport, foreground: 'tab', beside: worker.anchor });
  session.remember(tab);
  session.activeTabId = tab.id;
  return tab;
}

/** A mask that matches nothing covers nothing: the selector is wrong or the page is not the one meant. */
function assertMasksFound(missing: string[]): void {
  if (missing.length) throw new Error(`mask ${missing.map((m) => JSON.stringify(m)).join(', ')} matched nothing on the page: fix the selector, or drop it from the config.`);
}

/** An HTTP error page is not the page the suite meant, unless the config says that status is expected. */
function assertStatus(tab: Tab, expected: number[] | undefined): void {
  const document = tab.network.ring.entries().filter((entry) => entry.type === 'document' && entry.status !== undefined).pop();
  const status = document?.status;
  if (status === undefined) return; // file:, data: and about: pages have no HTTP status
  if (expected ? !expected.includes(status) : status >= 400) {
    const want = expected ? `expected ${expected.join(' or ')}` : `say expected_status: ${status} in the config if this page is meant to be an error page`;
    throw new Error(`the page answered HTTP ${status} (${want}).`);
  }
}

/** Loads the page, makes it still and captures until two consecutive screenshots are the same bytes. */
async function stableCapture(worker: Worker, session: Session, capture: Capture, tools: Tool[], options: ServerOptions, phases: Phases): Promise<{ png: Buffer; stable: boolean }> {
  const network = await worker.network;
  const tab = await captureTab(worker, session, capture.viewport);
  phases.mark('tab');
  // The config's own pages (file: ones included) are the user's, not a page's or an agent's.
  if (capture.page.url) {
    await navigateTab(tab, capture.page.url, { ...options, scriptFiles: [capture.page.url] });
    assertStatus(tab, capture.page.expectedStatus);
  }
  phases.mark('load');
  if (capture.page.steps.length) {
    const runner = new ScriptRunner(session, tools, options, `${capture.id}-step`);
    let failure: string | null = null;
    await runner.runAll(capture.page.steps, (outcome) => {
      if (!outcome.ok && !outcome.skipped && !failure) failure = `step ${outcome.step} (line ${outcome.line}, ${outcome.tool}) failed: ${JSON.stringify(outcome.error)}`;
    });
    if (failure) throw new Error(failure);
    phases.mark('steps');
  }
  if (capture.page.waitFor) await waitFor(tab, capture.page.waitFor, options.timeoutAction);
  let missing = await makeStill(tab, network, capture.page.mask, options.timeoutAction);
  phases.mark('still');
  let previous = await screenshot(tab, capture.page.fullPage);
  for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
    // Settle again before every capture: masks are measured anew (a masked clock may have just got its text, or
    // a script may have started an animation), so two equal captures mean the masked page, not stale boxes.
    missing = await makeStill(tab, network, capture.page.mask, options.timeoutAction);
    const current = await screenshot(tab, capture.page.fullPage);
    if (current.equals(previous)) {
      phases.mark(`shots x${attempt + 1}`);
      assertMasksFound(missing);
      return { png: current, stable: true };
    }
    previous = current;
  }
  phases.mark(`shots x${MAX_ATTEMPTS}`);
  assertMasksFound(missing);
  return { png: previous, stable: false };
}

type RunContext = { tools: Tool[]; options: ServerOptions; flags: RegressFlags; baselineDir: string; reportDir: string };

/**
 * Captures in the browser, then hands back the comparison still to do, so the worker's next capture loads while
 * this one is diffed (the diff is CPU in this process, the capture waits on Firefox); the capture's user context
 * is removed in the background for the same reason.
 */
async function runCapture(worker: Worker, capture: Capture, ctx: RunContext): Promise<() => Promise<CaptureResult>> {
  const started = performance.now();
  const base = { id: capture.id, page: capture.page.name, viewport: capture.viewport.name, ...(capture.page.maxDiffPixels !== undefined ? { maxDiffPixels: capture.page.maxDiffPixels } : {}), ...(capture.page.maxDiffRatio !== undefined ? { maxDiffRatio: capture.page.maxDiffRatio } : {}) };
  const file = `${capture.id}.png`;
  const baselinePath = join(ctx.baselineDir, file);
  const images = join(ctx.reportDir, 'images');
  const phases = new Phases();
  const done = (result: Omit<CaptureResult, 'ms' | keyof typeof base>): CaptureResult => {
    phases.mark('compare');
    phases.print(capture.id);
    return { ...base, ...result, ms: Math.round(performance.now() - started) };
  };
  let shot: { png: Buffer; stable: boolean };
  // Its own cookies and storage, removed with its tabs when the capture is done.
  const session = new Session(worker.manager, true);
  try {
    shot = await stableCapture(worker, session, capture, ctx.tools, ctx.options, phases);
  } catch (error) {
    const failed = done({ status: 'error', failure: true, message: toToolError(error).message });
    await session.close();
    return () => Promise.resolve(failed);
  }
  worker.closing.push(session.close().catch(() => undefined));
  return () => compareShot(shot, { capture, ctx, base, baselinePath, images, done });
}

async function compareShot(
  shot: { png: Buffer; stable: boolean },
  { capture, ctx, baselinePath, images, done }: { capture: Capture; ctx: RunContext; base: object; baselinePath: string; images: string; done: (result: Omit<CaptureResult, 'ms' | 'id' | 'page' | 'viewport'>) => CaptureResult },
): Promise<CaptureResult> {
  await mkdir(images, { recursive: true });
  const actualRel = `images/${capture.id}.actual.png`;
  const extra = shot.stable ? {} : { unstable: true };
  const unstable = `the page never gave two equal screenshots in a row (${MAX_ATTEMPTS} tries)`;
  // An unstable shot is not reproducible: it becomes a baseline only when the user said unstable pages only warn.
  const acceptUnstable = ctx.flags.flaky === 'warn';
  const baseline = await readFile(baselinePath).catch(() => null);
  if (!baseline) {
    await writeFile(join(ctx.reportDir, actualRel), shot.png);
    if (!shot.stable && !acceptUnstable) {
      return done({ status: 'flaky', failure: true, message: `${unstable}; no baseline ${baselinePath}, and an unstable shot is not written as one under --flaky=fail (mask what moves)`, images: { actual: actualRel }, ...extra });
    }
    await mkdir(ctx.baselineDir, { recursive: true });
    await writeFile(baselinePath, shot.png);
    const written = ctx.flags.ci ? `no baseline ${baselinePath} (with --ci a missing baseline is an error; it was written for review)` : `baseline written to ${baselinePath}`;
    return done({ status: 'new', failure: ctx.flags.ci, message: shot.stable ? written : `${written}; warning: ${unstable}`, images: { actual: actualRel }, ...extra });
  }
  const diff = await diffPngs(baseline, shot.png, capture.page.colorThreshold);
  const failing = overLimits(diff, capture.page);
  const stats = { changedPixels: diff.changedPixels, ratio: diff.ratio, box: diff.box, ...extra };
  const what = `${diff.changedPixels} pixels changed (${(diff.ratio * 100).toFixed(3)}%)${diff.box ? ` in ${diff.box.width}x${diff.box.height} at ${diff.box.x},${diff.box.y}` : ''}`;
  if (!failing && shot.stable) return done({ status: 'passed', failure: false, ...stats });
  const rel = { baseline: `images/${capture.id}.baseline.png`, actual: actualRel, ...(diff.image ? { diff: `images/${capture.id}.diff.png` } : {}) };
  await Promise.all([copyFile(baselinePath, join(ctx.reportDir, rel.baseline)), writeFile(join(ctx.reportDir, rel.actual), shot.png), diff.image ? writeFile(join(ctx.reportDir, `images/${capture.id}.diff.png`), diff.image) : null]);
  if (!shot.stable) {
    // Within the threshold an unstable page is only a warning; beyond it, it hides a change unless it fails.
    if (!failing) return done({ status: 'flaky', failure: false, message: `${unstable}; the last one is within the threshold (${what})`, images: rel, ...stats });
    if (ctx.flags.update && acceptUnstable) {
      await writeFile(baselinePath, shot.png);
      return done({ status: 'updated', failure: false, message: `${what}; baseline rewritten from an unstable page (--flaky=warn): ${unstable}`, images: rel, ...stats });
    }
    const fails = ctx.flags.flaky === 'fail';
    const tail = ctx.flags.update ? '; baseline not rewritten (an unstable shot is accepted only with --update --flaky=warn)' : '';
    return done({ status: 'flaky', failure: fails, message: `${unstable}, and the last one differs from the baseline beyond the threshold: ${what}${tail}`, images: rel, ...stats });
  }
  if (ctx.flags.update) {
    await writeFile(baselinePath, shot.png);
    return done({ status: 'updated', failure: false, message: `${what}; baseline rewritten`, images: rel, ...stats });
  }
  return done({ status: 'failed', failure: true, message: what, images: rel, ...stats });
}

/** 3: the run could not be done (a capture could not be made); 1: screenshots changed; 0: all good. */
function exitCode(results: CaptureResult[]): number {
  if (results.some((result) => result.status === 'error')) return EXIT_NOT_RUN;
  return results.some((result) => result.failure) ? 1 : 0;
}

/** `firefox-use regress CONFIG`: 0 when nothing failed, 1 on any failure, 2 for a config that does not parse. */
export async function runRegress(configPath: string, options: ServerOptions, flags: RegressFlags): Promise<number> {
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
    return 2;
  }
  const baselineDir = resolve(flags.baselineDir ?? join(dirname(configPath), 'baselines'));
  const reportDir = resolve(flags.reportDir ?? (shard ? join('firefox-use-report', `shard-${shard.index}-of-${shard.total}`) : 'firefox-use-report'));
  const workerCount = Math.max(1, Math.min(flags.workers, captures.length || 1));
  // On a WebDriver endpoint (a Grid) each worker gets a session of its own, which the Grid spreads over its slots.
  const processes = options.webdriverUrl ? workerCount : Math.ceil(workerCount / TABS_PER_PROCESS);
  // Throwaway profiles: cookies and caches from earlier runs must not change a screenshot.
  const managers = Array.from({ length: processes }, () => new BrowserManager({ ...options, isolated: true }));
  const workers: Worker[] = Array.from({ length: workerCount }, (_, i) => {
    const manager = managers[i % processes]!;
    const session = new Session(manager);
    return { manager, session, network: session.browser().then((browser) => new NetworkWatch(browser)), anchor: null, foreground: i < processes ? 'tab' : 'window', closing: [] };
  });
  const ctx = { tools, options, flags, baselineDir, reportDir };
  const results: CaptureResult[] = [];
  const queue = [...captures];
  let firstCaptureAt: number | null = null;
  try {
    await Promise.all(
      workers.map(async (worker) => {
        const report = (result: CaptureResult): void => {
          results.push(result);
          const line = `${result.failure ? '✗' : '✓'} ${result.id} ${result.status}${result.message ? ` — ${result.message}` : ''} (${result.ms} ms)`;
          // The counter goes to CI logs too: a slow suite must show how far it got.
          process.stderr.write(`[${results.length}/${captures.length}] ${line}\n`);
        };
        // One comparison in flight per worker, beside its next capture.
        let comparing: Promise<void> = Promise.resolve();
        for (let capture = queue.shift(); capture; capture = queue.shift()) {
          const compare = await runCapture(worker, capture, ctx);
          firstCaptureAt ??= performance.now();
          await comparing;
          comparing = compare().then(report);
        }
        await comparing;
        await Promise.all(worker.closing);
      }),
    );
    if (flags.verbose) process.stderr.write(startupLine('regress', managers[0]!.lastStartup, firstCaptureAt));
  } finally {
    for (const worker of workers) void worker.network.then((watch) => watch.close()).catch(() => undefined);
    await Promise.all(managers.map((manager) => manager.close()));
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
