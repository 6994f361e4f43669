// What a tool's handler is handed: its caller's tab group, the options and the few server-wide services a tool needs,
// and for a tab tool the tab. Defined here, below mcp: mcp's Session supplies it (src/mcp/tool-context.ts), so a
// tool reaches neither the whole Browser nor the MCP session machinery.
import type { StorageCookie, StorageState } from '../browser/group/index.js';
import type { Tab } from '../browser/tab/index.js';
import type { ServerOptions } from '../config.js';

/** The group's cookie jar (its own under serve, the browser's default one otherwise). */
export interface CookieJar {
  list(filter?: { name?: string }): Promise<StorageCookie[]>;
  set(cookie: StorageCookie): Promise<void>;
  /** Deletes the cookies that match; answers how many went. */
  delete(filter: { name: string; domain: string; path: string }): Promise<number>;
}

/** The calls of a recorded session written out as a `run` script, and what it left out. */
export interface SessionScript {
  text: string;
  steps: number;
  left_out: { looked: number; failed: number };
  /** Environment variables the script needs (text typed into password fields). */
  secrets: string[];
  warnings: string[];
}

/**
 * The caller's tab group: the tabs its session opened and the ones those opened. Its methods launch Firefox on
 * first use in a session tool; in a tab tool they work on the browser the tab lives in.
 */
export interface TabGroup {
  /** The group's open tabs. */
  tabs(): Promise<Tab[]>;
  /** Opens a tab in the group, in front in the group's window; it becomes the active one (limit_reached past --max-tabs). */
  openTab(): Promise<Tab>;
  /** Closes one of its tabs, the page asked first (beforeunload); false when Firefox answered but it is still open. */
  closeTab(tab: Tab): Promise<boolean>;
  /** The tab the group used last: what `active` means in tabs_context_mcp. */
  activeTabId: number | null;
  /** Tabs and popups its pages opened that no reply has reported yet (each is handed out once). */
  takeOpenedTabs(): Tab[];
  /** Where screenshots, PDFs and exports are saved. */
  readonly outputDir: string;
  readonly cookies: CookieJar;
  /** Its cookies and the localStorage of the origins its open tabs show (Playwright's storage-state shape). */
  storageState(): Promise<StorageState>;
  /** Its calls so far as a run script; null when the session is not recorded (--save-script, --caps script). */
  exportScript(): SessionScript | null;
}

/** Server-wide facts a tool may read, named by what it needs them for. */
export interface ToolServices {
  /** MCP sessions of this server still open, the caller's included (test_server_state). */
  openSessionCount(): number;
}

export interface ToolContext {
  group: TabGroup;
  options: ServerOptions;
  services: ToolServices;
  /** Aborts when the client cancels the call: a long wait stops there (src/abort.ts). */
  signal: AbortSignal;
}

export interface TabToolContext extends ToolContext {
  tab: Tab;
}
