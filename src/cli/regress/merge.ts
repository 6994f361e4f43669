import { copyFile, lstat, mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { IMAGE_PATH, plainImage, summarize, writeReports, type CaptureResult, type Report } from './report.js';

const STATUS = z.enum(['passed', 'failed', 'new', 'updated', 'flaky', 'error']);
const count = z.number().int().min(0);
/** An image path as `regress` writes it: one file under the report's images/ folder, never `..` or absolute. */
const imagePath = z.string().regex(IMAGE_PATH, 'must be images/NAME.png');

const resultSchema = z.strictObject({
  id: z.string().max(500),
  page: z.string().max(500),
  viewport: z.string().max(200),
  status: STATUS,
  failure: z.boolean(),
  ms: z.number().finite().min(0),
  message: z.string().max(10_000).optional(),
  changedPixels: count.optional(),
  ratio: z.number().finite().min(0).max(1).optional(),
  maxDiffPixels: count.optional(),
  maxDiffRatio: z.number().finite().min(0).max(1).optional(),
  threshold: z.number().finite().min(0).optional(),
  box: z.object({ x: z.number().finite(), y: z.number().finite(), width: z.number().finite(), height: z.number().finite() }).nullable().optional(),
  images: z.strictObject({ baseline: imagePath.optional(), actual: imagePath.optional(), diff: imagePath.optional() }).optional(),
  missingMasks: z.array(z.string().max(500)).optional(),
  unstable: z.boolean().optional(),
});

/** A shard's report.json as `regress` writes it; anything else is refused before a byte is copied or written. */
const reportSchema = z.object({
  tool: z.literal('firefox-use regress'),
  config: z.string().max(4096),
  shard: z.strictObject({ index: z.number().int().min(1), total: z.number().int().min(1).max(10_000) }).optional(),
  baselineDir: z.string().max(4096).optional(),
  startedAt: z.string().max(100),
  ms: z.number().finite().min(0),
  summary: z.record(z.string(), z.number()),
  results: z.array(resultSchema).max(100_000),
});

/** Reads and checks one shard's report; a bad one is an error naming the file and the field. */
async function readShard(file: string): Promise<Report> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: not a report (${(error as Error).message})`, { cause: error });
  }
  const parsed = reportSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${file}: not a firefox-use regress report: ${issue.path.join('.') || '(report)'}: ${issue.message}`);
  }
  return parsed.data as Report;
}

/** Copies a shard's image into the merged report: only a regular file (a symlink could name any file on the machine). */
async function copyImage(fromDir: string, toDir: string, path: string): Promise<boolean> {
  if (!(await plainImage(fromDir, path))) return false;
  await copyFile(join(fromDir, path), join(toDir, path));
  return true;
}

/** `firefox-use merge-reports DIR|report.json ...`: one report from the shards' reports. Exit 1 on a failure or a missing shard. */
export async function mergeReports(inputs: string[], outDir: string): Promise<number> {
  const reports: Array<{ report: Report; dir: string }> = [];
  try {
    for (const input of inputs) {
      const file = (await stat(input)).isDirectory() ? join(input, 'report.json') : input;
      reports.push({ report: await readShard(file), dir: dirname(resolve(file)) });
    }
  } catch (error) {
    process.stderr.write(`firefox-use merge-reports: ${(error as Error).message}; nothing was written.\n`);
    return 2;
  }
  const out = resolve(outDir);
  // A symlinked images folder in the output would send the copies (and read the inlined images) elsewhere.
  const outImages = await lstat(join(out, 'images')).catch(() => null);
  if (outImages && !outImages.isDirectory()) {
    process.stderr.write(`firefox-use merge-reports: ${join(out, 'images')} is a symlink or not a folder; nothing was written.\n`);
    return 2;
  }
  await mkdir(join(out, 'images'), { recursive: true });
  const byId = new Map<string, CaptureResult>();
  for (const { report, dir } of reports) {
    for (const result of report.results) {
      const images: NonNullable<CaptureResult['images']> = {};
      for (const [kind, path] of Object.entries(result.images ?? {}) as Array<[keyof typeof images, string]>) {
        if (resolve(dir) === out || (await copyImage(dir, out, path))) images[kind] = path;
      }
      byId.set(result.id, { ...result, ...(result.images ? { images } : {}) });
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
