import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import type { ServerOptions } from '../../config.js';
import { ToolError } from '../../errors.js';
import { findFirefox } from './firefox-binary.js';
import { launchTuning, type LaunchTuning } from './launch-prefs.js';
import { OwnedProfile } from './profile.js';
import { guardProcessGroup, killGroup } from './reaper.js';
import { hasFirstRunState, keepFirstRunState, seedProfile } from './warm-profile.js';

const ENDPOINT_LINE = /WebDriver BiDi listening on (ws:\/\/[^\s]+)/;
const START_TIMEOUT_MS = 30_000;

export interface LaunchOptions {
  firefox?: string;
  profile: string;
  isolated: boolean;
  headed: boolean;
  /** Prefs added to the profile's user.js and variables for Firefox's process (--locale, --proxy-server, --pref ...). */
  tuning?: LaunchTuning;
  /** --ignore-https-errors: the BiDi session accepts self-signed and otherwise invalid certificates. */
  acceptInsecureCerts?: boolean;
}

/** What a server's flags say of the Firefox it launches (the same for an early spawn and the manager's launch). */
export function launchOptionsOf(options: ServerOptions): LaunchOptions {
  return {
    firefox: options.firefox,
    profile: options.profile,
    isolated: options.isolated,
    headed: options.headed,
    tuning: launchTuning(options),
    acceptInsecureCerts: options.ignoreHttpsErrors,
  };
}

/** Milliseconds from the start of a launch to each step: the process spawned, its BiDi endpoint, the session, ready. */
export interface StartupPhases {
  spawn: number;
  endpoint: number;
  session?: number;
  ready?: number;
  /** performance.now() when the launch began, so later steps (a first page) can be put on the same clock. */
  startedAt: number;
  /** A new profile (any throwaway one) started from a saved first run (warm-profile.ts). */
  seeded?: boolean;
}

/** Execa hands Firefox's stderr to this generator a line at a time; it yields nothing, so nothing piles up. */
type LineSink = (line: unknown) => Generator<never, void, unknown>;
type FirefoxProcess = ResultPromise<{ detached: true; stdin: 'ignore'; stdout: 'ignore'; stderr: LineSink; reject: false; buffer: false }>;

/**
 * Firefox's stderr as execa splits it into lines: the last 40 kept for launch_failed and crash reports, and the
 * BiDi endpoint handed on once a line names it.
 */
function stderrWatch(): { tail: string[]; sink: LineSink; whenEndpoint(callback: (endpoint: string) => void): void } {
  const tail: string[] = [];
  let onEndpoint: (endpoint: string) => void = () => undefined;
  // A transform that keeps nothing: it yields no line, so the piped stream never fills.
  // eslint-disable-next-line require-yield
  const sink: LineSink = function* (chunk) {
    const line = String(chunk);
    tail.push(line);
    if (tail.length > 40) tail.shift();
    const endpoint = ENDPOINT_LINE.exec(line)?.[1];
    if (endpoint) onEndpoint(endpoint);
  };
  return {
    tail,
    sink,
    whenEndpoint(callback) {
      onEndpoint = callback;
    },
  };
}

/** A running Firefox that this process started and must stop. */
export class LaunchedFirefox {
  private exited = false;

  constructor(
    readonly process: FirefoxProcess,
    readonly profile: OwnedProfile,
    readonly binary: string,
    readonly endpoint: string,
    private readonly stderrTail: string[],
    readonly phases: StartupPhases,
  ) {
    if (process.exitCode !== null || process.signalCode !== null) this.exited = true;
    process.on('exit', () => {
      this.exited = true;
    });
  }

  get pid(): number {
    return this.process.pid ?? -1;
  }

  get hasExited(): boolean {
    return this.exited;
  }

  /** Firefox quit by itself with status 0: it wrote its profile out in order. */
  get exitedCleanly(): boolean {
    return this.process.exitCode === 0 && this.process.signalCode === null;
  }

  /**
   * A throwaway profile whose Firefox build has no saved first run yet: it is left to quit in order (~0.35 s) so that
   * its first-run state can be kept. Any other one is killed as soon as it drops the connection on quitting.
   */
  get keepsFirstRunState(): boolean {
    return this.profile.isolated && !hasFirstRunState(this.binary);
  }

  /** Before a throwaway profile is deleted: keep Firefox's first-run state for the next one (see warm-profile.ts). */
  keepFirstRunState(): void {
    if (this.keepsFirstRunState && this.exitedCleanly) keepFirstRunState(this.profile.dir, this.binary);
  }

  recentStderr(): string {
    return this.stderrTail.join('\n');
  }

  /** Resolves once the process is gone; kills the whole process group if it lingers past `graceMs`. */
  async waitForExit(graceMs: number): Promise<void> {
    if (this.exited) return;
    const exited = new Promise<void>((resolve) => this.process.once('exit', () => resolve()));
    const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), graceMs).unref());
    if ((await Promise.race([exited, timer])) === 'late') {
      this.killNow();
      await exited;
    }
  }

  killNow(): void {
    // The whole process group, so content processes go too.
    if (!this.exited && this.pid > 0) killGroup(this.pid);
  }
}

/** Starts Firefox on an owned profile and finds its WebDriver BiDi endpoint. */
export async function launchFirefox(options: LaunchOptions): Promise<LaunchedFirefox> {
  const startedAt = performance.now();
  const found = findFirefox(options.firefox);
  const profile = OwnedProfile.acquire(options.profile, options.isolated, options.tuning?.prefs);
  const seeded = profile.firstRun && seedProfile(profile.dir, found.path);
  // A file left by an earlier run would name a dead port.
  rmSync(join(profile.dir, 'WebDriverBiDiServer.json'), { force: true });
  const args = ['--no-remote', '--profile', profile.dir, '--remote-debugging-port=0', '--remote-allow-hosts', 'localhost,127.0.0.1'];
  if (!options.headed) args.unshift('-headless');
  const stderr = stderrWatch();
  let child: FirefoxProcess;
  try {
    child = execa(found.path, args, {
      detached: true,
      stdin: 'ignore',
      stdout: 'ignore',
      stderr: stderr.sink,
      reject: false,
      buffer: false,
      cleanup: false,
      // Only what Firefox needs of our environment: a token or an API key of the server's is none of its business.
      extendEnv: false,
      env: {
        ...firefoxEnvironment(process.env),
        MOZ_HEADLESS: options.headed ? undefined : '1',
        MOZ_CRASHREPORTER_DISABLE: '1',
        MOZ_DISABLE_AUTO_SAFE_MODE: '1',
        ...options.tuning?.env,
      },
    });
  } catch (error) {
    profile.release();
    throw new ToolError('launch_failed', `Could not start ${found.path}: ${(error as Error).message}`);
  }
  const spawn = performance.now() - startedAt;
  const unguard = child.pid ? guardProcessGroup(child.pid, profile.isolated ? profile.dir : undefined) : () => undefined;
  child.on('exit', unguard);
  try {
    const endpoint = await readEndpoint(child, profile.dir, stderr);
    return new LaunchedFirefox(child, profile, found.path, endpoint, stderr.tail, { startedAt, spawn, endpoint: performance.now() - startedAt, ...(profile.firstRun ? { seeded } : {}) });
  } catch (error) {
    if (child.pid) killGroup(child.pid);
    await child.catch(() => undefined);
    profile.release();
    throw error;
  }
}

/** Variables a browser uses: display, locale, paths, proxies, Windows basics, MOZ_* and the test suite's process marker. */
const PASSED_ENV =
  /^(PATH|HOME|USER|LOGNAME|SHELL|LANG|LANGUAGE|LC_\w+|TZ|TMPDIR|TEMP|TMP|DISPLAY|WAYLAND_DISPLAY|XAUTHORITY|XDG_\w+|DBUS_SESSION_BUS_ADDRESS|FONTCONFIG_\w+|(https?|ftp|all|no)_proxy|(HTTPS?|FTP|ALL|NO)_PROXY|SYSTEMROOT|SystemRoot|WINDIR|windir|APPDATA|LOCALAPPDATA|USERPROFILE|PROGRAMFILES|ProgramFiles|COMSPEC|MOZ_\w+|FIREFOX_USE_TEST_RUN)$/;

export function firefoxEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && PASSED_ENV.test(entry[0])));
}

function readEndpoint(child: FirefoxProcess, profileDir: string, stderr: ReturnType<typeof stderrWatch>): Promise<string> {
  const { tail } = stderr;
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null, endpoint?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      if (error) reject(error);
      else resolve(endpoint!);
    };
    stderr.whenEndpoint((endpoint) => finish(null, endpoint));
    child.on('exit', (code, signal) => {
      finish(
        new ToolError('launch_failed', `Firefox exited before it was ready (code ${code}, signal ${signal}).\n${tail.slice(-10).join('\n')}`),
      );
    });
    // The profile's WebDriverBiDiServer.json appears a little after the stderr line: only a fallback.
    const poll = setInterval(() => {
      readFile(join(profileDir, 'WebDriverBiDiServer.json'), 'utf8')
        .then((text) => {
          const info = JSON.parse(text) as { ws_host?: string; ws_port?: number };
          if (info.ws_port) finish(null, `ws://${info.ws_host ?? '127.0.0.1'}:${info.ws_port}`);
        })
        .catch(() => undefined);
    }, 250);
    const timer = setTimeout(
      () => finish(new ToolError('launch_failed', `Firefox did not open its BiDi endpoint within ${START_TIMEOUT_MS} ms.`)),
      START_TIMEOUT_MS,
    );
  });
}
