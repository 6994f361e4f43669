// The one module that reads the remote end's error names (WebDriver BiDi "errors") and says what they mean in the
// contract's terms. Everything above src/browser sees ToolErrors only.
import { BidiError } from '../bidi/connection.js';
import { ToolError } from '../errors.js';

/** Errors that mean the same whatever the command: the tab (or frame) is gone, the dialog already closed. */
export function mapBidiError(error: unknown, tabId: number): unknown {
  if (!(error instanceof BidiError)) return error;
  if (error.error === 'no such frame') return new ToolError('tab_closed', `Tab ${tabId} (or the frame addressed) no longer exists.`, { tabId });
  if (error.error === 'no such alert') return new ToolError('no_dialog', `The dialog on tab ${tabId} had already closed; nothing was done.`, { tabId });
  return error;
}

/** A navigation (or history step) the remote end refused: the page could not be loaded. */
export function mapNavigationError(error: unknown, tabId: number, target: string): unknown {
  if (!(error instanceof BidiError)) return error;
  if (error.error === 'no such history entry') {
    return new ToolError('navigation_failed', `There is no page to go ${target} to in tab ${tabId}'s history.`, { tabId });
  }
  const reason = /NS_ERROR_[A-Z_]+/.exec(error.message)?.[0] ?? error.message;
  return new ToolError('navigation_failed', `The page could not be loaded: ${reason}.`, { tabId, reason });
}

/** Firefox's words for a navigation that another one replaced before it finished. */
export function isNavigationAborted(error: unknown): boolean {
  return error instanceof BidiError && /NS_BINDING_ABORTED|aborted by another navigation|navigation canceled|new navigation interrupted/i.test(error.message);
}

/** Firefox could not paint the tab: its document was being swapped. A read that may be tried again. */
export function isPaintRefused(error: unknown): boolean {
  return error instanceof BidiError && /Unable to capture screenshot/i.test(error.message);
}

/** Whatever is left when it reaches the dispatcher is a bug of ours (a command Firefox refused): internal_error. */
export function unmappedBidiError(error: unknown): ToolError | null {
  if (!(error instanceof BidiError)) return null;
  return new ToolError('internal_error', `Firefox refused ${error.method}: ${error.error}: ${error.message}`);
}
