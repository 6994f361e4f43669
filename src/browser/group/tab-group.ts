// One session's tab group: the tabs it opened and the ones their pages opened, its user context (cookies, storage,
// downloads), and what it has not been told yet (tabs lost across a relaunch, popups refused past --max-tabs).
// Modelled on Puppeteer's BiDi UserContext: one object that owns its pages, opens them and is disposed as one.
import { randomUUID } from 'node:crypto';
import { ToolError } from '../../errors.js';
import type { Browser } from '../browser.js';
import type { BrowserManager } from '../manager.js';
import { tabOf, type TabHandle } from '../tab/handle.js';
import type { Tab } from '../tab/tab.js';
import type { StorageCookie, StorageState } from './storage.js';

export interface TabGroupOptions {
  /** The group's tabs get cookies, storage and cache of their own (a BiDi user context), as serve gives each session. */
  ownStorage?: boolean;
  /** With ownStorage: where the group's downloads go (its own folder of the output dir). */
  downloadDir?: string;
  /** Open the group's first tab as soon as the browser is up (mcp's and run's one session; see Browser.openFirstTabAhead). */
  firstTabAhead?: boolean;
}

/** Where a tab opens and whether it is shown (see Browser.createTab). */
export interface OpenTabOptions {
  viewport?: { width: number; height: number };
  foreground?: 'tab' | 'window' | 'group';
  /** In the window of this tab (of any group). */
  beside?: TabHandle;
}

/** The group's cookie jar (its own under serve, the browser's default one otherwise). */
export interface CookieJar {
  list(filter?: { name?: string }): Promise<StorageCookie[]>;
  set(cookie: StorageCookie): Promise<void>;
  /** Deletes the cookies that match; answers how many went. */
  delete(filter: { name: string; domain: string; path: string }): Promise<number>;
}

/** What a tool may do with its group, on one browser (see TabGroup.on). */
export interface GroupAccess {
  /** The group's open tabs. */
  tabs(): Promise<TabHandle[]>;
  /** Opens a tab in the group, in front in the group's window; it becomes the active one (limit_reached past --max-tabs). */
  openTab(): Promise<TabHandle>;
  /** Closes one of its tabs, the page asked first (beforeunload); false when Firefox answered but it is still open. */
  closeTab(tab: TabHandle): Promise<boolean>;
  /** The tab the group used last: what `active` means in tabs_context_mcp. */
  activeTabId: number | null;
  /** Tabs and popups its pages opened that no reply has reported yet (each is handed out once). */
  takeOpenedTabs(): TabHandle[];
  readonly cookies: CookieJar;
  /** Its cookies and the localStorage of the origins its open tabs show (Playwright's storage-state shape). */
  storageState(): Promise<StorageState>;
}

export class TabGroup {
  /** The key the browser knows the group's tabs, user context and download quota by. */
  readonly id = randomUUID();
  /** The tab the group used last: what `active` means in tabs_context_mcp, and a script's current tab. */
  activeTabId: number | null = null;
  /** Every tab this group ever had, so a closed one is told apart from one that was never ours. */
  private readonly known = new Map<number, Tab>();
  private seenGeneration = 0;
  private lostTabs: number[] = [];
  /** Why those tabs went: Firefox stopped, or the server released it after --idle-timeout. */
  private lostHow: 'crashed' | 'released_idle' = 'crashed';
  /** URLs of tabs pages opened past the tab limit, closed at once, not reported yet. */
  private refusedTabs: string[] = [];
  /** Tabs and popups the group's pages opened that no reply has reported yet. */
  private unreported: Tab[] = [];
  private readonly unsubscribe: () => void;
  /** Removes this group's listeners from the browser it is attached to (one set per group, not per launch). */
  private detach: (() => void) | null = null;
  private disposed = false;

  readonly ownStorage: boolean;
  readonly downloadDir: string | undefined;
  private readonly firstTabAhead: boolean;

  constructor(
    readonly manager: BrowserManager,
    options: TabGroupOptions = {},
  ) {
    this.ownStorage = options.ownStorage ?? false;
    this.downloadDir = options.downloadDir;
    this.firstTabAhead = options.firstTabAhead ?? false;
    this.unsubscribe = manager.onLaunch((browser) => this.attach(browser));
  }

  private attach(browser: Browser): void {
    this.detach?.();
    if (this.disposed) return;
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

  /** Tabs lost when Firefox stopped and popups refused past --max-tabs, not told yet (each told once). */
  takeNotices(): string[] {
    const notices: string[] = [];
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
    return notices;
  }

  /** The tabs pages opened since the last call that reported them (each is reported once); still-open ones only. */
  takeOpenedTabs(): Tab[] {
    const opened = this.unreported.filter((tab) => !tab.isClosed);
    this.unreported = [];
    return opened;
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

  /** The group's open tabs in `browser`. */
  tabsIn(browser: Browser): Tab[] {
    const tabs = browser.tabsOfGroup(this.id);
    for (const tab of tabs) this.known.set(tab.id, tab);
    return tabs;
  }

  /** Opens a tab of the group in `browser` (limit_reached past --max-tabs); it becomes the active one. */
  async openTabIn(browser: Browser, options: OpenTabOptions = { foreground: 'group' }): Promise<Tab> {
    const { beside, ...rest } = options;
    const tab = await browser.createTab(this.id, { ...rest, ...(beside ? { beside: tabOf(beside) } : {}) });
    this.known.set(tab.id, tab);
    this.activeTabId = tab.id;
    return tab;
  }

  /** Opens a tab of the group, launching Firefox when it is not up. */
  async openTab(options?: OpenTabOptions): Promise<Tab> {
    return this.openTabIn(await this.browser(), options);
  }

  /** The active tab when it is still open, else null. */
  async activeTab(): Promise<Tab | null> {
    const browser = await this.browser();
    const tab = this.activeTabId === null ? undefined : browser.tab(this.activeTabId);
    return tab && !tab.isClosed ? tab : null;
  }

  /** The group as a tool sees it, on the browser `browser` answers (launched on first use, or the one a tab lives in). */
  on(browser: () => Promise<Browser>): GroupAccess {
    return new GroupOnBrowser(this, browser);
  }

  /**
   * Ends the group as one: closes its tabs (no beforeunload: nobody is left to answer a dialog), and with storage of
   * its own removes its user context, cookies, storage and download count with it.
   */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.unsubscribe();
    this.detach?.();
    this.detach = null;
    const browser = this.manager.live;
    if (!browser) return;
    await browser.releaseGroup(this.id);
  }
}

/** A TabGroup's tool view, every call on the browser its source answers. */
class GroupOnBrowser implements GroupAccess {
  readonly cookies: CookieJar;

  constructor(
    private readonly group: TabGroup,
    private readonly browser: () => Promise<Browser>,
  ) {
    const id = group.id;
    this.cookies = {
      list: async (filter) => (await browser()).cookies(id, filter),
      set: async (cookie) => (await browser()).setCookies(id, [cookie]),
      delete: async (filter) => (await browser()).deleteCookies(id, filter),
    };
  }

  async tabs(): Promise<Tab[]> {
    return this.group.tabsIn(await this.browser());
  }

  async openTab(): Promise<Tab> {
    return this.group.openTabIn(await this.browser());
  }

  async closeTab(tab: TabHandle): Promise<boolean> {
    return (await this.browser()).closeTab(tabOf(tab), true);
  }

  get activeTabId(): number | null {
    return this.group.activeTabId;
  }

  set activeTabId(id: number | null) {
    this.group.activeTabId = id;
  }

  takeOpenedTabs(): Tab[] {
    return this.group.takeOpenedTabs();
  }

  async storageState(): Promise<StorageState> {
    return (await this.browser()).storageState(this.group.id);
  }
}
