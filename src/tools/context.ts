// What a tool's handler is handed: its caller's tab group, the options and the few server-wide services a tool needs,
// and for a tab tool a handle on the tab. Defined here, below mcp: mcp's Session supplies it (src/mcp/tool-context.ts),
// so a tool reaches neither the whole Browser, the whole Tab, nor the MCP session machinery.
import type { GroupAccess } from '../browser/group/index.js';
import type { TabHandle } from '../browser/tab/index.js';
import type { ServerOptions } from '../config.js';

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
 * The caller's tab group as a tool sees it (the TabGroup's GroupAccess: tabs, cookies, storage state), with the
 * session's output dir and script. Its methods launch Firefox on first use in a session tool; in a tab tool they
 * work on the browser the tab lives in.
 */
export interface SessionGroup extends GroupAccess {
  /** Where screenshots, PDFs and exports are saved. */
  readonly outputDir: string;
  /** Its calls so far as a run script; null when the session is not recorded (--save-script, --caps script). */
  exportScript(): SessionScript | null;
}

/** A yes-or-no question for the person beside the agent (--confirm-actions), said in one line. */
export interface ConfirmQuestion {
  message: string;
  /** How long to wait for the answer. */
  timeoutMs: number;
}

/**
 * How the question ended: `yes` goes on; `no` and `dismissed` (the person closed the question unanswered), `timeout` and
 * `unavailable` (nobody could be asked: the client has no elicitation) stop the call.
 */
export type ConfirmAnswer = 'yes' | 'no' | 'dismissed' | 'timeout' | 'unavailable';

/** request_human's ask: a tab put in a person's hands for `task`, for at most `timeoutMs`. */
export interface HandOffRequest {
  tabId: number;
  task: string;
  timeoutMs: number;
}

/** How a hand-off the person finished ended (the other endings are coded errors: human_timeout, human_declined, ...). */
export interface HandOffResult {
  /** What the person wrote beside Done; null when nothing. */
  note: string | null;
  /** Inputs (clicks, keys, text, wheel turns) the live view delivered to the tab. */
  inputs: number;
  /** Where they said Done: the live view, or the MCP client's question. */
  via: 'live_view' | 'client';
  waitedMs: number;
}

/** Server-wide facts a tool may read, named by what it needs them for. */
export interface ToolServices {
  /** MCP sessions of this server still open, the caller's included (test_server_state). */
  openSessionCount(): number;
  /** Asks the person beside the agent (MCP elicitation); never throws. */
  confirm(question: ConfirmQuestion): Promise<ConfirmAnswer>;
  /** Puts a tab in a person's hands until they are done (request_human); throws the coded endings. */
  handOff(request: HandOffRequest): Promise<HandOffResult>;
}

export interface ToolContext {
  group: SessionGroup;
  options: ServerOptions;
  services: ToolServices;
  /** Aborts when the client cancels the call: a long wait stops there (src/abort.ts). */
  signal: AbortSignal;
}

export interface TabToolContext extends ToolContext {
  tab: TabHandle;
}
