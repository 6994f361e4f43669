// Waking a wait on a tab when something about its document may have changed, instead of polling the page: BiDi's
// navigation events as the Browser routes them to the tab (committed, load, fragment, history, failed; not started,
// which changes nothing a wait looks at: the document is the old one until the new one commits), a dialog, the
// tab's closing, a request the origin rules refused.
import type { NavigationEvent, Tab } from './tab.js';

/**
 * One wake-up, armed when made: make it before asking the page, so that an event that comes while the page is asked
 * is not missed, then `wait` (or `dispose` when the answer was enough).
 */
export class TabChange {
  private fired = false;
  private wake: (() => void) | null = null;
  private readonly fire = (): void => {
    this.fired = true;
    this.wake?.();
  };
  private readonly onNavigation = (kind: NavigationEvent[0]): void => {
    if (kind !== 'started') this.fire();
  };

  constructor(private readonly tab: Tab) {
    tab.on('navigation', this.onNavigation);
    tab.on('dialog', this.fire);
    tab.on('closed', this.fire);
    tab.on('blocked', this.fire);
  }

  /** Resolves at the first change since this was made (at once if one came already), or after `ms`; then disarms. */
  async wait(ms: number): Promise<void> {
    try {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(this.fire, Math.max(0, ms));
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
        if (this.fired) this.wake();
      });
    } finally {
      this.dispose();
    }
  }

  dispose(): void {
    this.wake = null;
    this.tab.off('navigation', this.onNavigation);
    this.tab.off('dialog', this.fire);
    this.tab.off('closed', this.fire);
    this.tab.off('blocked', this.fire);
  }
}
