import type { ServerOptions } from '../config.js';
import { Browser, type BrowserOptions } from './browser.js';
import { launchOptionsOf, type LaunchedFirefox, type StartupPhases } from './launch/launcher.js';
import { connectRemote } from './launch/remote.js';
import { connectRunning } from './launch/attach.js';
import { readStorageState } from './group/storage.js';
import { readInitScript } from './launch/launch-prefs.js';
import { httpCredentialsOf } from './tab/http-auth.js';

/** Why the last browser went away: a crash, or an idle release (`--idle-timeout`). */
export type BrowserEnd = 'crashed' | 'released_idle';

/**
 * Owns the one Browser of a server: launches it on first need, and again after a crash. Every MCP session asks it
 * for the live browser, so a crash costs one failed call, never the server.
 */
export class BrowserManager {
  private current: Browser | null = null;
  private launching: Promise<Browser> | null = null;
  /** A launch started before any call asked (`prelaunch`); the first call takes it, failure included. */
  private prelaunched: Promise<Browser> | null = null;
  /** Bumped at each launch, so sessions can tell that their earlier tabs went with a crashed browser. */
  generation = 0;
  /** The startup phases of the last launch (null for a remote browser or before any launch). */
  lastStartup: StartupPhases | null = null;
  /** How the browser before the current one ended. */
  lastEnd: BrowserEnd = 'crashed';
  private shuttingDown = false;
  private readonly listeners = new Set<(browser: Browser) => void>();
  /** Calls under way; the idle clock runs only while this is 0. */
  private inUse = 0;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: ServerOptions) {}

  /** Called with each newly launched browser (sessions hook their popup and crash handling here). */
  onLaunch(listener: (browser: Browser) => void): () => void {
    this.listeners.add(listener);
    if (this.current) listener(this.current);
    return () => this.listeners.delete(listener);
  }

  /** Listeners on launches: one per Session not closed yet (the test tool test_server_state reports it). */
  get listenerCount(): number {
    return this.listeners.size;
  }

  get live(): Browser | null {
    return this.current && !this.current.isGone() ? this.current : null;
  }

  /**
   * Starts Firefox now, before any call needs it (the server knows one will). The first call waits for this launch
   * and gets its failure as its own coded error; later calls launch again.
   */
  prelaunch(spawned?: Promise<LaunchedFirefox>): Promise<unknown> {
    if (this.prelaunched || this.current || this.launching) return Promise.resolve();
    const launch = this.get(spawned);
    this.prelaunched = launch;
    launch.catch(() => undefined);
    return launch;
  }

  /** `spawned`: a Firefox already starting with this manager's launch options (main.ts spawns it before loading us). */
  async get(spawned?: Promise<LaunchedFirefox>): Promise<Browser> {
    if (this.shuttingDown) throw new Error('The server is shutting down.');
    const early = this.prelaunched;
    if (early) {
      this.prelaunched = null;
      const browser = await early;
      if (!browser.isGone()) return browser;
    }
    const live = this.live;
    if (live) return live;
    if (!this.launching) {
      const previous = this.current;
      this.launching = (async () => {
        if (previous) {
          this.lastEnd = 'crashed';
          await previous.close(2_000).catch(() => undefined);
        }
        const launch: BrowserOptions = {
          ...launchOptionsOf(this.options),
          viewport: this.options.viewport,
          deviceScaleFactor: this.options.deviceScaleFactor,
          outputDir: this.options.outputDir,
          downloadQuota: this.options.downloadQuota,
          maxTabsPerGroup: this.options.maxTabs,
          timeouts: { action: this.options.timeoutAction, navigation: this.options.timeoutNavigation },
          origins: { allowedOrigins: this.options.allowedOrigins, blockedOrigins: this.options.blockedOrigins },
          ...(this.options.storageState ? { storageState: readStorageState(this.options.storageState) } : {}),
          ...(this.options.initScript ? { initScript: readInitScript(this.options.initScript) } : {}),
          httpCredentials: httpCredentialsOf(this.options),
        };
        const browser = this.options.connect
          ? await connectRunning(this.options.connect, launch)
          : this.options.webdriverUrl
            ? await connectRemote(this.options.webdriverUrl, launch)
            : await Browser.launch(launch, spawned);
        this.generation++;
        this.current = browser;
        this.lastStartup = browser.startup;
        for (const listener of this.listeners) listener(browser);
        this.armIdle();
        return browser;
      })().finally(() => {
        this.launching = null;
      });
    }
    return this.launching;
  }

  /**
   * Marks a call under way until the returned function is called: an idle browser is released only when no call
   * has been running for `--idle-timeout` milliseconds.
   */
  hold(): () => void {
    this.inUse++;
    this.disarmIdle();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inUse--;
      this.armIdle();
    };
  }

  private disarmIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private armIdle(): void {
    const after = this.options.idleTimeout;
    this.disarmIdle();
    if (!after || this.inUse > 0 || !this.live) return;
    this.idleTimer = setTimeout(() => void this.releaseIdle(), after);
    this.idleTimer.unref();
  }

  /** Closes a browser no call has used for `--idle-timeout` ms; the next call launches it again on the same profile. */
  private async releaseIdle(): Promise<void> {
    this.idleTimer = null;
    const browser = this.live;
    if (!browser || this.inUse > 0 || this.launching || this.shuttingDown) return;
    this.lastEnd = 'released_idle';
    this.current = null;
    await browser.close().catch(() => undefined);
  }

  /** A script ends: the live browser's requests in flight get up to `maxMs` to finish before it closes. */
  async drainRequests(maxMs: number): Promise<void> {
    await this.live?.drainRequests(maxMs).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.shuttingDown = true;
    this.disarmIdle();
    // A launch still under way gets a few seconds; past that it is closed when it lands (a remote session made after
    // its MCP session ended must still be deleted), and the exit hook kills a local one if the process goes first.
    const launching = this.launching;
    const late = Symbol('late');
    const pending = launching
      ? await Promise.race([launching.catch(() => null), new Promise<typeof late>((resolve) => setTimeout(() => resolve(late), 3_000).unref())])
      : null;
    if (pending === late) void launching!.then((browser) => browser.close(), () => undefined);
    const browser = (pending === late ? null : pending) ?? this.current;
    await browser?.close();
    this.current = null;
  }
}
