/** A failure the page scripts report with a contract error code; the server turns it into a ToolError. */
export class PageError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}
