import type { BrowserManager } from '../browser/manager.js';
import type { TabGroup } from '../browser/group/index.js';
import type { Tab } from '../browser/tab/index.js';
import type { SessionRecorder } from './recorder.js';
import type { SessionTrace } from './trace.js';
import { CallWatchers } from './call-watch.js';
import type { ConfirmAnswer, ConfirmQuestion } from '../tools/context.js';
import { HandOffs, type HandOffOffer, type HandOffSession } from './live/hand-off.js';

/** How a session asks the person beside the agent a yes-or-no question (--confirm-actions). */
export type Asker = (question: ConfirmQuestion, signal: AbortSignal) => Promise<ConfirmAnswer>;

/**
 * One MCP session on its tab group (src/browser/group/tab-group.ts), which owns the tabs, the user context and
 * what the group has not been told yet. The session keeps what is MCP's: its recorder, the notices of its calls,
 * and the manager it holds the browser through.
 */
export class Session implements HandOffSession {
  /** Keeps the session's calls for a `run` script (--save-script, --caps script); null when neither asks for it. */
  recorder: SessionRecorder | null = null;
  /** --save-trace: its calls written as an HTML file as they happen (one of its watchers); null without the flag. */
  trace: SessionTrace | null = null;
  /** Watch its calls as they happen (a trace, a live view); none by default. */
  readonly watchers = new CallWatchers();
  /** Asks the person (the MCP server sets it: elicitation); with none, nobody can be asked. */
  ask: Asker = () => Promise.resolve<ConfirmAnswer>('unavailable');
  /** Tabs in a person's hands (request_human): the session's other calls on them are refused meanwhile. */
  readonly handOffs = new HandOffs();
  /** Offers a hand-off through the MCP client (elicitation); with none, nobody is asked there. */
  offerHandOff: HandOffOffer = () => Promise.resolve({ answer: 'unavailable' });
  /** The live view's URL of one of its tabs; null while the server has no live view (set with one). */
  liveUrl: (tabId: number) => string | null = () => null;
  /** Run when the session closes (its live view stops watching). */
  private readonly closers: Array<() => void> = [];
  /** Said once, at the head of the next reply (a cancelled call's outcome). */
  private pendingNotices: string[] = [];

  constructor(readonly group: TabGroup) {}

  /** The manager whose browser a call holds while it runs (see BrowserManager.hold). */
  get manager(): BrowserManager {
    return this.group.manager;
  }

  addNotice(notice: string): void {
    this.pendingNotices.push(notice);
  }

  /** Tabs lost in a crash, and other notices, that this session has not been told about yet (told once). */
  takeLostTabsNotice(): string | null {
    const notices = [...this.pendingNotices, ...this.group.takeNotices()];
    this.pendingNotices = [];
    return notices.length ? notices.join('\n') : null;
  }

  /** The tabs pages opened since the last call that reported them (each is reported once); still-open ones only. */
  takeOpenedTabs(): Tab[] {
    return this.group.takeOpenedTabs();
  }

  whenTabCloses(tabId: number, stop: AbortSignal): Promise<void> {
    const tab = this.manager.live?.tab(tabId);
    if (!tab || tab.groupId !== this.group.id) return new Promise(() => undefined);
    if (tab.isClosed) return Promise.resolve();
    return new Promise((resolve) => {
      const closed = () => resolve();
      tab.once('closed', closed);
      stop.addEventListener('abort', () => tab.off('closed', closed), { once: true });
    });
  }

  onClose(closer: () => void): void {
    this.closers.push(closer);
  }

  /** Ends the session's group: its tabs close, and storage of its own goes with them. */
  close(): Promise<void> {
    for (const closer of this.closers.splice(0)) closer();
    return this.group.dispose();
  }
}
