import type { ServerOptions } from '../config.js';
import { Browser, type BrowserOptions } from './browser.js';
import { connectRemote } from './remote.js';
import { readStorageState } from './storage.js';

/**
 * Owns the one Browser of a server: launches it on first need, and again after a crash. Every MCP session asks it
 * for the live browser, so a crash costs one failed call, never the server.
 */
export class BrowserManager {
  private current: Browser | null = null;
  private launching: Promise<Browser> | null = null;
  /** Bumped at each launch, so sessions can tell that their earlier tabs went with a crashed browser. */
  generation = 0;
  private shuttingDown = false;
  private readonly listeners = new Set<(browser: Browser) => void>();

  constructor(private readonly options: ServerOptions) {}

  /** Called with each newly launched browser (sessions hook their popup and crash handling here). */
  onLaunch(listener: (browser: Browser) => void): () => void {
    this.listeners.add(listener);
    if (this.current) listener(this.current);
    return () => this.listeners.delete(listener);
  }

  get live(): Browser | null {
    return this.current && !this.current.crashed ? this.current : null;
  }

  async get(): Promise<Browser> {
    if (this.shuttingDown) throw new Error('The server is shutting down.');
    const live = this.live;
    if (live) return live;
    if (!this.launching) {
      const previous = this.current;
      this.launching = (async () => {
        if (previous) await previous.close(2_000).catch(() => undefined);
        const launch: BrowserOptions = {
          firefox: this.options.firefox,
          profile: this.options.profile,
          isolated: this.options.isolated,
          headed: this.options.headed,
          viewport: this.options.viewport,
          outputDir: this.options.outputDir,
          timeouts: { action: this.options.timeoutAction, navigation: this.options.timeoutNavigation },
          origins: { allowedOrigins: this.options.allowedOrigins, blockedOrigins: this.options.blockedOrigins },
          ...(this.options.storageState ? { storageState: readStorageState(this.options.storageState) } : {}),
        };
        const browser = this.options.webdriverUrl ? await connectRemote(this.options.webdriverUrl, launch) : await Browser.launch(launch);
        this.generation++;
        this.current = browser;
        for (const listener of this.listeners) listener(browser);
        return browser;
      })().finally(() => {
        this.launching = null;
      });
    }
    return this.launching;
  }

  async close(): Promise<void> {
    this.shuttingDown = true;
    // A launch still under way gets a few seconds; past that the exit hook kills it (see reaper.ts).
    const pending = this.launching
      ? Promise.race([this.launching.catch(() => null), new Promise<null>((resolve) => setTimeout(() => resolve(null), 3_000).unref())])
      : null;
    const browser = (await pending) ?? this.current;
    await browser?.close();
    this.current = null;
  }
}
