/** The error codes of the public contract; every failure a user sees carries one of them. */
export type ErrorCode =
  | 'invalid_arguments'
  | 'tab_not_in_group'
  | 'tab_closed'
  | 'dialog_open'
  | 'no_dialog'
  | 'ref_stale'
  | 'ref_hidden'
  | 'ambiguous_target'
  | 'target_occluded'
  | 'out_of_viewport'
  | 'navigation_timeout'
  | 'navigation_failed'
  | 'timeout'
  | 'origin_blocked'
  | 'browser_crashed'
  | 'profile_locked'
  | 'firefox_not_found'
  | 'launch_failed'
  | 'not_found'
  | 'javascript_error'
  | 'internal_error';

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
