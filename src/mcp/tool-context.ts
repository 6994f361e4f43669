// The context a tool's handler gets (src/tools/context.ts), made from the caller's Session: the tool sees its group,
// the options and a few named services, never the Browser or the Session itself.
import type { Browser } from '../browser/browser.js';
import type { Tab } from '../browser/tab/index.js';
import type { ServerOptions } from '../config.js';
import type { CookieJar, TabGroup, TabToolContext, ToolContext } from '../tools/context.js';
import type { Session } from './session.js';

/**
 * `browser` is how the group reaches Firefox: the session's (launched on first use) for a session tool, the one the
 * tab lives in for a tab tool (a crash mid-call then fails the call rather than relaunching under it).
 */
class SessionGroup implements TabGroup {
  readonly cookies: CookieJar;

  constructor(
    private readonly session: Session,
    private readonly browser: () => Promise<Browser>,
    readonly outputDir: string,
  ) {
    const id = session.id;
    this.cookies = {
      list: async (filter) => (await this.browser()).cookies(id, filter),
      set: async (cookie) => (await this.browser()).setCookies(id, [cookie]),
      delete: async (filter) => (await this.browser()).deleteCookies(id, filter),
    };
  }

  async tabs(): Promise<Tab[]> {
    return this.session.tabs(await this.browser());
  }

  async openTab(): Promise<Tab> {
    const tab = await (await this.browser()).createTab(this.session.id, { foreground: 'group' });
    this.session.remember(tab);
    this.session.activeTabId = tab.id;
    return tab;
  }

  async closeTab(tab: Tab): Promise<boolean> {
    return (await this.browser()).closeTab(tab, true);
  }

  get activeTabId(): number | null {
    return this.session.activeTabId;
  }

  set activeTabId(id: number | null) {
    this.session.activeTabId = id;
  }

  takeOpenedTabs(): Tab[] {
    return this.session.takeOpenedTabs();
  }

  async storageState() {
    return (await this.browser()).storageState(this.session.id);
  }

  exportScript() {
    return this.session.recorder?.export() ?? null;
  }
}

/** A session tool's context: the group launches Firefox on first use, and keeps that browser for the rest of the call. */
export function sessionToolContext(session: Session, options: ServerOptions, signal: AbortSignal): ToolContext {
  let browser: Promise<Browser> | undefined;
  return {
    group: new SessionGroup(session, () => (browser ??= session.browser()), options.outputDir),
    options,
    services: { openSessionCount: () => session.manager.listenerCount },
    signal,
  };
}

/** A tab tool's context: the group works on the browser the tab lives in. */
export function tabToolContext(session: Session, options: ServerOptions, browser: Browser, tab: Tab, signal: AbortSignal): TabToolContext {
  return {
    group: new SessionGroup(session, () => Promise.resolve(browser), options.outputDir),
    options,
    services: { openSessionCount: () => session.manager.listenerCount },
    signal,
    tab,
  };
}
