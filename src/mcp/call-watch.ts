// Who watches a session's calls as they happen, beside the recorder: a trace written as the session goes, a live view.
// Each watcher hears a call when it begins and when its reply is ready (secrets masked, as the client reads it); a
// watcher that fails or is slow never holds up or changes a reply.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export interface WatchedCall {
  /** 1, 2, ... in the order the session's calls began. */
  id: number;
  tool: string;
  /** As the agent wrote them: a --secrets value stays `${NAME}`. */
  args: Record<string, unknown>;
  /** The tab the call names (tab tools), when it names one. */
  tabId?: number;
  /** Date.now() when it began. */
  startedAt: number;
}

export interface EndedCall extends WatchedCall {
  /** The reply as the client gets it (secrets masked). */
  result: CallToolResult;
  durationMs: number;
}

export interface CallWatcher {
  callStarted?(call: WatchedCall): void;
  callEnded?(call: EndedCall): void | Promise<void>;
}

/** Tells each watcher; a watcher's failure is its own (logged once per watcher), never the call's. */
export class CallWatchers {
  private readonly watchers: CallWatcher[] = [];
  private nextId = 1;
  private readonly failed = new WeakSet<CallWatcher>();

  add(watcher: CallWatcher): () => void {
    this.watchers.push(watcher);
    return () => {
      const index = this.watchers.indexOf(watcher);
      if (index >= 0) this.watchers.splice(index, 1);
    };
  }

  get size(): number {
    return this.watchers.length;
  }

  /** A new call: its id and start, told to the watchers (nothing is made when none watch). */
  begin(tool: string, args: Record<string, unknown>): WatchedCall | null {
    if (this.watchers.length === 0) return null;
    const call: WatchedCall = { id: this.nextId++, tool, args, startedAt: Date.now(), ...(typeof args['tabId'] === 'number' ? { tabId: args['tabId'] } : {}) };
    for (const watcher of this.watchers) this.safely(watcher, () => watcher.callStarted?.(call));
    return call;
  }

  end(call: WatchedCall | null, result: CallToolResult): void {
    if (!call) return;
    const ended: EndedCall = { ...call, result, durationMs: Date.now() - call.startedAt };
    for (const watcher of this.watchers) this.safely(watcher, () => watcher.callEnded?.(ended));
  }

  private safely(watcher: CallWatcher, tell: () => unknown): void {
    const report = (error: unknown) => {
      if (this.failed.has(watcher)) return;
      this.failed.add(watcher);
      process.stderr.write(`firefox-use: a call watcher failed (the calls go on): ${error instanceof Error ? error.message : String(error)}\n`);
    };
    try {
      const done = tell();
      if (done instanceof Promise) done.catch(report);
    } catch (error) {
      report(error);
    }
  }
}
