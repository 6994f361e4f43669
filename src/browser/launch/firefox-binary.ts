import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { ToolError } from '../../errors.js';

const PATH_NAMES = ['firefox', 'firefox-esr'];

function platformPaths(): string[] {
  if (process.platform === 'darwin') {
    return [
      '/Applications/Firefox.app/Contents/MacOS/firefox',
      '/Applications/Firefox ESR.app/Contents/MacOS/firefox',
      '/Applications/Firefox Nightly.app/Contents/MacOS/firefox',
    ];
  }
  if (process.platform === 'win32') {
    const roots = [process.env['PROGRAMFILES'], process.env['PROGRAMFILES(X86)'], process.env['LOCALAPPDATA']].filter(
      (root): root is string => Boolean(root),
    );
    return roots.flatMap((root) => [join(root, 'Mozilla Firefox', 'firefox.exe'), join(root, 'Firefox Nightly', 'firefox.exe')]);
  }
  return ['/usr/lib/firefox-esr/firefox-esr', '/usr/lib/firefox/firefox', '/opt/firefox/firefox', '/snap/bin/firefox'];
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | null {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, process.platform === 'win32' ? `${name}.exe` : name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

export interface FoundFirefox {
  path: string;
  /** Where it came from: the flag, the environment, PATH or a usual install location. */
  source: 'flag' | 'FIREFOX_BIN' | 'PATH' | 'install-path';
}

/**
 * Finds Firefox in the documented order: --firefox, FIREFOX_BIN, PATH, then the platform's install paths. A named
 * binary that is not there is an error, not a reason to look further.
 */
export function findFirefox(explicit?: string): FoundFirefox {
  const tried: string[] = [];
  // A binary the user named is the one they meant: a typo must not quietly run another Firefox found on PATH.
  if (explicit) {
    if (isExecutable(explicit)) return { path: explicit, source: 'flag' };
    throw new ToolError('firefox_not_found', `--firefox ${explicit}: no executable file there.`, { tried: [`--firefox ${explicit}`] });
  }
  const fromEnv = process.env['FIREFOX_BIN'];
  if (fromEnv) {
    if (isExecutable(fromEnv)) return { path: fromEnv, source: 'FIREFOX_BIN' };
    throw new ToolError('firefox_not_found', `FIREFOX_BIN=${fromEnv}: no executable file there.`, { tried: [`FIREFOX_BIN=${fromEnv}`] });
  }
  for (const name of PATH_NAMES) {
    const found = onPath(name);
    if (found) return { path: found, source: 'PATH' };
    tried.push(`${name} on PATH`);
  }
  for (const candidate of platformPaths()) {
    if (isExecutable(candidate)) return { path: candidate, source: 'install-path' };
    tried.push(candidate);
  }
  throw new ToolError(
    'firefox_not_found',
    `No Firefox found (tried ${tried.join(', ')}). Install it (Debian/Ubuntu: sudo apt-get install firefox-esr, ` +
      `or run scripts/install-firefox.sh), or point --firefox / FIREFOX_BIN at the binary.`,
    { tried },
  );
}

/** The version Firefox reports of itself, e.g. "Mozilla Firefox 153.8.0esr". */
export function firefoxVersion(path: string): string {
  try {
    return execFileSync(path, ['--version'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch (error) {
    return `unknown (${(error as Error).message.split('\n')[0]})`;
  }
}
