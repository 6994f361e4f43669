import { randomUUID } from 'node:crypto';
import type { Browser } from '../browser/browser.js';
import type { BrowserManager } from '../browser/manager.js';
import type { Tab } from '../browser/tab/index.js';
import { ToolError } from '../errors.js';
import type { SessionRecorder } from './recorder.js';

export interface SessionOptions {
  /** The group's tabs get cookies, storage and cache of their own (a BiDi user context), as serve gives each session. */
  ownStorage?: boolean;
  /** With ownStorage: where the group's downloads go (its own folder of the output dir). */
  downloadDir?: string;
  /** Open the group's first tab as soon as the browser is up (mcp's and run's one session; see Browser.openFirstTabAhead). */
  firstTabAhead?: boolean;
}

/**
 * One MCP session and its tab group: the tabs it opened and the ones those tabs opened. It can see and touch
 * nothing else in the shared browser.
 */
export class Session {
  readonly id = randomUUID();
  /** The tab this session used last: what `active` means in tabs_context_mcp and the default for scripts. */
  activeTabId: number | null = null;
  /** Keeps the session's calls for a `run` script (--save-script, --caps script); null when neither asks for it. */
  recorder: SessionRecorder | null = null;
  /** Every tab this group ever had, so a closed one is told apart from one that was never ours. */
  private readonly known = new Map<number, Tab>();
  private seenGeneration = 0;
  private lostTabs: number[] = [];
  /** URLs of tabs pages opened past the tab limit, closed at once, not reported yet. */
  private refusedTabs: string[] = [];
  /** Why those tabs went: Firefox stopped, or the server released it after --idle-timeout. */
  private lostHow: 'crashed' | 'released_idle' = 'crashed';
  /** Tabs and popups the group's pages opened that no reply has reported yet. */
  private unreported: Tab[] = [];
  private readonly unsubscribe: () => void;
  /** Removes this session's listener from the browser it is attached to (one listener per session, not per launch). */
  private detach: (() => void) | null = null;
  private closed = false;

  readonly ownStorage: boolean;
  readonly downloadDir: string | undefined;
  private readonly firstTabAhead: boolean;

  constructor(
    readonly manager: BrowserManager,
    options: SessionOptions = {},
  ) {
    this.ownStorage = options.ownStorage ?? false;
    this.downloadDir = options.downloadDir;
    this.firstTabAhead = options.firstTabAhead ?? false;
    this.unsubscribe = manager.onLaunch((browser) => this.attach(browser));
  }

  private attach(browser: Browser): void {
    this.detach?.();
    if (this.closed) return;
    if (this.ownStorage) browser.isolateGroup(this.id, this.downloadDir);
    if (this.firstTabAhead) browser.openFirstTabAhead(this.id);
    const onPopup = (tab: Tab) => {
      if (tab.groupId !== this.id) return;
      this.known.set(tab.id, tab);
      this.unreported.push(tab);
    };
    const onRefused = (groupId: string, url: string) => {
      if (groupId === this.id) this.refusedTabs.push(url);
    };
    browser.on('tabOpenedByPage', onPopup);
    browser.on('tabRefused', onRefused);
    this.detach = () => {
      browser.off('tabOpenedByPage', onPopup);
      browser.off('tabRefused', onRefused);
    };
  }

  /** The live browser; after a crash the first call relaunches it and learns which tabs were lost. */
  async browser(): Promise<Browser> {
    const browser = await this.manager.get();
    if (this.seenGeneration !== this.manager.generation) {
      if (this.seenGeneration !== 0) {
        this.lostTabs = [...this.known.values()].filter((tab) => tab.closedReason === 'browser_crashed').map((tab) => tab.id);
        this.lostHow = this.manager.lastEnd;
      }
      this.seenGeneration = this.manager.generation;
    }
    return browser;
  }

  /** Said once, at the head of the next reply (a cancelled call's outcome). */
  private pendingNotices: string[] = [];

  addNotice(notice: string): void {
    this.pendingNotices.push(notice);
  }

  /** Tabs lost in a crash, and other notices, that this session has not been told about yet (told once). */
  takeLostTabsNotice(): string | null {
    const notices: string[] = this.pendingNotices;
    this.pendingNotices = [];
    if (this.lostTabs.length) {
      const ids = this.lostTabs.join(', ');
      notices.push(
        this.lostHow === 'released_idle'
          ? `Firefox had been closed after --idle-timeout without calls and was started again on the same profile (cookies kept); earlier tabs (${ids}) are gone.`
          : `Firefox had stopped and was restarted on the same profile; earlier tabs (${ids}) are gone.`,
      );
    }
    if (this.refusedTabs.length) {
      const count = this.refusedTabs.length;
      notices.push(`A page opened ${count === 1 ? 'a tab' : `${count} tabs`} past this session's tab limit (--max-tabs); closed at once.`);
    }
    this.lostTabs = [];
    this.refusedTabs = [];
    return notices.length ? notices.join('\n') : null;
  }

  /** The tabs pages opened since the last call that reported them (each is reported once); still-open ones only. */
  takeOpenedTabs(): Tab[] {
    const opened = this.unreported.filter((tab) => !tab.isClosed);
    this.unreported = [];
    return opened;
  }

  remember(tab: Tab): void {
    this.known.set(tab.id, tab);
  }

  /** The group's tab with this id, or a coded refusal that reveals nothing about other groups. */
  resolveTab(browser: Browser, tabId: number): Tab {
    const tab = browser.tab(tabId);
    if (tab && tab.groupId === this.id) {
      this.known.set(tab.id, tab);
      return tab;
    }
    const ours = this.known.get(tabId);
    if (ours) {
      ours.assertUsable();
      throw new ToolError('tab_closed', `Tab ${tabId} is gone.`, { tabId });
    }
    throw new ToolError('tab_not_in_group', `Tab ${tabId} is not in this session's tab group. Call tabs_context_mcp for the ids you can use.`, {
      tabId,
    });
  }

  tabs(browser: Browser): Tab[] {
    const tabs = browser.tabsOfGroup(this.id);
    for (const tab of tabs) this.known.set(tab.id, tab);
    return tabs;
  }

  /**
   * Closes the group's tabs (when the MCP session ends under `serve`); nobody is left to answer a dialog. A session
   * with storage of its own loses it here.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    this.detach?.();
    this.detach = null;
    const browser = this.manager.live;
    if (!browser) return;
    await browser.releaseGroup(this.id);
  }
}
