import { copyFile, mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { summarize, writeReports, type CaptureResult, type Report } from './report.js';

/** `firefox-use merge-reports DIR|report.json ...`: one report from the shards' reports. Exit 1 on a failure or a missing shard. */
export async function mergeReports(inputs: string[], outDir: string): Promise<number> {
  const reports: Array<{ report: Report; dir: string }> = [];
  for (const input of inputs) {
    const file = (await stat(input)).isDirectory() ? join(input, 'report.json') : input;
    reports.push({ report: JSON.parse(await readFile(file, 'utf8')) as Report, dir: dirname(resolve(file)) });
  }
  const out = resolve(outDir);
  await mkdir(join(out, 'images'), { recursive: true });
  const byId = new Map<string, CaptureResult>();
  for (const { report, dir } of reports) {
    for (const result of report.results) {
      for (const path of Object.values(result.images ?? {})) if (path && resolve(dir) !== out) await copyFile(join(dir, path), join(out, path));
      byId.set(result.id, result);
    }
  }
  const results = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const totals = new Set(reports.map(({ report }) => report.shard?.total).filter((total): total is number => total !== undefined));
  const seen = new Set(reports.map(({ report }) => report.shard?.index));
  const missing = totals.size === 1 ? Array.from({ length: [...totals][0]! }, (_, i) => i + 1).filter((index) => !seen.has(index)) : [];
  const first = reports[0]?.report;
  const merged: Report = {
    tool: 'firefox-use regress',
    config: first?.config ?? '',
    startedAt: reports.map(({ report }) => report.startedAt).sort()[0] ?? new Date().toISOString(),
    ms: Math.max(0, ...reports.map(({ report }) => report.ms)),
    summary: summarize(results),
    results,
  };
  const paths = await writeReports(merged, out);
  process.stdout.write(`${JSON.stringify({ summary: merged.summary, merged: reports.length, missingShards: missing, reports: paths })}\n`);
  if (missing.length) process.stderr.write(`firefox-use merge-reports: shards ${missing.join(', ')} of ${[...totals][0]} are missing\n`);
  return merged.summary.failures > 0 || missing.length > 0 ? 1 : 0;
}
