// A trusted paste for code editors: the text is put on the browser's clipboard just for one ctrl+v (cmd+v on
// macOS) sent as real key input, then the clipboard is emptied. Editors take a paste as text to insert as it is
// (no auto-closed brackets, no re-indent), which typing key by key does not give.
import type { Browser } from './browser.js';
import { browserOf } from './frames.js';
import { SANDBOX } from './page-script.js';
import type { Tab } from './tab.js';

/**
 * Runs in the sandbox with a user activation: a copy command whose copy event we answer ourselves, first (window,
 * capture) and alone (the page's own copy handlers do not see it), so no selection or page DOM is touched.
 */
const COPY = `(text) => {
  let done = false;
  const onCopy = (event) => {
    event.clipboardData.setData('text/plain', text);
    event.preventDefault();
    event.stopImmediatePropagation();
    done = true;
  };
  window.addEventListener('copy', onCopy, true);
  try { document.execCommand('copy'); } catch { done = false; } finally { window.removeEventListener('copy', onCopy, true); }
  return done;
}`;

/** One paste at a time per browser: the clipboard is the browser's, shared by every tab and session. */
const queues = new WeakMap<Browser, Promise<unknown>>();

async function setClipboard(tab: Tab, context: string, text: string): Promise<boolean> {
  const result = await tab.race(
    tab.bidi.send(
      'script.callFunction',
      {
        functionDeclaration: COPY,
        awaitPromise: false,
        target: { context, sandbox: SANDBOX },
        arguments: [{ type: 'string', value: text }],
        resultOwnership: 'none',
        userActivation: true,
      },
      { timeout: tab.timeouts.action, write: true },
    ),
  );
  return result.type === 'success' && result.result.type === 'boolean' && result.result.value;
}

/**
 * Puts `text` on the clipboard from the document in `context`, runs `paste` (which sends the paste keys), then
 * empties the clipboard, so that no other tab or session can paste it later. `placed` is false when the browser
 * refused the copy: `paste` is then not run.
 */
export async function withClipboardText<T>(tab: Tab, context: string, text: string, paste: () => Promise<T>): Promise<{ placed: false } | { placed: true; result: T }> {
  const browser = browserOf(tab);
  const before = queues.get(browser) ?? Promise.resolve();
  const turn = before.catch(() => undefined).then(async () => {
    if (!(await setClipboard(tab, context, text))) return { placed: false as const };
    try {
      return { placed: true as const, result: await paste() };
    } finally {
      await setClipboard(tab, context, '').catch(() => false);
    }
  });
  queues.set(browser, turn);
  return turn;
}

/** The paste chord of the platform the browser runs on (this machine's). */
export const PASTE_CHORD = process.platform === 'darwin' ? 'meta+v' : 'ctrl+v';
