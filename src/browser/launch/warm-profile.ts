import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';

/**
 * A throwaway profile starts where a profile's first run left off. Firefox spends ~0.45 s of a new profile's start
 * on first-run work (compiling its own chrome scripts, registering the built-in add-ons, running its migrations);
 * what that work leaves behind is saved once per Firefox build and copied into each new throwaway profile.
 *
 * Only Firefox's own state is kept: its startup caches (chrome code, never a page's), the built-in add-on registry
 * and the prefs that mark migrations as done. Cookies, storage, history, permissions, the prefs of a session's flags
 * and anything else a page or an agent can change stay in the profile that is deleted.
 */
const KEPT = ['startupCache', 'compatibility.ini', 'extensions.json', 'addonStartup.json.lz4', 'extension-preferences.json'];
/** The startup cache's URL list names the profile it was made in; Firefox rebuilds it. */
const SKIPPED_IN_CACHE = /^urlCache/;
/** Prefs Firefox writes to record that first-run work and migrations are done. */
const MARKER_PREF = /^user_pref\("[^"]*(version|Version|migration|Migration|BuildId|BuildID|first_run|firstRun|mstone|lastApp|lastPlatform|databaseSchema|uiCustomization|iniFile|persistedActions|signatureCheckpoint|pendingOperations|Registered)[^"]*",/;

export function warmProfilesRoot(): string {
  const cacheHome = process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache');
  return join(cacheHome, 'firefox-use', 'warm-profile');
}

/** One template per Firefox build: the binary's real path, size and time (an upgrade changes them). */
function templateDir(firefoxPath: string, root: string): string | null {
  try {
    const binary = realpathSync(firefoxPath);
    const { size, mtimeMs } = statSync(binary);
    return join(root, createHash('sha256').update(`${binary}\0${size}\0${mtimeMs}`).digest('hex').slice(0, 16));
  } catch {
    return null;
  }
}

export function hasFirstRunState(firefoxPath: string, root = warmProfilesRoot()): boolean {
  const template = templateDir(firefoxPath, root);
  return template !== null && existsSync(template);
}

/** Copies the saved first-run state into a new throwaway profile; false when there is none yet (or it failed). */
export function seedProfile(profileDir: string, firefoxPath: string, root = warmProfilesRoot()): boolean {
  const template = templateDir(firefoxPath, root);
  if (!template || !existsSync(template)) return false;
  try {
    cpSync(template, profileDir, { recursive: true, force: false });
    return true;
  } catch {
    // A start without it is only slower.
    return false;
  }
}

/**
 * After Firefox left a throwaway profile cleanly, keeps its first-run state for the next ones (once per build).
 * Written beside and renamed into place, so a start that copies it never sees half of it.
 */
export function keepFirstRunState(profileDir: string, firefoxPath: string, root = warmProfilesRoot()): boolean {
  const template = templateDir(firefoxPath, root);
  if (!template || existsSync(template)) return false;
  const complete = KEPT.every((name) => existsSync(join(profileDir, name))) && existsSync(join(profileDir, 'prefs.js'));
  if (!complete) return false;
  const partial = `${template}.${process.pid}.partial`;
  try {
    mkdirSync(root, { recursive: true, mode: 0o700 });
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { mode: 0o700 });
    for (const name of KEPT) {
      cpSync(join(profileDir, name), join(partial, name), { recursive: true, filter: (source) => !SKIPPED_IN_CACHE.test(basename(source)) });
    }
    const markers = readFileSync(join(profileDir, 'prefs.js'), 'utf8').split('\n').filter((line) => MARKER_PREF.test(line));
    writeFileSync(join(partial, 'prefs.js'), `${markers.join('\n')}\n`);
    renameSync(partial, template);
    // Templates of other builds are of no use any more.
    for (const entry of readdirSync(root)) {
      const path = join(root, entry);
      if (path !== template && !entry.endsWith('.partial')) rmSync(path, { recursive: true, force: true });
    }
    return true;
  } catch {
    // Another start saved it first, or the disk refused: the next throwaway profile starts cold, nothing more.
    rmSync(partial, { recursive: true, force: true });
    return false;
  }
}
