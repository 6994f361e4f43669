import { existsSync } from 'node:fs';
import { findFirefox, firefoxVersion } from '../browser/launch/index.js';
import { lockHolder, resolveProfileDir } from '../browser/launch/index.js';
import type { ServerOptions } from '../config.js';
import { isToolError } from '../errors.js';
import { VERSION } from '../version.js';
import type { LaunchCheck } from './doctor-launch.js';

export interface DoctorReport {
  firefoxUse: string;
  node: string;
  firefox: { path: string; source: string; version: string } | { error: string };
  profile: { dir: string; exists: boolean; locked: boolean; lockedBy?: number };
  outputDir: string;
  ok: boolean;
  /** doctor --launch: the launch and first page. */
  launch?: LaunchCheck;
}

export function doctor(options: ServerOptions): DoctorReport {
  let firefox: DoctorReport['firefox'];
  try {
    const found = findFirefox(options.firefox);
    firefox = { path: found.path, source: found.source, version: firefoxVersion(found.path) };
  } catch (error) {
    firefox = { error: isToolError(error) ? error.message : String(error) };
  }
  const dir = options.isolated ? '(isolated: a new temporary profile each run)' : resolveProfileDir(options.profile);
  const holder = options.isolated ? null : lockHolder(dir);
  return {
    firefoxUse: VERSION,
    node: process.version,
    firefox,
    profile: { dir, exists: !options.isolated && existsSync(dir), locked: holder !== null, ...(holder ? { lockedBy: holder.pid } : {}) },
    outputDir: options.outputDir,
    ok: !('error' in firefox),
  };
}

export function printDoctor(report: DoctorReport, json: boolean): void {
  if (json) {
    process.stdout.write(JSON.stringify(report, null, 2) + '\n');
    return;
  }
  const lines = [`firefox-use ${report.firefoxUse} on Node.js ${report.node}`];
  if ('error' in report.firefox) lines.push(`Firefox: NOT FOUND — ${report.firefox.error}`);
  else lines.push(`Firefox: ${report.firefox.version} at ${report.firefox.path} (found via ${report.firefox.source})`);
  const lock = report.profile.locked ? `locked by pid ${report.profile.lockedBy}` : 'not locked';
  lines.push(`Profile: ${report.profile.dir} (${report.profile.exists ? 'exists' : 'will be created'}, ${lock})`);
  lines.push(`Output dir: ${report.outputDir}`);
  if (report.launch) lines.push(...launchLines(report.launch));
  process.stdout.write(lines.join('\n') + '\n');
}

/** doctor --launch's lines: each step's time, the test page, what failed. */
export function launchLines(check: LaunchCheck): string[] {
  const steps = (['spawn', 'endpoint', 'session', 'ready', 'page'] as const)
    .filter((step) => check.phases[step] !== undefined)
    .map((step) => `${step} ${Math.round(check.phases[step]!)} ms`);
  const lines = [`Launch: ${check.ok ? 'OK' : 'FAILED'}${check.browser ? ` (${check.browser})` : ''}${steps.length ? `: ${steps.join(', ')}` : ''}`];
  if (check.pageTitle !== undefined) lines.push(`Test page: loaded from 127.0.0.1, its script ran (title "${check.pageTitle}")`);
  if (check.error) lines.push(`Launch error: ${check.error}`);
  return lines;
}
