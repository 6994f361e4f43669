import { lstat, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

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
  /** The limits the capture was held to (absent: 0 pixels). */
  maxDiffPixels?: number;
  maxDiffRatio?: number;
  /** Reports before max_diff_pixels / max_diff_ratio: below 1 a ratio, from 1 up pixels. */
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
  /** --baseline-dir as given, for the command that accepts the changes. */
  baselineDir?: string;
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

/** Where `regress` writes a capture's images, relative to the report dir: nothing else is read back. */
export const IMAGE_PATH = /^images\/[\w.@-]+\.png$/;

const escape = (value: string | number) => String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

function failureType(r: CaptureResult): string {
  if (r.status === 'new') return 'baseline_missing';
  return r.unstable ? 'screenshot_changed_unstable' : 'screenshot_changed';
}

/**
 * `[[ATTACHMENT|path]]` lines, which GitLab and Jenkins turn into the test case's images. Paths are relative to the
 * working directory (the checkout, in CI) when `dir` is given.
 */
function attachments(r: CaptureResult, dir: string | undefined): string {
  const paths = [r.images?.baseline, r.images?.actual, r.images?.diff].filter((path): path is string => Boolean(path));
  return paths.map((path) => `\n[[ATTACHMENT|${dir ? relative(process.cwd(), join(dir, path)) : path}]]`).join('');
}

export function junitXml(report: Report, dir?: string): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const failures = report.results.filter((r) => r.failure && r.status !== 'error').length;
  const errors = report.results.filter((r) => r.status === 'error').length;
  const skipped = report.results.filter((r) => r.status === 'flaky').length;
  const counts = `tests="${report.results.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(report.ms)}"`;
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="firefox-use regress" ${counts}>`];
  lines.push(`  <testsuite name="${escape(report.config)}${report.shard ? ` shard ${report.shard.index}/${report.shard.total}` : ''}" ${counts} timestamp="${escape(report.startedAt)}">`);
  for (const r of report.results) {
    lines.push(`    <testcase classname="regress.${escape(r.page)}" name="${escape(r.id)}" time="${seconds(r.ms)}">`);
    const message = escape(r.message ?? r.status);
    if (r.status === 'error') lines.push(`      <error type="capture_error" message="${message}"/>`);
    else if (r.failure) lines.push(`      <failure type="${failureType(r)}" message="${message}">${escape(JSON.stringify({ changedPixels: r.changedPixels, ratio: r.ratio, box: r.box, images: r.images }))}</failure>`);
    else if (r.status === 'flaky') lines.push(`      <skipped message="${message}"/>`);
    if (r.status !== 'passed') lines.push(`      <system-out>${escape(`${r.status}: ${r.message ?? ''}${attachments(r, dir)}`)}</system-out>`);
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}

function limitsText(r: CaptureResult): string {
  const parts = [r.maxDiffPixels !== undefined ? `max ${r.maxDiffPixels} px` : '', r.maxDiffRatio !== undefined ? `max ${(r.maxDiffRatio * 100).toFixed(3)}%` : '', r.threshold !== undefined ? `threshold ${r.threshold}` : ''].filter(Boolean);
  return parts.length ? `allowed: ${parts.join(', ')}` : 'allowed: 0 px';
}

/**
 * Whether `path` (images/NAME.png) under `dir` is a regular file reached through no symlink: a symlinked images
 * folder or image could name any file of the machine.
 */
export async function plainImage(dir: string, path: string): Promise<boolean> {
  if (!IMAGE_PATH.test(path)) return false;
  // lstat does not follow the link: a symlink is neither a directory nor a file here.
  if (!(await lstat(join(dir, 'images')).catch(() => null))?.isDirectory()) return false;
  return (await lstat(join(dir, path)).catch(() => null))?.isFile() ?? false;
}

async function dataUri(dir: string, path: string | undefined): Promise<string | null> {
  if (!path || !(await plainImage(dir, path))) return null;
  const data = await readFile(join(dir, path)).catch(() => null);
  return data ? `data:image/png;base64,${data.toString('base64')}` : null;
}

const quote = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

/** The command that rewrites the baselines of the captures that changed, and only those; null when none did. */
export function acceptCommand(report: Report): string | null {
  const changed = report.results.filter((r) => r.failure && (r.status === 'failed' || r.status === 'flaky'));
  if (!changed.length) return null;
  const ids = changed.map((r) => r.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const parts = ['firefox-use', 'regress', report.config, '--update', ...(report.baselineDir ? ['--baseline-dir', report.baselineDir] : []), '--grep', `^(${ids.join('|')})$`];
  // An unstable page's shot is accepted only when the user says unstable pages are fine.
  if (changed.some((r) => r.unstable)) parts.push('--flaky=warn');
  return parts.map(quote).join(' ');
}

const ORDER: Status[] = ['error', 'failed', 'new', 'flaky', 'updated', 'passed'];

/**
 * One self-contained HTML file: an index and a status filter, then per capture baseline / actual / diff side by side
 * and a slider between the first two. Each image is embedded once; the slider's copies take it from there by script.
 */
export async function htmlReport(report: Report, dir: string): Promise<string> {
  const sorted = [...report.results].sort((a, b) => ORDER.indexOf(a.status) - ORDER.indexOf(b.status) || (a.id < b.id ? -1 : 1));
  const sections: string[] = [];
  const index: string[] = [];
  for (const [n, r] of sorted.entries()) {
    const anchor = `c${n}`;
    const [baseline, actual, diff] = await Promise.all([dataUri(dir, r.images?.baseline), dataUri(dir, r.images?.actual), dataUri(dir, r.images?.diff)]);
    const figure = (label: string, src: string | null) => (src ? `<figure><figcaption>${label}</figcaption><img class="${label}" id="${anchor}-${label}" alt="${label}" src="${src}"></figure>` : '');
    const slider =
      baseline && actual
        ? `<div class="slider"><div class="stack"><img alt="" data-from="${anchor}-baseline"><img alt="" class="top" data-from="${anchor}-actual"></div><input type="range" min="0" max="100" value="50" aria-label="slide between baseline and actual"></div>`
        : '';
    // A failed, updated or flaky capture's message already gives the count: only the limits are added then.
    const counted = r.status === 'failed' || r.status === 'updated' || r.status === 'flaky';
    const stats = r.changedPixels === undefined ? '' : counted ? `; ${limitsText(r)}` : ` — ${r.changedPixels} px changed (${((r.ratio ?? 0) * 100).toFixed(3)}%); ${limitsText(r)}`;
    const images = baseline || actual || diff ? `<div class="row">${figure('baseline', baseline)}${figure('actual', actual)}${figure('diff', diff)}</div>${slider}` : '';
    const label = r.failure && r.status === 'flaky' ? 'flaky, failing' : r.status;
    sections.push(`<section id="${anchor}" class="${escape(r.status)}${r.failure ? ' failure' : ''}"><h2><span class="badge">${escape(label)}</span> ${escape(r.id)}</h2><p>${escape(r.message ?? '')}${escape(stats)} · ${escape(r.ms)} ms</p>${images}</section>`);
    index.push(`<li class="${escape(r.status)}"><a href="#${anchor}"><span class="badge">${escape(label)}</span> ${escape(r.id)}</a></li>`);
  }
  const s = report.summary;
  const present = ORDER.filter((status) => s[status] > 0);
  const filter = present.map((status) => `<label><input type="checkbox" value="${status}" checked> ${status} (${s[status]})</label>`).join(' ');
  const accept = acceptCommand(report);
  const acceptHtml = accept ? `<p>To accept these changes as the new baselines:</p><pre id="accept">${escape(accept)}</pre>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>firefox-use regress: ${s.failures ? `${s.failures} failing` : 'all passed'}</title>
<style>body{font:14px system-ui,sans-serif;margin:16px;background:#fafafa;color:#222}h1{font-size:20px;margin:0 0 8px}h2{font-size:15px;margin:0}
section{background:#fff;border:1px solid #ddd;border-radius:6px;padding:10px;margin:10px 0}.badge{display:inline-block;padding:1px 6px;border-radius:4px;background:#ccc;font-size:12px}
.failed .badge,.error .badge,.failure .badge{background:#d33;color:#fff}.new .badge{background:#36c;color:#fff}.flaky .badge{background:#e90}.passed .badge{background:#3a3;color:#fff}
nav ul{columns:3;list-style:none;padding:0}nav li{margin:2px 0}nav a{color:inherit;text-decoration:none}pre{background:#fff;border:1px solid #ddd;padding:8px;white-space:pre-wrap;word-break:break-all}
.row{display:flex;gap:8px;align-items:flex-start}figure{margin:0;flex:1;min-width:0}figcaption{font-size:12px;color:#555}figure img{max-width:100%;border:1px solid #ccc;display:block}
.slider{margin-top:8px;max-width:700px}.stack{position:relative}.stack img{display:block;max-width:100%}.stack .top{position:absolute;left:0;top:0;clip-path:inset(0 50% 0 0)}.slider input{width:100%}.hidden{display:none}</style></head>
<body><h1>firefox-use regress — ${escape(s.total)} captures: ${escape(s.passed)} passed, ${escape(s.failed)} failed, ${escape(s.new)} new, ${escape(s.updated)} updated, ${escape(s.flaky)} flaky, ${escape(s.error)} errors</h1>
<p>${escape(report.config)}${report.shard ? ` · shard ${escape(report.shard.index)}/${escape(report.shard.total)}` : ''} · ${escape(report.startedAt)} · ${escape(report.ms)} ms</p>
${acceptHtml}
<nav aria-label="captures"><p id="filter">Show: ${filter}</p><ul>${index.join('')}</ul></nav>
${sections.join('\n')}
<script>
for (const img of document.querySelectorAll('img[data-from]')) img.src = document.getElementById(img.dataset.from).src;
for (const s of document.querySelectorAll('.slider')) { const i = s.querySelector('input'), t = s.querySelector('.top'); i.addEventListener('input', () => { t.style.clipPath = 'inset(0 ' + (100 - i.value) + '% 0 0)'; }); }
const shown = () => new Set([...document.querySelectorAll('#filter input:checked')].map((box) => box.value));
for (const box of document.querySelectorAll('#filter input')) box.addEventListener('change', () => { const on = shown(); for (const el of document.querySelectorAll('section, nav li')) el.classList.toggle('hidden', !on.has(el.classList[0])); });
</script>
</body></html>
`;
}

/** Writes report.json, junit.xml and report.html into `dir`; returns their paths. */
export async function writeReports(report: Report, dir: string): Promise<{ json: string; junit: string; html: string }> {
  await mkdir(dir, { recursive: true });
  const paths = { json: join(dir, 'report.json'), junit: join(dir, 'junit.xml'), html: join(dir, 'report.html') };
  await writeFile(paths.json, JSON.stringify(report, null, 2) + '\n');
  await writeFile(paths.junit, junitXml(report, dir));
  await writeFile(paths.html, await htmlReport(report, dir));
  return paths;
}
