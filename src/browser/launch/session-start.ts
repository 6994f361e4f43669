// The BiDi session of a launched Firefox. Firefox makes it at once but holds its answer to session.new until the
// window's idle startup tasks have run (~2 s on this machine), and serves commands on the connection meanwhile: the
// browser is usable as soon as its first window has a tab, and the answer can be awaited in the background.
import type { BidiLink } from '../../bidi/connection.js';
import { ToolError } from '../../errors.js';

/** How long Firefox may take to start, and to open its first tab while it still runs its startup tasks. */
export const LAUNCH_TIMEOUT_MS = 45_000;

export interface OpenedSession {
  /** The browser's name and version, when Firefox answered before its first window had a tab. */
  version: string | null;
  /** The name and version once Firefox answers session.new; rejects if it never does. */
  answer: Promise<string>;
}

/** Sends session.new and resolves when the browser can be driven: its answer or its first tab, whichever is first. */
export async function openSession(bidi: BidiLink, acceptInsecureCerts: boolean): Promise<OpenedSession> {
  const answer = bidi
    .send(
      'session.new',
      { capabilities: { alwaysMatch: { unhandledPromptBehavior: { default: 'ignore' }, webSocketUrl: true, ...(acceptInsecureCerts ? { acceptInsecureCerts: true } : {}) } } },
      { timeout: LAUNCH_TIMEOUT_MS },
    )
    .then((reply) => `${reply.capabilities.browserName} ${reply.capabilities.browserVersion}`);
  const answered = await Promise.race([answer.then(() => true), firstWindow(bidi, LAUNCH_TIMEOUT_MS, answer).then(() => false)]);
  return { version: answered ? await answer : null, answer };
}

/**
 * Resolves once Firefox's first window has a tab (from then on browsingContext commands work), or once `until`
 * settles: the session's own answer makes the polling moot.
 */
async function firstWindow(bidi: BidiLink, timeoutMs: number, until: Promise<unknown>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let settled = false;
  until.then(
    () => (settled = true),
    () => (settled = true),
  );
  while (Date.now() < deadline && !settled) {
    const tree = await bidi.send('browsingContext.getTree', { maxDepth: 0 }, { timeout: timeoutMs }).catch(() => null);
    if (tree && tree.contexts.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new ToolError('launch_failed', `Firefox opened no window within ${Math.round(timeoutMs / 1000)} s.`);
}
