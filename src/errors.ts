/**
 * The error codes of the public contract, each with what it means for the caller: the one list. docs/tools.md is
 * generated from it (scripts/gen-tools-doc.mjs), docs/agents.md must give each one a row (the docs check says so),
 * and the tests read it from dist/errors.js.
 */
export const ERROR_CODES = {
  invalid_arguments: 'The arguments do not fit the schema; `field` names the culprit. Nothing was done.',
  tab_not_in_group: 'The tabId belongs to no tab of this session. Call tabs_context_mcp for valid ids.',
  tab_closed: 'The tab (or the frame addressed) is gone. Pick another tab or open one.',
  dialog_open: 'A JavaScript dialog blocks the tab. Answer it with firefox_dialog, then go on.',
  no_dialog: 'firefox_dialog was called but no dialog is open on that tab.',
  ref_stale: 'The ref no longer points at a live element (`reason`: element_removed, not_in_snapshot, other_document). Take a new snapshot.',
  ref_hidden: 'The element exists but is not visible or has no size. Scroll, open its container, or pick another.',
  ambiguous_target: 'The target matches more than one element. Use a ref from a fresh snapshot.',
  target_occluded: 'Another element covers the target point (`details` say which). Close the overlay or use a ref.',
  focus_moved:
    'The keys did not all reach the element they were typed into: the page moved focus while they went out (`landed` in the text says where). Keys firefox-use could stop were stopped; read the fields before you type again.',
  out_of_viewport: 'The coordinate lies outside the viewport. Scroll or use a ref, which scrolls for you.',
  navigation_timeout: 'The page did not finish loading in time. The tab shows whatever had loaded.',
  navigation_failed: 'The URL could not be loaded (DNS, refused connection, bad scheme).',
  timeout: 'The browser did not answer in time. With `unknown_effects: true` the action may have happened: look before you retry.',
  origin_blocked: 'The URL is outside --allowed-origins or inside --blocked-origins, or uses a scheme refused by default (file:, javascript:). Nothing was loaded.',
  browser_crashed: 'Firefox went away. The next call starts a new one; tabs and refs from before are gone.',
  profile_locked: 'Another Firefox uses this profile. Close it, or start with --isolated or another --profile.',
  firefox_not_found: 'No Firefox binary was found. Install it or set --firefox / FIREFOX_BIN.',
  launch_failed: 'Firefox was found but did not start; the message carries its output.',
  limit_reached: 'A limit the server sets was reached (`limit` names it: max-tabs). Nothing was done; close something first.',
  not_found: 'What was asked for does not exist (a file, an element, a history entry).',
  not_confirmed:
    'The server asks a person before this kind of action (--confirm-actions) and got no yes: they said no or dismissed the question, no answer came in time, or the client cannot ask (`answer` says which). Nothing was done.',
  held_by_person:
    'A person holds this tab (request_human): the session\'s other calls on it are refused until they press Done or the hand-off ends (`until` says when at the latest). Wait, or work in another tab.',
  human_timeout: 'request_human: the person did not press Done in time. The hand-off is over and the tab is the agent\'s again; what they did meanwhile stays done (look before going on).',
  human_declined: 'request_human: the person refused the hand-off (declined it where the client asked them). The tab is the agent\'s again.',
  no_live_view:
    'request_human: no person can take the tab: this server has no live view (start `mcp` with --live-port N, or use `serve`, which serves /live). Nothing was done.',
  javascript_error: 'The code passed to javascript_tool threw; the message carries its error.',
  internal_error: 'A bug in firefox-use. The message says where; please report it.',
} as const satisfies Record<string, string>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}

export type ErrorDetails = Record<string, unknown>;

/** A failure with a contract code, turned into an `isError` tool result by the dispatcher. */
export class ToolError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = 'ToolError';
  }

  toJSON(): { code: ErrorCode; message: string } & ErrorDetails {
    return { code: this.code, message: this.message, ...this.details };
  }
}

export function isToolError(error: unknown, code?: ErrorCode): error is ToolError {
  return error instanceof ToolError && (code === undefined || error.code === code);
}
