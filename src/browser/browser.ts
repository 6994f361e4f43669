import { processAlive } from './launch/profile.js';
import { EventEmitter } from 'node:events';
import type { BrowsingContext } from 'webdriver-bidi-protocol';
import { BidiConnection, type BidiLink, type EventName } from '../bidi/connection.js';
import { ToolError, isToolError } from '../errors.js';
import { LocalHost, type BrowserHost } from './launch/host.js';
import { launchFirefox, type LaunchedFirefox, type LaunchOptions, type StartupPhases } from './launch/launcher.js';
import { SANDBOX, mainRealmPreloadDeclaration, preloadDeclaration } from './tab/page-script.js';
import { OriginGuard, type OriginRules } from './tab/interception.js';
import { HttpAuth, type HttpCredentials } from './tab/http-auth.js';
import { MAX_REFS, RefRegistry } from './tab/refs.js';
import { ContextTree, type ContextNode } from './tab/context-tree.js';
import { routeDownloads } from './group/downloads.js';
import { DownloadRouter } from './group/download-router.js';
import { DownloadQuota } from './group/download-quota.js';
import type { DownloadLimits } from '../config.js';
import { mapBidiError } from './bidi-errors.js';
import { LAUNCH_TIMEOUT_MS, openSession } from './launch/session-start.js';
import { Tab, type NavigationEvent, type TabTimeouts } from './tab/tab.js';
import { getCookies, readLocalStorage, setCookies, type StorageCookie, type StorageState } from './group/storage.js';
import { UserContexts } from './group/user-contexts.js';
import { tabIds } from './group/tab-ids.js';
import type { Storage } from 'webdriver-bidi-protocol';
import { MESSAGE_LIMIT, pageLine } from '../text-safety.js';

export interface BrowserOptions extends LaunchOptions {
  viewport: { width: number; height: number };
  /** --device-scale-factor: the devicePixelRatio of every tab (1 when left out). */
  deviceScaleFactor?: number;
  timeouts: TabTimeouts;
  /** Where page-triggered downloads land. */
  outputDir?: string;
  /** Open tabs one group (session) may have: tabs_create_mcp past it is limit_reached, a page's popup past it is closed. */
  maxTabsPerGroup?: number;
  /** How much the pages of one session (user context) may download; unlimited when left out. */
  downloadQuota?: DownloadLimits;
  /** --allowed-origins / --blocked-origins, enforced on every request by network interception. */
  origins?: OriginRules;
  /** --storage-state: cookies and localStorage put into every cookie jar (the default one and each group's) as it is made. */
  storageState?: StorageState;
  /** --init-script: source run in every document before its own scripts (the page's realm, every tab and frame). */
  initScript?: string;
  /** --http-credentials: the answer to HTTP authentication (cancelled without). */
  httpCredentials?: HttpCredentials | undefined;
}

const SUBSCRIBED_EVENTS: [EventName, ...EventName[]] = [
  'browsingContext.contextCreated',
  'browsingContext.contextDestroyed',
  'browsingContext.userPromptOpened',
  'browsingContext.userPromptClosed',
  'browsingContext.navigationStarted',
  'browsingContext.navigationCommitted',
  'browsingContext.navigationFailed',
  'browsingContext.load',
  'browsingContext.fragmentNavigated',
  'browsingContext.historyUpdated',
  'log.entryAdded',
  'network.beforeRequestSent',
  'network.responseCompleted',
  'network.fetchError',
  'network.authRequired',
  'browsingContext.downloadWillBegin',
  'browsingContext.downloadEnd',
];

export interface NetworkActivity {
  /** The browsing context (tab or frame) that made the request; null for workers and the like. */
  context: string | null;
  /** The request id, the same at its start and its end. */
  request: string;
  url: string;
  /** False at the start, true once it completed or failed. */
  done: boolean;
}

export type { ContextNode } from './tab/context-tree.js';

/**
 * The one BiDi session of one Firefox process, and the tabs in it. Every MCP session shares it; which tabs a
 * session may use is decided above, by tab groups.
 */
export class Browser extends EventEmitter<{
  tabOpenedByPage: [Tab, Tab];
  /** A page of the group opened a tab past maxTabsPerGroup; it was closed. */
  tabRefused: [string, string];
  crashed: [Error];
}> {
  private readonly tabsById = new Map<number, Tab>();
  private readonly tabsByContext = new Map<string, Tab>();
  readonly contexts = new ContextTree();
  /** Element refs of every tab, in one namespace so a ref never names two things. */
  readonly refs = new RefRegistry(MAX_REFS, (id) => this.tabsById.get(id)?.groupId ?? null);
  private closing = false;
  /** Closing a browser we do not own (--connect): our tabs, then our session. */
  private ending: Promise<void> | null = null;
  crashed: Error | null = null;
  /** Groups that keep their cookies, storage and cache apart (serve sessions): each gets a BiDi user context. */
  private readonly userContexts: UserContexts;
  /** Per session (user context; '' for the default one): downloads past it are refused and deleted. */
  readonly downloadQuota: DownloadQuota | null;
  /** Tabs being opened by createTab, per group: counted against maxTabsPerGroup. */
  private readonly creating = new Map<string, number>();
  private readonly downloads: DownloadRouter;
  private readonly httpAuth: HttpAuth;
  private readonly networkWatchers = new Set<(activity: NetworkActivity) => void>();
  private originGuard: OriginGuard | null = null;
  /** The tab each group's window shows, when known: a page that opens or closes a tab may change it. */
  private readonly shownOfGroup = new Map<string, Tab>();
  /** First tabs opened ahead for groups (see openFirstTabAhead), each under a group name of its own until taken. */
  private readonly aheadOfGroup = new Map<string, Promise<Tab | null>>();
  /** How long this browser's launch took, step by step (null when it was not launched here). */
  startup: StartupPhases | null = null;
  /**
   * While Firefox still runs its startup tasks (session.new not answered yet; its first tab may take seconds): the
   * version it will answer with. Null once it has answered.
   */
  private startupAnswer: Promise<string> | null = null;

  private constructor(
    private readonly bidi: BidiLink,
    readonly host: BrowserHost,
    readonly options: BrowserOptions,
    /** Browser name and version from the session's capabilities ("Firefox" until Firefox has answered session.new). */
    public version: string,
  ) {
    super();
    this.userContexts = new UserContexts(bidi, {
      actionTimeout: options.timeouts.action,
      navigationTimeout: options.timeouts.navigation,
      ...(options.tuning?.geolocation ? { geolocation: options.tuning.geolocation } : {}),
      ...(options.storageState ? { storageState: options.storageState } : {}),
      // Never on the user's own tabs (--connect).
      ...(host.keepsBrowser ? {} : { viewport: { ...options.viewport, devicePixelRatio: options.deviceScaleFactor ?? 1 } }),
    });
    this.downloadQuota = options.downloadQuota ? new DownloadQuota(options.downloadQuota, (key) => this.denyDownloads(key)) : null;
    this.downloads = new DownloadRouter(this.downloadQuota, (tab) => this.downloadKeyOf(tab));
    this.httpAuth = new HttpAuth(bidi, options.httpCredentials);
  }

  /** `spawned`: the Firefox of `options`, already starting (see BrowserManager.get). */
  static async launch(options: BrowserOptions, spawned?: Promise<LaunchedFirefox>): Promise<Browser> {
    const firefox = await (spawned ?? launchFirefox(options));
    const host = new LocalHost(firefox);
    let bidi: BidiConnection | null = null;
    try {
      bidi = await BidiConnection.connect(`${firefox.endpoint}/session`);
      const session = await openSession(bidi, Boolean(options.acceptInsecureCerts));
      const sessionAt = performance.now() - firefox.phases.startedAt;
      // On the user's own prefs (browser.startup.page=3 restores the last session), a tab opened before Firefox's
      // startup tasks end could be rearranged under us: seen as a navigate that never answered (1 start in 6 with
      // the other core busy). Firefox answers session.new once they have ended; that answer is awaited first.
      if (session.version === null && firefox.profile.usersOwnPrefs) session.version = await session.answer;
      const browser = await Browser.attach(bidi, host, options, session.version ?? 'Firefox');
      browser.startup = { ...firefox.phases, session: sessionAt, ready: performance.now() - firefox.phases.startedAt };
      if (session.version === null) {
        browser.startupAnswer = session.answer.then(
          (version) => {
            browser.version = version;
            browser.startupAnswer = null;
            return version;
          },
          (error: unknown) => {
            browser.onLost(error instanceof Error ? error : new Error(String(error)));
            return browser.version;
          },
        );
      }
      return browser;
    } catch (error) {
      bidi?.close();
      firefox.killNow();
      await firefox.waitForExit(2_000);
      throw error;
    }
  }

  /** The browser's name and version once Firefox has answered session.new (launch goes on before it does). */
  async versionWhenKnown(): Promise<string> {
    return this.startupAnswer ?? this.version;
  }

  /**
   * A Browser on a connection whose BiDi session already exists (made by `launch`, or by a remote WebDriver
   * endpoint from its webSocketUrl capability): no session.new here.
   */
  static async attach(bidi: BidiLink, host: BrowserHost, options: BrowserOptions, version: string): Promise<Browser> {
    const browser = new Browser(bidi, host, options, version);
    await browser.start();
    return browser;
  }

  private async start(): Promise<void> {
    this.routeEvents();
    this.bidi.onDisconnect((error) => this.onLost(error));
    this.host.onExit(() => this.onLost(new ToolError('browser_crashed', 'Firefox exited.')));

    const origins = this.options.origins;
    if (origins && OriginGuard.needed(origins)) {
      this.originGuard = new OriginGuard(this.bidi, origins, (context, url, ownDocument) => {
        // Only the tab's own document matters to navigate; a refused image, frame, object or embed leaves the page usable.
        if (context && ownDocument) this.tabsByContext.get(context)?.noteBlocked(url);
      });
    }
    const outputDir = this.options.outputDir;
    await Promise.all([
      this.bidi.send('session.subscribe', { events: SUBSCRIBED_EVENTS }),
      this.originGuard?.install(),
      // A peer without interception keeps its own auth handling; that is reported, not fatal.
      this.httpAuth.install().catch((error: Error) => process.stderr.write(`firefox-use: HTTP authentication is left to Firefox: ${error.message}\n`)),
      this.bidi.send('script.addPreloadScript', { functionDeclaration: preloadDeclaration(), sandbox: SANDBOX }),
      this.bidi.send('script.addPreloadScript', { functionDeclaration: mainRealmPreloadDeclaration() }),
      // --init-script is the user's own code, for the page's main realm (no sandbox): it stays source text.
      this.options.initScript ? this.bidi.send('script.addPreloadScript', { functionDeclaration: `() => {\n${this.options.initScript}\n}` }) : null,
      this.userContexts.emulate('default'),
      // A Firefox without the command keeps its own download handling; that is reported, not fatal.
      outputDir
        ? routeDownloads(this.bidi, outputDir).catch((error: Error) => process.stderr.write(`firefox-use: downloads stay with Firefox: ${error.message}\n`))
        : undefined,
    ]);
    const tree = await this.bidi.send('browsingContext.getTree', {});
    for (const info of tree.contexts) this.recordTree(info, null);
    await this.userContexts.loadStorageState(undefined);
  }

  async cookies(groupId: string, filter?: Storage.CookieFilter): Promise<StorageCookie[]> {
    return getCookies(this.bidi, await this.userContexts.jarOfGroup(groupId), this.options.timeouts.action, filter);
  }

  async setCookies(groupId: string, cookies: StorageCookie[]): Promise<void> {
    await setCookies(this.bidi, cookies, await this.userContexts.jarOfGroup(groupId), this.options.timeouts.action);
  }

  /** The group's cookies and the localStorage of the origins its open tabs show, in Playwright's shape. */
  async storageState(groupId: string): Promise<StorageState> {
    const cookies = await this.cookies(groupId);
    const origins = await readLocalStorage(this.tabsOfGroup(groupId).filter((tab) => !tab.isClosed && !tab.dialog), this.options.timeouts.action);
    return { cookies, origins };
  }

  /** Deletes the group's cookies that match `filter`; answers how many went. */
  async deleteCookies(groupId: string, filter: Storage.CookieFilter): Promise<number> {
    const partition = await this.userContexts.jarOfGroup(groupId);
    const before = await getCookies(this.bidi, partition, this.options.timeouts.action, filter);
    if (before.length) await this.bidi.send('storage.deleteCookies', { partition, filter }, { timeout: this.options.timeouts.action, write: true });
    return before.length;
  }

  /** Each BiDi event is listened to here once and handed to the tab it belongs to (and to the few browser-wide watchers). */
  private routeEvents(): void {
    const bidi = this.bidi;
    bidi.on('browsingContext.contextCreated', (info) => this.onContextCreated(info));
    bidi.on('browsingContext.contextDestroyed', (info) => this.onContextDestroyed(info));
    bidi.on('browsingContext.userPromptOpened', (prompt) => {
      const tab = this.tabForContext(prompt.context);
      // The message is the page's: shown on one line of ours, without a forged ref, capped.
      tab?.setDialog({
        type: prompt.type,
        message: pageLine(prompt.message, MESSAGE_LIMIT),
        ...(prompt.defaultValue !== undefined ? { defaultValue: pageLine(prompt.defaultValue, MESSAGE_LIMIT) } : {}),
        openedAt: Date.now(),
        context: prompt.context,
      });
    });
    bidi.on('browsingContext.userPromptClosed', (prompt) => this.tabForContext(prompt.context)?.setDialog(null));
    // navigate follows only the tab's own document; waits for arrival wake on these rather than poll the page.
    // (Firefox ESR 153 refuses a subscription to browsingContext.navigationAborted: an aborted one comes as failed.
    // domContentLoaded is left out: nothing waits for it, and load follows it.)
    const navigation = (kind: NavigationEvent[0]) => (event: BrowsingContext.NavigationInfo) => this.tabsByContext.get(event.context)?.emit('navigation', kind, event);
    bidi.on('browsingContext.navigationStarted', navigation('started'));
    bidi.on('browsingContext.navigationCommitted', navigation('committed'));
    bidi.on('browsingContext.load', navigation('load'));
    bidi.on('browsingContext.fragmentNavigated', navigation('fragment'));
    bidi.on('browsingContext.navigationFailed', navigation('failed'));
    bidi.on('browsingContext.historyUpdated', (event) => navigation('history')({ context: event.context, navigation: null, timestamp: event.timestamp, url: event.url }));
    bidi.on('log.entryAdded', (entry) => {
      // Workers and other realms without a window have no context.
      if (entry.source.context) this.tabForContext(entry.source.context)?.console.record(entry);
    });
    const tabOf = (context: string | null): Tab | undefined => (context ? this.tabForContext(context) : undefined);
    const activity = (context: string | null, request: string, url: string, done: boolean): void => {
      for (const watcher of this.networkWatchers) watcher({ context, request, url, done });
    };
    bidi.on('network.beforeRequestSent', (event) => {
      this.originGuard?.decide(event);
      tabOf(event.context)?.network.requestStarted(event);
      activity(event.context, event.request.request, event.request.url, false);
    });
    bidi.on('network.responseCompleted', (event) => {
      tabOf(event.context)?.network.responseCompleted(event);
      activity(event.context, event.request.request, event.request.url, true);
    });
    bidi.on('network.authRequired', (event) => {
      const tab = tabOf(event.context);
      // Every challenge in a Firefox of ours; in one we attached to (--connect), the user's own tabs keep their prompt.
      const answer = this.httpAuth.answer(event, tab !== undefined || !this.host.keepsBrowser);
      if (answer && tab && event.navigation !== null) tab.noteAuth(answer);
    });
    bidi.on('network.fetchError', (event) => {
      tabOf(event.context)?.network.fetchFailed(event);
      activity(event.context, event.request.request, event.request.url, true);
    });
    bidi.on('browsingContext.downloadWillBegin', (event) => {
      // Without an output dir Firefox keeps its downloads: none is reported.
      const tab = this.options.outputDir ? this.tabForContext(event.context) : undefined;
      if (tab) this.downloads.began(tab, event);
    });
    bidi.on('browsingContext.downloadEnd', (event) => this.downloads.ended(event));
  }

  private recordTree(info: BrowsingContext.Info, parent: string | null): void {
    this.contexts.set({ id: info.context, parent, url: info.url, opener: info.originalOpener ?? null });
    for (const child of info.children ?? []) this.recordTree(child, info.context);
  }

  private onContextCreated(info: BrowsingContext.Info): void {
    const parent = info.parent ?? null;
    this.contexts.set({ id: info.context, parent, url: info.url, opener: info.originalOpener ?? null });
    if (parent !== null || this.tabsByContext.has(info.context)) return;
    // A top-level context a page opened (window.open, target=_blank) joins its opener's group.
    const opener = info.originalOpener ? this.tabForContext(info.originalOpener) : undefined;
    if (opener && !opener.isClosed && opener.groupId !== null && this.tabsOfGroup(opener.groupId).length >= this.maxTabs) {
      void this.bidi.send('browsingContext.close', { context: info.context }).catch(() => undefined);
      this.emit('tabRefused', opener.groupId, info.url);
      return;
    }
    if (opener && !opener.isClosed) {
      const tab = this.adopt(info.context, opener.groupId);
      if (opener.groupId !== null) this.shownOfGroup.delete(opener.groupId);
      this.emit('tabOpenedByPage', tab, opener);
    }
  }

  private onContextDestroyed(info: BrowsingContext.Info): void {
    const owner = this.tabForContext(info.context);
    for (const id of this.contexts.remove(info.context)) owner?.frameLinks.delete(id);
    const tab = this.tabsByContext.get(info.context);
    if (tab) {
      // Closing the whole browser (shutdown, idle release) destroys every tab: that is the browser going, not the page.
      tab.markClosed(this.closing ? 'browser_crashed' : tab.closeRequested ? 'closed_by_tool' : 'closed_by_page');
      this.forget(tab);
    }
  }

  /**
   * Whether this Firefox is gone: its loss was handled, or its process is found dead before the exit event was (on a
   * loaded machine a Firefox killed a moment ago was still listed, with its dead tabs, to the next call).
   */
  isGone(): boolean {
    if (!this.crashed && !this.closing && !this.host.keepsBrowser && this.host.pid > 0 && !processAlive(this.host.pid)) this.onLost(new Error('Firefox exited.'));
    return this.crashed !== null;
  }

  onLost(error: Error): void {
    if (this.crashed) return;
    this.crashed = this.closing ? new ToolError('browser_crashed', 'Firefox was shut down.') : new ToolError('browser_crashed', `Firefox stopped unexpectedly: ${error.message}`);
    for (const tab of this.tabsById.values()) tab.markClosed('browser_crashed');
    this.bidi.close();
    // Asked to quit, Firefox drops the connection and then writes its profile out: when that is wanted, the close's
    // grace ends a linger instead.
    if (this.closing && this.host.quitsInOrder) return;
    this.host.killNow();
    if (!this.closing) this.emit('crashed', this.crashed);
  }

  /**
   * Calls `listener` when any request starts and when it ends (completed or failed), until the returned function
   * is called.
   */
  onNetworkActivity(listener: (activity: NetworkActivity) => void): () => void {
    this.networkWatchers.add(listener);
    return () => this.networkWatchers.delete(listener);
  }

  /** The tab of a top-level context, or of the top-level context a frame belongs to. */
  tabForContext(context: string): Tab | undefined {
    let id: string | null = context;
    while (id) {
      const tab = this.tabsByContext.get(id);
      if (tab) return tab;
      id = this.contexts.get(id)?.parent ?? null;
    }
    return undefined;
  }

  tab(id: number): Tab | undefined {
    return this.tabsById.get(id);
  }

  /** Child contexts (frames) of a context, in creation order. */
  childContexts(context: string): ContextNode[] {
    return this.contexts.children(context);
  }

  private adopt(context: string, groupId: string | null, applyViewport = true): Tab {
    const tab = new Tab(tabIds.take(groupId), context, this.bidi, this.options.timeouts, this.options.viewport, groupId, {
      refs: this.refs,
      contexts: this.contexts,
      deviceScaleFactor: this.options.deviceScaleFactor ?? 1,
    });
    this.tabsById.set(tab.id, tab);
    this.tabsByContext.set(context, tab);
    // Popups get the same viewport as tabs the server opened.
    if (applyViewport)
      void this.bidi
      .send('browsingContext.setViewport', { context, viewport: this.options.viewport, devicePixelRatio: tab.deviceScaleFactor })
      .catch(() => undefined);
    return tab;
  }

  private forget(tab: Tab): void {
    if (tab.groupId !== null && this.shownOfGroup.get(tab.groupId) === tab) this.shownOfGroup.delete(tab.groupId);
    this.tabsById.delete(tab.id);
    this.tabsByContext.delete(tab.context);
    this.refs.forgetTab(tab.id);
  }

  /**
   * From now on the group's tabs open in a user context of its own (made with its first tab), whose downloads go to
   * `downloadDir` when given.
   */
  isolateGroup(groupId: string, downloadDir?: string): void {
    // A user context made without a folder of its own would save into Firefox's default one (the working dir).
    this.userContexts.isolate(groupId, downloadDir ?? this.options.outputDir);
  }

  /** The download-quota key of a tab: its group when that has a user context of its own, else '' (the default context). */
  downloadKeyOf(tab: Tab): string {
    return tab.groupId !== null && this.userContexts.isIsolated(tab.groupId) ? tab.groupId : '';
  }

  /** From now on Firefox refuses the downloads of this key's user context ('' : the default context). */
  private async denyDownloads(key: string): Promise<void> {
    const userContext = key ? await this.userContexts.existing(key) : undefined;
    if (key && !userContext) return;
    await this.bidi.send('browser.setDownloadBehavior', { downloadBehavior: { type: 'denied' }, ...(userContext ? { userContexts: [userContext] } : {}) });
  }

  /** Ends a group: closes its tabs (no beforeunload) and removes its user context, cookies and storage with it. */
  async releaseGroup(groupId: string): Promise<void> {
    await Promise.all(this.tabsOfGroup(groupId).map((tab) => this.closeTab(tab, false).catch(() => false)));
    this.downloadQuota?.forget(groupId);
    await this.userContexts.release(groupId, () => this.crashed !== null);
  }

  /**
   * Opens a tab in the group, in the background unless `foreground` says 'tab' (the selected tab of the first window),
   * 'window' (the selected tab of a new window, ~300 ms more) or 'group' (the selected tab of the group's window: beside
   * its other tabs, else a new window when another group has tabs, so serve's clients never hide each other's pages);
   * with `beside`, in the window of that tab. A background tab is hidden: Firefox runs its timers once a second,
   * runs no animation frames, and its resizes wait about a second for a paint.
   */
  async createTab(groupId: string, opts: { viewport?: { width: number; height: number }; foreground?: 'tab' | 'window' | 'group'; beside?: Tab } = {}): Promise<Tab> {
    this.assertAlive();
    const pending = this.creating.get(groupId) ?? 0;
    if (this.tabsOfGroup(groupId).length + pending >= this.maxTabs) {
      throw new ToolError('limit_reached', `This session already has ${this.maxTabs} tabs, its limit (--max-tabs). Close one with tabs_close_mcp first.`, {
        limit: 'max-tabs',
      });
    }
    const ahead = await this.takeTabAhead(groupId, opts);
    if (ahead) return ahead;
    this.creating.set(groupId, pending + 1);
    let created: BrowsingContext.CreateResult;
    let userContext: string | undefined;
    try {
      userContext = await this.userContexts.of(groupId);
      created = await this.bidi.send('browsingContext.create', { ...this.placement(groupId, opts), ...(userContext ? { userContext } : {}) }, { timeout: this.startupAnswer ? LAUNCH_TIMEOUT_MS : this.options.timeouts.action });
    } finally {
      const left = (this.creating.get(groupId) ?? 1) - 1;
      if (left > 0) this.creating.set(groupId, left);
      else this.creating.delete(groupId);
    }
    const viewport = opts.viewport ?? this.options.viewport;
    const known = this.tabsByContext.get(created.context);
    const tab = known ?? this.adopt(created.context, groupId, false);
    if (!known && !this.options.initScript) tab.noteOpenedBlank();
    tab.groupId = groupId;
    if (opts.foreground === 'group' && created.context && this.tabsOfGroup(groupId).some((other) => other !== tab && !other.isClosed)) {
      await tab.bringToFront().catch(() => undefined);
    }
    if (opts.foreground) this.shownOfGroup.set(groupId, tab);
    if (opts.viewport || !this.userContexts.opensSized(userContext)) await tab.setViewport(viewport.width, viewport.height);
    return tab;
  }

  /**
   * Opens the group's first tab now, for its first createTab to take: at a cold start Firefox still runs its startup
   * tasks and a tab takes 0.5-0.7 s, which then passes while an MCP client connects or a script is read. The tab is
   * not the group's until taken (no listing shows it). Not in a browser we do not own, nor for a group with tabs.
   */
  openFirstTabAhead(groupId: string): void {
    if (this.host.keepsBrowser || this.crashed || this.aheadOfGroup.has(groupId) || this.tabsOfGroup(groupId).length) return;
    const placeholder = `ahead:${groupId}`;
    this.aheadOfGroup.set(
      groupId,
      this.createTab(placeholder, { foreground: 'tab' }).then(
        (tab) => {
          this.shownOfGroup.delete(placeholder);
          return tab;
        },
        () => null,
      ),
    );
  }

  /** The tab opened ahead for this group, when the group has none and `opts` ask for one like it; else it is closed. */
  private async takeTabAhead(groupId: string, opts: { viewport?: unknown; foreground?: 'tab' | 'window' | 'group'; beside?: Tab }): Promise<Tab | null> {
    const ahead = this.aheadOfGroup.get(groupId);
    if (!ahead) return null;
    this.aheadOfGroup.delete(groupId);
    const fits = (opts.foreground === 'tab' || opts.foreground === 'group') && !opts.viewport && !opts.beside && this.tabsOfGroup(groupId).length === 0;
    const tab = await ahead;
    if (!tab || tab.isClosed) return null;
    if (!fits) {
      void this.closeTab(tab).catch(() => undefined);
      return null;
    }
    tab.groupId = groupId;
    this.shownOfGroup.set(groupId, tab);
    return tab;
  }

  private placement(groupId: string, opts: { foreground?: 'tab' | 'window' | 'group'; beside?: Tab }): Omit<BrowsingContext.CreateParameters, 'userContext'> {
    if (opts.foreground === 'group') {
      const sibling = this.tabsOfGroup(groupId).find((tab) => !tab.isClosed);
      // Opened in the background and then brought to the front (bounded): a switch that waits on a hung tab in front
      // would hold the creation itself.
      if (sibling) return { type: 'tab', background: true, referenceContext: sibling.context };
      const othersShown = [...this.tabsById.values()].some((tab) => tab.groupId !== null && tab.groupId !== groupId && !tab.isClosed);
      // In the user's own Firefox (--connect) a session starts a window of its own: the user's tabs stay in front of them.
      return { type: othersShown || this.host.keepsBrowser ? 'window' : 'tab', background: false };
    }
    // `beside`: in that tab's window (regress opens each capture's tab, in a user context of its own, in its worker's window).
    const where = opts.beside && opts.foreground !== 'window' ? { referenceContext: opts.beside.context } : {};
    return { type: opts.foreground === 'window' ? 'window' : 'tab', background: !opts.foreground, ...where };
  }

  /**
   * Brings the tab to the front of its window unless it is known to be there, so the page the agent works on runs
   * as a shown page does (timers, animation frames, scrolling). Best effort: a tab that cannot be shown is still used.
   */
  async showTab(tab: Tab): Promise<void> {
    if (tab.groupId === null || tab.isClosed || tab.dialog || this.shownOfGroup.get(tab.groupId) === tab) return;
    try {
      await tab.bringToFront();
      this.shownOfGroup.set(tab.groupId, tab);
    } catch {
      // The action itself will meet whatever kept the tab from the front (a dialog, a crash) and say so.
    }
  }

  /**
   * Closes a tab. With `promptUnload` the page's beforeunload handler runs: if it asks to stay, the call fails with
   * dialog_open and the tab closes only once firefox_dialog accepts (dismiss keeps it open).
   */
  async closeTab(tab: Tab, promptUnload = false): Promise<boolean> {
    // A dialog already open would answer nothing useful: close the tab with it.
    const prompt = promptUnload && !tab.dialog;
    tab.noteCloseRequest(prompt);
    const closed = this.bidi.send('browsingContext.close', { context: tab.context, promptUnload: prompt }, { timeout: this.options.timeouts.action, write: true });
    try {
      await (prompt ? tab.race(closed) : closed.catch((error: unknown) => Promise.reject(mapBidiError(error, tab.id))));
    } catch (error) {
      // The race ends as soon as the context is destroyed, which is the success we wanted.
      if (tab.closedReason === 'closed_by_tool') return true;
      if (!isToolError(error, 'dialog_open')) tab.noteCloseRequest(false);
      throw error;
    }
    // Firefox reports the context destroyed before it answers; a context still there means the page stayed.
    if (!tab.isClosed && !(await tab.waitClosed(1_000))) {
      tab.noteCloseRequest(false);
      return false;
    }
    tab.markClosed('closed_by_tool');
    this.forget(tab);
    return true;
  }

  private get maxTabs(): number {
    return this.options.maxTabsPerGroup ?? Infinity;
  }

  /**
   * Before a script's browser closes: requests its last steps started (a form's fetch on submit) get to finish, at
   * most `maxMs`. A request's network event can trail the step that started it (under load, past its reply), so
   * the tabs are looked at again after a short grace before "nothing in flight" counts.
   */
  async drainRequests(maxMs: number): Promise<void> {
    const deadline = Date.now() + maxMs;
    const inFlight = () => [...this.tabsById.values()].some((tab) => !tab.isClosed && tab.network.inFlight() > 0);
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    if (!inFlight()) await pause(REQUEST_EVENT_GRACE_MS);
    while (inFlight() && Date.now() < deadline && !this.crashed) await pause(25);
  }

  tabsOfGroup(groupId: string): Tab[] {
    return [...this.tabsById.values()].filter((tab) => tab.groupId === groupId && !tab.isClosed);
  }

  assertAlive(): void {
    if (this.crashed) throw this.crashed;
  }

  get pid(): number {
    return this.host.pid;
  }

  /** Closes every tab this server opened (or its pages opened) in a browser it does not own; the user's tabs stay. */
  private async closeOwnTabs(timeoutMs: number): Promise<void> {
    const ours = [...this.tabsById.values()].filter((tab) => !tab.isClosed);
    await Promise.all(ours.map((tab) => this.bidi.send('browsingContext.close', { context: tab.context }, { timeout: timeoutMs }).catch(() => undefined)));
  }

  /** Ends the browser through its host: browser.close and the profile lock for a launched one, DELETE for a remote one. */
  async close(graceMs = 5_000): Promise<void> {
    if (this.closing) return this.ending ?? this.host.waitForExit(graceMs);
    this.closing = true;
    if (this.host.keepsBrowser) {
      // The user's Firefox stays: a second caller waits for our tabs and session to be gone, not for a process exit.
      this.ending = (async () => {
        if (!this.crashed) await this.closeOwnTabs(Math.min(graceMs, 3_000));
        await this.host.shutdown(this.bidi, graceMs, !this.crashed);
      })();
      return this.ending;
    }
    // Firefox asked to quit while it still runs its startup tasks can hang on the way out (the Remote Agent says
    // so): a browser closed right after its launch first gets a bounded wait for session.new's answer.
    if (this.startupAnswer && !this.crashed) {
      await Promise.race([this.startupAnswer, new Promise((resolve) => setTimeout(resolve, Math.min(graceMs, STARTUP_QUIT_WAIT_MS)).unref())]);
    }
    await this.host.shutdown(this.bidi, graceMs, !this.crashed);
    this.bidi.close();
  }
}

/** How long a request's network event may trail the step that started it, at a script's end, ms. */
const REQUEST_EVENT_GRACE_MS = 150;
/** How long a close right after launch waits for Firefox to finish starting before asking it to quit. */
const STARTUP_QUIT_WAIT_MS = 3_000;
