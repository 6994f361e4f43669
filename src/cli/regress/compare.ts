import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_ATTEMPTS, type Shot } from './capture.js';
import type { Capture } from './config.js';
import { diffPngs, overLimits } from './diff.js';
import type { RegressFlags } from './run.js';
import type { CaptureResult } from './report.js';

/** What a capture's result says before the comparison: its id, page, viewport and limits. */
export type Outcome = Omit<CaptureResult, 'ms' | 'id' | 'page' | 'viewport' | 'maxDiffPixels' | 'maxDiffRatio'>;

export interface CompareTarget {
  capture: Capture;
  flags: RegressFlags;
  baselineDir: string;
  reportDir: string;
}

/** Compares a shot with its baseline (or writes it as one) and says what the capture's result is. */
export async function compareShot(shot: Shot, { capture, flags, baselineDir, reportDir }: CompareTarget): Promise<Outcome> {
  const baselinePath = join(baselineDir, `${capture.id}.png`);
  await mkdir(join(reportDir, 'images'), { recursive: true });
  const actualRel = `images/${capture.id}.actual.png`;
  const extra = shot.stable ? {} : { unstable: true };
  const unstable = `the page never gave two equal screenshots in a row (${MAX_ATTEMPTS} tries)`;
  // An unstable shot is not reproducible: it becomes a baseline only when the user said unstable pages only warn.
  const acceptUnstable = flags.flaky === 'warn';
  const baseline = await readFile(baselinePath).catch(() => null);
  if (!baseline) {
    await writeFile(join(reportDir, actualRel), shot.png);
    if (!shot.stable && !acceptUnstable) {
      return { status: 'flaky', failure: true, message: `${unstable}; no baseline ${baselinePath}, and an unstable shot is not written as one under --flaky=fail (mask what moves)`, images: { actual: actualRel }, ...extra };
    }
    await mkdir(baselineDir, { recursive: true });
    await writeFile(baselinePath, shot.png);
    const written = flags.ci ? `no baseline ${baselinePath} (with --ci a missing baseline is an error; it was written for review)` : `baseline written to ${baselinePath}`;
    return { status: 'new', failure: flags.ci, message: shot.stable ? written : `${written}; warning: ${unstable}`, images: { actual: actualRel }, ...extra };
  }
  const diff = await diffPngs(baseline, shot.png, capture.page.colorThreshold);
  const failing = overLimits(diff, capture.page);
  const stats = { changedPixels: diff.changedPixels, ratio: diff.ratio, box: diff.box, ...extra };
  const what = `${diff.changedPixels} pixels changed (${(diff.ratio * 100).toFixed(3)}%)${diff.box ? ` in ${diff.box.width}x${diff.box.height} at ${diff.box.x},${diff.box.y}` : ''}`;
  if (!failing && shot.stable) return { status: 'passed', failure: false, ...stats };
  const rel = { baseline: `images/${capture.id}.baseline.png`, actual: actualRel, ...(diff.image ? { diff: `images/${capture.id}.diff.png` } : {}) };
  await Promise.all([copyFile(baselinePath, join(reportDir, rel.baseline)), writeFile(join(reportDir, rel.actual), shot.png), diff.image ? writeFile(join(reportDir, `images/${capture.id}.diff.png`), diff.image) : null]);
  if (!shot.stable) {
    // Within the threshold an unstable page is only a warning; beyond it, it hides a change unless it fails.
    if (!failing) return { status: 'flaky', failure: false, message: `${unstable}; the last one is within the threshold (${what})`, images: rel, ...stats };
    if (flags.update && acceptUnstable) {
      await writeFile(baselinePath, shot.png);
      return { status: 'updated', failure: false, message: `${what}; baseline rewritten from an unstable page (--flaky=warn): ${unstable}`, images: rel, ...stats };
    }
    const fails = flags.flaky === 'fail';
    const tail = flags.update ? '; baseline not rewritten (an unstable shot is accepted only with --update --flaky=warn)' : '';
    return { status: 'flaky', failure: fails, message: `${unstable}, and the last one differs from the baseline beyond the threshold: ${what}${tail}`, images: rel, ...stats };
  }
  if (flags.update) {
    await writeFile(baselinePath, shot.png);
    return { status: 'updated', failure: false, message: `${what}; baseline rewritten`, images: rel, ...stats };
  }
  return { status: 'failed', failure: true, message: what, images: rel, ...stats };
}
