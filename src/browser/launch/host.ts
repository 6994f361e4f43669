import type { BidiLink } from '../../bidi/connection.js';
import type { LaunchedFirefox } from './launcher.js';

/**
 * Whoever keeps the Firefox of a Browser alive: a process this server launched, or a session on a remote
 * WebDriver endpoint. The Browser itself only speaks BiDi; starting and ending the browser is the host's business.
 */
export interface BrowserHost {
  /** Process id of a local Firefox, or -1 when it runs elsewhere. */
  readonly pid: number;
  /** Called once when the browser goes away by itself (process exit). Remote hosts learn it from the socket. */
  onExit(listener: () => void): void;
  /** Ends the browser at once, without waiting (after a crash or a lost connection). */
  killNow(): void;
  /** Once asked to quit, the browser is left to write its profile out rather than killed when its connection drops. */
  readonly quitsInOrder?: boolean;
  /** Ends the browser in order; `alive` is false when the connection is already gone. */
  shutdown(bidi: BidiLink, graceMs: number, alive: boolean): Promise<void>;
  /** Waits for a shutdown already started elsewhere. */
  waitForExit(graceMs: number): Promise<void>;
  /** The browser is the user's (--connect): it stays when we end, and only the tabs we opened are closed. */
  readonly keepsBrowser?: boolean;
}

const STORAGE_FLUSH_MS = 1_200;

/** A Firefox process launched on an owned profile: browser.close over BiDi, then a kill if it lingers. */
export class LocalHost implements BrowserHost {
  constructor(readonly firefox: LaunchedFirefox) {}

  get pid(): number {
    return this.firefox.pid;
  }

  onExit(listener: () => void): void {
    this.firefox.process.once('exit', listener);
  }

  killNow(): void {
    this.firefox.killNow();
  }

  get quitsInOrder(): boolean {
    return this.firefox.keepsFirstRunState;
  }

  async shutdown(bidi: BidiLink, graceMs: number, alive: boolean): Promise<void> {
    if (alive && !bidi.closed) {
      // browser.close quits at once, dropping storage writes Firefox still batches (a cookie set in the last
      // second is lost). A kept profile gets a moment for them first; a throwaway one is deleted anyway.
      if (!this.firefox.profile.isolated) await new Promise((resolve) => setTimeout(resolve, STORAGE_FLUSH_MS));
      await bidi.send('browser.close', {}, { timeout: Math.min(graceMs, 3_000) }).catch(() => undefined);
    }
    await this.firefox.waitForExit(graceMs);
    bidi.close();
    this.firefox.keepFirstRunState();
    this.firefox.profile.release();
  }

  waitForExit(graceMs: number): Promise<void> {
    return this.firefox.waitForExit(graceMs);
  }
}
