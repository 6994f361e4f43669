// Listeners an action arms in the page before its input and reads back after, kept by the action's token.

export interface ArmedWatch {
  /** Takes the watch's listeners off the page. */
  remove: () => void;
  timer: number;
}

export class WatchRegistry<W extends ArmedWatch> {
  private readonly watches = new Map<string, W>();

  /** Keeps `watch` under `token` (replacing an earlier one). A call that never reads it back (the server died, the page navigated) must not leak listeners: it goes after 60 s. */
  arm(token: string, watch: W): void {
    this.disarm(token);
    watch.timer = window.setTimeout(() => this.disarm(token), 60_000);
    this.watches.set(token, watch);
  }

  get(token: string): W | undefined {
    return this.watches.get(token);
  }

  /** Removes the watch and hands it back for its report. */
  disarm(token: string): W | undefined {
    const watch = this.watches.get(token);
    if (!watch) return undefined;
    watch.remove();
    window.clearTimeout(watch.timer);
    this.watches.delete(token);
    return watch;
  }
}
