// request_human's hand-off: a tab put in a person's hands until they press Done in the live view (or accept the
// request where the MCP client asks them), the time runs out, they decline, or the call is cancelled. While a tab is
// held, the session's other calls on it are refused (held_by_person) and the live view's input reaches it.
import { CallCancelled } from '../../abort.js';
import { ToolError } from '../../errors.js';
import type { HandOffRequest, HandOffResult } from '../../tools/context.js';

/** A tab in the person's hands. */
export interface HeldTab {
  tabId: number;
  /** What the agent asked the person to do. */
  task: string;
  startedAt: number;
  /** Date.now() when the hand-off ends at the latest. */
  until: number;
  /** Inputs the live view delivered to the tab during it. */
  inputs: number;
}

/** How a hand-off offered through the MCP client ended (elicit.ts). */
export type ClientHandOffAnswer = { answer: 'done'; note: string | null } | { answer: 'declined' | 'dismissed' | 'timeout' | 'unavailable' };

/** Offers the hand-off through the MCP client; never throws. `stop` withdraws it (the live view's Done came first). */
export type HandOffOffer = (message: string, timeoutMs: number, callSignal: AbortSignal, stop: AbortSignal) => Promise<ClientHandOffAnswer>;

interface Hold extends HeldTab {
  finish: (note: string | null) => void;
}

/** The session's held tabs; listeners hear every change (the live view shows the request). */
export class HandOffs {
  private readonly held = new Map<number, Hold>();
  private readonly listeners = new Set<() => void>();

  get(tabId: number): HeldTab | undefined {
    const hold = this.held.get(tabId);
    return hold && { tabId: hold.tabId, task: hold.task, startedAt: hold.startedAt, until: hold.until, inputs: hold.inputs };
  }

  list(): HeldTab[] {
    return [...this.held.keys()].map((tabId) => this.get(tabId)!);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Refuses a call on a held tab, saying until when. */
  assertFree(tabId: number): void {
    const hold = this.held.get(tabId);
    if (!hold) return;
    const seconds = Math.max(0, Math.ceil((hold.until - Date.now()) / 1000));
    throw new ToolError(
      'held_by_person',
      `Tab ${tabId} is in a person's hands (request_human: "${hold.task.slice(0, 120)}") until they press Done, at most ${seconds} s more (until ${new Date(hold.until).toISOString()}). Nothing was done; wait for the request_human call to return.`,
      { tabId, until: new Date(hold.until).toISOString() },
    );
  }

  /** Counts an input of the person's on a held tab; false when the tab is not held (the view is watch-only then). */
  noteInput(tabId: number): boolean {
    const hold = this.held.get(tabId);
    if (!hold) return false;
    hold.inputs++;
    return true;
  }

  /** The person pressed Done in the live view; false when the tab is not held. */
  done(tabId: number, note: string | null): boolean {
    const hold = this.held.get(tabId);
    if (!hold) return false;
    hold.finish(note);
    return true;
  }

  /** Holds the tab until `release` (the hand-off's end, whichever way); `finished` resolves when Done is pressed. */
  hold(tabId: number, task: string, timeoutMs: number): { finished: Promise<string | null>; release: () => HeldTab } {
    this.assertFree(tabId);
    let finish!: (note: string | null) => void;
    const finished = new Promise<string | null>((resolve) => (finish = resolve));
    const startedAt = Date.now();
    const hold: Hold = { tabId, task, startedAt, until: startedAt + timeoutMs, inputs: 0, finish };
    this.held.set(tabId, hold);
    this.changed();
    return {
      finished,
      release: () => {
        if (this.held.get(tabId) === hold) this.held.delete(tabId);
        this.changed();
        return { tabId, task, startedAt, until: hold.until, inputs: hold.inputs };
      },
    };
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

/** What request_human needs of its session: the holds, where the live view is, and how to ask through the client. */
export interface HandOffSession {
  readonly handOffs: HandOffs;
  /** The live view's URL for this tab; null when the server has none (stdio without --live-port). */
  liveUrl(tabId: number): string | null;
  offerHandOff: HandOffOffer;
  /** Resolves when the tab closes (a page that closed itself): the hand-off cannot go on. Stops listening on `stop`. */
  whenTabCloses(tabId: number, stop: AbortSignal): Promise<void>;
}

/**
 * Runs one hand-off: holds the tab, offers it in the live view and through the client, and ends it whichever way
 * comes first; the hold is released every way. `headed`: the person can see Firefox's own window, so the client's
 * question alone will do.
 */
export async function runHandOff(session: HandOffSession, request: HandOffRequest, headed: boolean, signal: AbortSignal): Promise<HandOffResult> {
  const url = session.liveUrl(request.tabId);
  if (!url && !headed) {
    throw new ToolError('no_live_view', 'No person can take the tab: this server has no live view. Start `firefox-use mcp` with --live-port N (or use `serve`, which serves /live) and call again. Nothing was done.', {
      tabId: request.tabId,
    });
  }
  if (signal.aborted) throw new CallCancelled(false);
  const began = Date.now();
  const { finished, release } = session.handOffs.hold(request.tabId, request.task, request.timeoutMs);
  const stop = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    const where = url ? ` Open ${url} to take it, then press Done there, or accept here once you are done.` : ' Do it in the Firefox window, then accept here.';
    const message = `The agent asks you: ${request.task.replace(/\s+/g, ' ').trim()}.${where}`;
    type Ending = { by: 'live'; note: string | null } | { by: 'client'; answer: ClientHandOffAnswer } | { by: 'timeout' } | { by: 'cancel' } | { by: 'closed' };
    const endings: Array<Promise<Ending>> = [
      finished.then((note): Ending => ({ by: 'live', note })),
      session.offerHandOff(message, request.timeoutMs, signal, stop.signal).then((answer): Ending => ({ by: 'client', answer })),
      new Promise<Ending>((resolve) => (timer = setTimeout(() => resolve({ by: 'timeout' }), request.timeoutMs))),
      new Promise<Ending>((resolve) => {
        onAbort = () => resolve({ by: 'cancel' });
        signal.addEventListener('abort', onAbort, { once: true });
      }),
      session.whenTabCloses(request.tabId, stop.signal).then((): Ending => ({ by: 'closed' })),
    ];
    for (;;) {
      const ending = await Promise.race(endings);
      if (ending.by === 'live') return { note: ending.note, inputs: session.handOffs.get(request.tabId)?.inputs ?? 0, via: 'live_view', waitedMs: Date.now() - began };

      const inputs = session.handOffs.get(request.tabId)?.inputs ?? 0;
      if (ending.by === 'timeout') {
        throw new ToolError('human_timeout', `The person did not press Done within ${Math.round(request.timeoutMs / 1000)} s (${inputs} inputs of theirs reached the tab). The hand-off is over and tab ${request.tabId} is yours again; look at it before going on: what they did meanwhile stays done.`, {
          tabId: request.tabId,
          inputs,
        });
      }
      if (ending.by === 'cancel') throw new CallCancelled();
      if (ending.by === 'closed') throw new ToolError('tab_closed', `Tab ${request.tabId} closed during the hand-off (${inputs} inputs of the person's had reached it).`, { tabId: request.tabId, inputs });
      const answer = ending.answer;
      if (answer.answer === 'done') return { note: answer.note, inputs, via: 'client', waitedMs: Date.now() - began };
      if (answer.answer === 'declined') {
        throw new ToolError('human_declined', `The person declined the hand-off. Tab ${request.tabId} is yours again.`, { tabId: request.tabId, inputs });
      }
      if (!url) {
        // Headed, with nobody to ask through the client: the person could not be told.
        throw new ToolError('no_live_view', 'No person can take the tab: this server has no live view and the client cannot ask (no elicitation). Start `firefox-use mcp` with --live-port N. Nothing was done.', {
          tabId: request.tabId,
        });
      }
      // Dismissed, timed out or not asked through the client: the live view still holds the request.
      endings[1] = new Promise<Ending>(() => undefined);
    }
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
    stop.abort();
    release();
  }
}
