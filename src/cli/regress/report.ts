import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export type Status = 'passed' | 'failed' | 'new' | 'updated' | 'flaky' | 'error';

export interface CaptureResult {
  id: string;
  page: string;
  viewport: string;
  status: Status;
  /** True when this result makes the run fail. */
  failure: boolean;
  ms: number;
  message?: string;
  changedPixels?: number;
  ratio?: number;
  threshold?: number;
  box?: { x: number; y: number; width: number; height: number } | null;
  /** Paths relative to the report directory. */
  images?: { baseline?: string; actual?: string; diff?: string };
  missingMasks?: string[];
  /** The page never gave two equal screenshots in a row; the last one was compared. */
  unstable?: boolean;
}

export interface Report {
  tool: 'firefox-use regress';
  config: string;
  shard?: { index: number; total: number };
  startedAt: string;
  ms: number;
  summary: Record<Status, number> & { total: number; failures: number };
  results: CaptureResult[];
}

export function summarize(results: CaptureResult[]): Report['summary'] {
  const summary = { total: results.length, failures: 0, passed: 0, failed: 0, new: 0, updated: 0, flaky: 0, error: 0 };
  for (const result of results) {
    summary[result.status]++;
    if (result.failure) summary.failures++;
  }
  return summary;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

function failureType(r: CaptureResult): string {
  if (r.status === 'new') return 'baseline_missing';
  return r.unstable ? 'screenshot_changed_unstable' : 'screenshot_changed';
}

export function junitXml(report: Report): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const failures = report.results.filter((r) => r.failure && r.status !== 'error').length;
  const errors = report.results.filter((r) => r.status === 'error').length;
  const skipped = report.results.filter((r) => r.status === 'flaky').length;
  const counts = `tests="${report.results.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(report.ms)}"`;
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="firefox-use regress" ${counts}>`];
  lines.push(`  <testsuite name="${escape(report.config)}${report.shard ? ` shard ${report.shard.index}/${report.shard.total}` : ''}" ${counts} timestamp="${report.startedAt}">`);
  for (const r of report.results) {
    lines.push(`    <testcase classname="regress.${escape(r.page)}" name="${escape(r.id)}" time="${seconds(r.ms)}">`);
    const message = escape(r.message ?? r.status);
    if (r.status === 'error') lines.push(`      <error type="capture_error" message="${message}"/>`);
    else if (r.failure) lines.push(`      <failure type="${failureType(r)}" message="${message}">${escape(JSON.stringify({ changedPixels: r.changedPixels, ratio: r.ratio, box: r.box, images: r.images }))}</failure>`);
    else if (r.status === 'flaky') lines.push(`      <skipped message="${message}"/>`);
    if (r.status !== 'passed') lines.push(`      <system-out>${escape(`${r.status}: ${r.message ?? ''}`)}</system-out>`);
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}

async function dataUri(dir: string, path: string | undefined): Promise<string | null> {
  if (!path) return null;
  const data = await readFile(join(dir, path)).catch(() => null);
  return data ? `data:image/png;base64,${data.toString('base64')}` : null;
}

/** One self-contained HTML file: images inlined, baseline / actual / diff side by side and a slider between the first two. */
export async function htmlReport(report: Report, dir: string): Promise<string> {
  const order: Status[] = ['error', 'failed', 'new', 'flaky', 'updated', 'passed'];
  const sorted = [...report.results].sort((a, b) => order.indexOf(a.status) - order.indexOf(b.status) || (a.id < b.id ? -1 : 1));
  const sections: string[] = [];
  for (const r of sorted) {
    const [baseline, actual, diff] = await Promise.all([dataUri(dir, r.images?.baseline), dataUri(dir, r.images?.actual), dataUri(dir, r.images?.diff)]);
    const figure = (label: string, src: string | null) => (src ? `<figure><figcaption>${label}</figcaption><img class="${label}" alt="${label}" src="${src}"></figure>` : '');
    const slider =
      baseline && actual
        ? `<div class="slider"><div class="stack"><img alt="baseline" src="${baseline}"><img alt="actual" class="top" src="${actual}"></div><input type="range" min="0" max="100" value="50" aria-label="baseline / actual"></div>`
        : '';
    // A failed or updated capture's message already gives the count: only the threshold is added then.
    const counted = r.status === 'failed' || r.status === 'updated';
    const stats = r.changedPixels === undefined ? '' : counted ? `, threshold ${r.threshold}` : ` — ${r.changedPixels} px changed (${((r.ratio ?? 0) * 100).toFixed(3)}%), threshold ${r.threshold}`;
    const images = baseline || actual || diff ? `<div class="row">${figure('baseline', baseline)}${figure('actual', actual)}${figure('diff', diff)}</div>${slider}` : '';
    sections.push(`<section class="${r.status}"><h2><span class="badge">${r.status}</span> ${escape(r.id)}</h2><p>${escape(r.message ?? '')}${escape(stats)} · ${r.ms} ms</p>${images}</section>`);
  }
  const s = report.summary;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>firefox-use regress: ${s.failures ? `${s.failures} failing` : 'all passed'}</title>
<style>body{font:14px system-ui,sans-serif;margin:16px;background:#fafafa;color:#222}h1{font-size:20px;margin:0 0 8px}h2{font-size:15px;margin:0}
section{background:#fff;border:1px solid #ddd;border-radius:6px;padding:10px;margin:10px 0}.badge{display:inline-block;padding:1px 6px;border-radius:4px;background:#ccc;font-size:12px}
.failed .badge,.error .badge{background:#d33;color:#fff}.new .badge{background:#36c;color:#fff}.flaky .badge{background:#e90}.passed .badge{background:#3a3;color:#fff}
.row{display:flex;gap:8px;align-items:flex-start}figure{margin:0;flex:1;min-width:0}figcaption{font-size:12px;color:#555}figure img{max-width:100%;border:1px solid #ccc;display:block}
.slider{margin-top:8px;max-width:700px}.stack{position:relative}.stack img{display:block;max-width:100%}.stack .top{position:absolute;left:0;top:0;clip-path:inset(0 50% 0 0)}.slider input{width:100%}</style></head>
<body><h1>firefox-use regress — ${s.total} captures: ${s.passed} passed, ${s.failed} failed, ${s.new} new, ${s.updated} updated, ${s.flaky} flaky, ${s.error} errors</h1>
<p>${escape(report.config)}${report.shard ? ` · shard ${report.shard.index}/${report.shard.total}` : ''} · ${report.startedAt} · ${report.ms} ms</p>
${sections.join('\n')}
<script>for (const s of document.querySelectorAll('.slider')) { const i = s.querySelector('input'), t = s.querySelector('.top'); i.addEventListener('input', () => { t.style.clipPath = 'inset(0 ' + (100 - i.value) + '% 0 0)'; }); }</script>
</body></html>
`;
}

/** Writes report.json, junit.xml and report.html into `dir`; returns their paths. */
export async function writeReports(report: Report, dir: string): Promise<{ json: string; junit: string; html: string }> {
  await mkdir(dir, { recursive: true });
  const paths = { json: join(dir, 'report.json'), junit: join(dir, 'junit.xml'), html: join(dir, 'report.html') };
  await writeFile(paths.json, JSON.stringify(report, null, 2) + '\n');
  await writeFile(paths.junit, junitXml(report));
  await writeFile(paths.html, await htmlReport(report, dir));
  return paths;
}
