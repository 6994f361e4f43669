import { chmodSync, appendFileSync, copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { ToolError } from '../../errors.js';
import { packageFile } from '../../package-files.js';
import { userJsLines, type PrefValue } from './launch-prefs.js';
import { stalePacReset } from './origin-pac.js';
import { killGroup } from './reaper.js';
import { foreignNote, foreignUserJs } from './user-js.js';

const LOCK_FILE = 'firefox-use.lock';
const ISOLATED_PREFIX = 'firefox-use-isolated-';
/** An isolated profile without our lock this old is left from a start that died before it took the lock. */
const UNLOCKED_GRACE_MS = 60_000;
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The template shipped with the package: `profiles/user.js` beside `dist/`. */
export function templateUserJs(): string {
  return packageFile('profiles', 'user.js');
}

export function profilesRoot(): string {
  const dataHome = process.env['XDG_DATA_HOME'] || join(homedir(), '.local', 'share');
  return join(dataHome, 'firefox-use', 'profiles');
}

/** A NAME lives under the data dir; anything with a path separator is used as the directory itself. */
export function resolveProfileDir(profile: string): string {
  if (isAbsolute(profile) || profile.includes('/') || profile.includes('\\') || profile.startsWith('.')) return resolve(profile);
  if (!PROFILE_NAME.test(profile)) {
    throw new ToolError('invalid_arguments', `Profile name "${profile}" must be letters, digits, ".", "_" or "-" (or a path).`, {
      field: 'profile',
    });
  }
  return join(profilesRoot(), profile);
}

export interface LockInfo {
  pid: number;
  startedAt: string;
}

/**
 * Whether the process runs. A killed process whose parent died is a zombie until PID 1 reaps it, and some inits (a
 * container's) never do: signal 0 still reaches it, so on Linux its state in /proc is read too.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

export function readLock(dir: string): LockInfo | null {
  try {
    const info = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as LockInfo;
    return typeof info.pid === 'number' ? info : null;
  } catch {
    return null;
  }
}

/** True when a live process other than this one holds the profile. */
export function lockHolder(dir: string): LockInfo | null {
  const info = readLock(dir);
  if (!info || info.pid === process.pid || !processAlive(info.pid)) return null;
  return info;
}

/** The running Firefox that holds this profile (its `lock` symlink, "host:+PID"), if any. */
function firefoxHolder(dir: string): number | null {
  try {
    const pid = Number(/\+(\d+)$/.exec(readlinkSync(join(dir, 'lock')))?.[1]);
    return Number.isInteger(pid) && pid > 0 && processAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Whether `pid` is a Firefox we started on `dir`: its command line names the profile (Linux; elsewhere we cannot
 * tell, and nothing is killed). A pid reused by another process does not match.
 */
function runsOnProfile(pid: number, dir: string): boolean {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const at = args.indexOf('--profile');
    return at >= 0 && args[at + 1] === dir;
  } catch {
    return false;
  }
}

/**
 * Deletes throwaway profiles whose server is gone. The server deletes its own on exit and a watchdog does if the
 * server is SIGKILLed; when both (and Firefox) were killed at once nothing is left to do it, so every later start
 * does: a profile of this user whose lock names a dead process, after killing the Firefox still running on it (if
 * any). A profile whose lock holder runs is kept. Returns those deleted.
 */
export function reapIsolatedProfiles(root = tmpdir()): string[] {
  const reaped: string[] = [];
  let names: string[];
  try {
    names = readdirSync(root).filter((name) => name.startsWith(ISOLATED_PREFIX));
  } catch {
    return reaped;
  }
  for (const name of names) {
    const dir = join(root, name);
    try {
      const info = lstatSync(dir);
      if (!info.isDirectory() || info.uid !== process.getuid?.()) continue;
      const lock = readLock(dir);
      if (lock ? lock.pid === process.pid || processAlive(lock.pid) : Date.now() - info.mtimeMs < UNLOCKED_GRACE_MS) continue;
      const firefox = firefoxHolder(dir);
      if (firefox !== null) {
        // A Firefox whose server is gone: it was SIGKILLed in the few milliseconds between spawning it and its
        // watchdog (see reaper.ts). Ours, by the throwaway profile on its command line; its group goes with it.
        if (!runsOnProfile(firefox, dir)) continue;
        killGroup(firefox);
      }
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
      reaped.push(dir);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return reaped;
}

/** An owned profile directory, locked to this process until released. */
export class OwnedProfile {
  private released = false;

  private constructor(
    readonly dir: string,
    readonly isolated: boolean,
    /** Firefox has never run on it: it may start from a saved first run (warm-profile.ts). */
    readonly firstRun: boolean,
    /**
     * The folder has the user's own user.js: Firefox runs on their prefs, session restore among them, which
     * rearranges the window's tabs once the startup tasks end (see Browser.launch).
     */
    readonly usersOwnPrefs = false,
  ) {}

  /** Creates (or reuses) the profile, takes its lock and refreshes the prefs from the template. */
  static acquire(profile: string, isolated: boolean, extraPrefs: Record<string, PrefValue> = {}): OwnedProfile {
    reapIsolatedProfiles();
    const dir = isolated ? mkdtempSync(join(tmpdir(), ISOLATED_PREFIX)) : resolveProfileDir(profile);
    // Cookies and saved logins are for this user only: the profile (and a profiles root we make) is 0700, which
    // also covers the files Firefox creates inside with its own umask. An older profile made 0755 is tightened.
    const named = !isolated && dir.startsWith(profilesRoot());
    if (named) mkdirSync(profilesRoot(), { recursive: true, mode: 0o700 });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // A directory the user named by path is theirs to set; ours are tightened.
    if (named) chmodSync(dir, 0o700);
    OwnedProfile.takeLock(dir);
    const theirs = isolated ? null : foreignUserJs(dir);
    const owned = new OwnedProfile(dir, isolated, theirs === null && !existsSync(join(dir, 'prefs.js')), theirs !== null);
    if (theirs !== null) {
      // The user's own user.js is never written over, appended to or moved (a crash could not put it back, and prefs
      // Firefox read from a file of ours would stay in prefs.js anyway): the profile runs as the user set it up.
      if (Object.keys(extraPrefs).length) {
        owned.release();
        throw new ToolError('invalid_arguments', `${dir} has its own user.js, which firefox-use never changes: the prefs ${Object.keys(extraPrefs).join(', ')} cannot be set.`, { field: 'profile' });
      }
      process.stderr.write(foreignNote(dir, theirs, readText(templateUserJs())));
      return owned;
    }
    try {
      copyFileSync(templateUserJs(), join(dir, 'user.js'));
      const prefs = { ...stalePacReset(readText(join(dir, 'prefs.js')), extraPrefs), ...extraPrefs };
      // The flags' prefs go after the template's: in user.js the last line for a pref wins.
      if (Object.keys(prefs).length) appendFileSync(join(dir, 'user.js'), `\n// From firefox-use's flags for this launch\n${userJsLines(prefs)}\n`);
    } catch (error) {
      owned.release();
      throw new ToolError('launch_failed', `Could not write the profile's prefs into ${dir}: ${(error as Error).message}`);
    }
    return owned;
  }

  private static takeLock(dir: string): void {
    const path = join(dir, LOCK_FILE);
    const body = JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() } satisfies LockInfo);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        writeFileSync(path, body, { flag: 'wx' });
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = lockHolder(dir);
      if (holder) {
        throw new ToolError(
          'profile_locked',
          `Profile ${dir} is in use by firefox-use pid ${holder.pid} (since ${holder.startedAt}). ` +
            'Use --isolated for a throwaway profile, --profile NAME for another one, or share its browser: start both without ' +
            '--exclusive (each agent then gets a tab group of its own in one browser), or use `firefox-use serve`.',
          { pid: holder.pid, profile: dir },
        );
      }
      // Stale lock from a process that is gone: take it over.
      rmSync(path, { force: true });
    }
    throw new ToolError('profile_locked', `Could not take the lock of profile ${dir}.`, { profile: dir });
  }

  get downloadsDefault(): string {
    return join(this.dir, 'downloads');
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    if (this.isolated) {
      rmSync(this.dir, { recursive: true, force: true, maxRetries: 3 });
      return;
    }
    const info = readLock(this.dir);
    if (info?.pid === process.pid) rmSync(join(this.dir, LOCK_FILE), { force: true });
  }
}
