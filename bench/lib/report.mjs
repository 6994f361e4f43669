// The report files: latest.json (everything), latest.md (tables with ratios to firefox-use) and chart.png
// (an SVG drawn here, rendered to PNG with sharp).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { FLOWS } from './flows.mjs';
import { PAGES } from './pages.mjs';
import { percentile } from './stats.mjs';

const SERVER_ORDER = ['firefox-use', 'playwright', 'chrome-devtools'];
const COLOURS = { 'firefox-use': '#e66000', playwright: '#2d7d46', 'chrome-devtools': '#1a73e8', raw: '#777777' };
const OPS = [
  ['navigate', 'navigate'],
  ['snapshot', 'snapshot (default tool)'],
  ['click', 'click by ref'],
  ['type', 'type 20 chars'],
  ['screenshot', 'screenshot'],
];

const cell = (figure, key = 'p50') => {
  if (!figure) return '—';
  if (figure.skipped) return 'skipped';
  if (figure.error) return 'error';
  return figure[key] ?? '—';
};
const times = (figure) => (figure?.p50 !== undefined ? `${figure.p50} / ${figure.p95}` : cell(figure));
const x = (theirs, ours) => (typeof theirs === 'number' && typeof ours === 'number' && ours > 0 ? `${(theirs / ours).toFixed(1)}x` : '');

function markdown(summary) {
  const comparison = summary.comparison ?? {};
  const servers = SERVER_ORDER.filter((id) => comparison.servers?.[id]).map((id) => [id, comparison.servers[id]]);
  const floor = comparison.floor?.pages ?? {};
  const lines = [`# Benchmark results`, '', `Run ${summary.date}, ${comparison.calls_per_figure} calls per figure, times in ms as p50 / p95. "x fu" is the peer's figure over firefox-use's (above 1: firefox-use is faster or smaller).`, ''];
  lines.push('## Servers', '', '| server | browser | cold start ms | server RSS MB | browser RSS MB (PSS) | tools |', '|---|---|---|---|---|---|');
  for (const [, s] of servers) {
    if (s.skipped || s.error) lines.push(`| ${s.label} | — | ${s.skipped ? `skipped: ${s.skipped}` : `error: ${s.error}`} | | | |`);
    else lines.push(`| ${s.label} | ${s.browser} | ${s.cold_start_ms} | ${s.server_rss_mb} | ${s.browser_rss_mb} (${s.browser_pss_mb}) | ${s.tools} |`);
  }
  const measured = servers.filter(([, s]) => s.pages);
  const fu = comparison.servers?.['firefox-use']?.pages ?? {};
  for (const page of PAGES) {
    lines.push('', `## ${page.title} (${page.path})`, '');
    const head = ['figure', ...measured.flatMap(([id, s]) => (id === 'firefox-use' ? [s.label] : [s.label, 'x fu'])), 'raw BiDi'];
    lines.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);
    const rows = [
      ['navigate ms', (p) => p.navigate, times, 'p50', 'navigate'],
      ['snapshot ms', (p) => p.snapshot, times, 'p50', null],
      ['snapshot chars', (p) => p.snapshot, (f) => cell(f, 'chars'), 'chars', null],
      ['click by ref ms', (p) => p.click, times, 'p50', 'click'],
      ['click reply chars', (p) => p.click, (f) => cell(f, 'chars'), 'chars', null],
      ['type ms', (p) => p.type, times, 'p50', 'type'],
      ['form_input ms (value set; peers: their type)', (p) => p.fill ?? p.type, times, 'p50', null],
      ['screenshot ms', (p) => p.screenshot, times, 'p50', 'screenshot'],
    ];
    for (const [label, pick, show, key, floorKey] of rows) {
      const ours = pick(fu[page.id] ?? {})?.[key];
      const cells = measured.flatMap(([id, s]) => {
        const figure = pick(s.pages[page.id] ?? {});
        return id === 'firefox-use' ? [show(figure)] : [show(figure), x(figure?.[key], ours)];
      });
      // Typing's floor was taken call for call beside firefox-use's when it could be (marked "paired").
      const pairedFloor = floorKey === 'type' ? fu[page.id]?.type_floor : null;
      const rawFigure = pairedFloor ?? (floorKey ? floor[page.id]?.[floorKey] : null);
      lines.push(`| ${label} | ${cells.join(' | ')} | ${rawFigure ? `${times(rawFigure)}${pairedFloor ? ` (paired; per-call ratio p50 ${pairedFloor.ratio_p50})` : ''}` : ''} |`);
    }
    const settledCells = measured.map(([, s]) => [s.label, s.pages[page.id]?.navigate?.settled_snapshot]).filter(([, settled]) => settled !== undefined);
    if (settledCells.length) lines.push('', `Navigate's snapshot equal to one taken 2 s later: ${settledCells.map(([label, settled]) => `${label} ${settled ? 'yes' : '**no**'}`).join(', ')}.`);
    if (floor[page.id]?.script_call) lines.push('', `Raw BiDi script.callFunction: ${times(floor[page.id].script_call)} ms.`);
  }
  lines.push('', '## Whole tasks: context cost', '', 'Each task scripted as an agent does it with the server\'s own tools (refs read from replies; a snapshot call when the refs it needs are not in what it has seen).', '');
  lines.push('| task | ' + measured.map(([, s]) => `${s.label} calls | chars`).join(' | ') + ' |', `|---|${measured.map(() => '---|---').join('|')}|`);
  for (const flow of FLOWS) {
    const cells = measured.map(([, s]) => {
      const t = s.tasks?.[flow.id];
      if (!t) return '— | —';
      if (t.skipped) return `skipped | ${t.skipped}`;
      return `${t.calls}${t.ok ? '' : ' (failed)'} | ${t.chars}`;
    });
    lines.push(`| ${flow.title} | ${cells.join(' | ')} |`);
  }
  lines.push('', '## Targets', '');
  for (const [name, target] of Object.entries(comparison.targets ?? {})) {
    const detail = target.checks.map((c) => `${c.page ?? c.task}: ${JSON.stringify(Object.fromEntries(Object.entries(c).filter(([k]) => !['page', 'task', 'need', 'ok'].includes(k))))}`).join('; ');
    lines.push(`- **${name}**: ${target.status} (need ${target.checks[0]?.need ?? '—'}) — ${detail}`);
  }
  if (summary.foundation) lines.push('', '## Foundation figures (firefox-use alone)', '', '```json', JSON.stringify(summary.foundation, null, 2), '```');
  if (summary.extras) lines.push('', '## Other bench scripts', '', '```json', JSON.stringify(summary.extras, null, 2).slice(0, 6000), '```');
  return lines.join('\n') + '\n';
}

const esc = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;');

function chart(summary) {
  const comparison = summary.comparison ?? {};
  const series = SERVER_ORDER.filter((id) => comparison.servers?.[id]?.pages).map((id) => ({ id, label: comparison.servers[id].label, pages: comparison.servers[id].pages }));
  if (comparison.floor?.pages) series.push({ id: 'raw', label: 'raw BiDi (no server)', pages: comparison.floor.pages });
  const width = 1000;
  const left = 190;
  const barH = 13;
  const plotW = width - left - 80;
  const median = (values) => (values.length ? percentile(values, 50) : null);
  const groups = OPS.map(([op, label]) => ({
    label,
    bars: series.map((s) => ({ id: s.id, value: median(PAGES.map((p) => s.pages[p.id]?.[op]?.p50).filter((v) => typeof v === 'number')) })),
  }));
  const max = Math.max(10, ...groups.flatMap((g) => g.bars.map((b) => b.value ?? 0)));
  const logX = (v) => (Math.log10(Math.max(v, 1)) / Math.log10(max * 1.2)) * plotW;
  let y = 70;
  const parts = [];
  parts.push(`<text x="20" y="30" font-size="20" font-weight="bold">firefox-use vs Playwright MCP vs Chrome DevTools MCP</text>`);
  parts.push(`<text x="20" y="52" font-size="13" fill="#444">p50 ms, median over the ${PAGES.length} bench pages (fixtures and real apps), log scale (shorter is faster). ${esc(summary.date ?? '')}</text>`);
  for (const group of groups) {
    parts.push(`<text x="20" y="${y + barH * 1.5}" font-size="14">${esc(group.label)}</text>`);
    for (const bar of group.bars) {
      if (bar.value !== null) {
        parts.push(`<rect x="${left}" y="${y}" width="${Math.max(1, logX(bar.value)).toFixed(1)}" height="${barH - 2}" fill="${COLOURS[bar.id]}"/>`);
        parts.push(`<text x="${left + logX(bar.value) + 4}" y="${y + barH - 3}" font-size="11">${bar.value} ms</text>`);
      } else {
        parts.push(`<text x="${left + 4}" y="${y + barH - 3}" font-size="11" fill="#999">${bar.id === 'raw' ? 'n/a' : 'skipped'}</text>`);
      }
      y += barH;
    }
    y += 12;
  }
  // Task context cost.
  y += 16;
  parts.push(`<text x="20" y="${y}" font-size="15" font-weight="bold">Whole tasks: reply characters the model reads (both tasks together; calls in brackets)</text>`);
  y += 14;
  const tasks = series
    .filter((s) => s.id !== 'raw')
    .map((s) => {
      const entries = FLOWS.map((f) => comparison.servers[s.id].tasks?.[f.id]).filter(Boolean);
      const ok = entries.length === FLOWS.length && entries.every((t) => t.ok);
      const skipped = entries.some((t) => t.skipped);
      return { id: s.id, label: s.label, ok, skipped, chars: entries.reduce((a, t) => a + (t.chars ?? 0), 0), calls: entries.reduce((a, t) => a + (t.calls ?? 0), 0) };
    });
  const maxChars = Math.max(1, ...tasks.map((t) => t.chars));
  for (const t of tasks) {
    const w = (t.chars / maxChars) * (plotW - 150);
    parts.push(`<text x="20" y="${y + 14}" font-size="13">${esc(t.label)}</text>`);
    parts.push(`<rect x="${left}" y="${y + 2}" width="${Math.max(1, w).toFixed(1)}" height="16" fill="${COLOURS[t.id]}"/>`);
    parts.push(`<text x="${left + w + 4}" y="${y + 14}" font-size="11">${t.skipped ? 'skipped (a tool is missing)' : `${t.chars} chars (${t.calls} calls)${t.ok ? '' : ' — not completed'}`}</text>`);
    y += 22;
  }
  y += 14;
  let lx = 20;
  for (const s of series) {
    parts.push(`<rect x="${lx}" y="${y}" width="12" height="12" fill="${COLOURS[s.id]}"/><text x="${lx + 16}" y="${y + 11}" font-size="12">${esc(s.label)}</text>`);
    lx += 30 + s.label.length * 7;
  }
  const height = y + 30;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="DejaVu Sans, sans-serif"><rect width="100%" height="100%" fill="#fff"/>${parts.join('')}</svg>`;
}

/** Writes latest.json, latest.md, chart.svg and chart.png into `dir`. */
export async function writeReport(summary, dir) {
  const clean = JSON.parse(JSON.stringify(summary, (key, value) => (key === 'log' ? undefined : value)));
  await writeFile(join(dir, 'latest.json'), `${JSON.stringify(summary, null, 2)}\n`);
  await writeFile(join(dir, 'latest.md'), markdown(clean));
  const svg = chart(clean);
  await writeFile(join(dir, 'chart.svg'), svg);
  await sharp(Buffer.from(svg)).png().toFile(join(dir, 'chart.png'));
}
