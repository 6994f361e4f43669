// A trusted paste for code editors: the text is put on the browser's clipboard just for one ctrl+v (cmd+v on
// macOS) sent as real key input, then the clipboard is emptied. Editors take a paste as text to insert as it is
// (no auto-closed brackets, no re-indent), which typing key by key does not give.
import type { Tab } from '../tab/tab.js';

/**
 * One paste at a time per browser: the clipboard is the browser's, shared by every tab and session. Keyed by the
 * browser's ref registry, which every tab of one browser shares.
 */
const queues = new WeakMap<object, Promise<unknown>>();

/** The copy runs in the top document's sandbox (src/page/clipboard.ts) with a user activation, which execCommand('copy') needs. */
async function setClipboard(tab: Tab, text: string): Promise<boolean> {
  const { copied } = await tab.callPage('copyText', { text }, { userActivation: true, write: true });
  return copied;
}

/**
 * Puts `text` on the clipboard (from the tab's top-level document), runs `paste` (which sends the paste keys), then
 * empties the clipboard, so that no other tab or session can paste it later. `placed` is false when the browser
 * refused the copy: `paste` is then not run.
 */
export async function withClipboardText<T>(tab: Tab, text: string, paste: () => Promise<T>): Promise<{ placed: false } | { placed: true; result: T }> {
  const before = queues.get(tab.refs) ?? Promise.resolve();
  const turn = before.catch(() => undefined).then(async () => {
    if (!(await setClipboard(tab, text))) return { placed: false as const };
    try {
      return { placed: true as const, result: await paste() };
    } finally {
      await setClipboard(tab, '').catch(() => false);
    }
  });
  queues.set(tab.refs, turn);
  return turn;
}

/** The paste chord of the platform the browser runs on (this machine's). */
export const PASTE_CHORD = process.platform === 'darwin' ? 'meta+v' : 'ctrl+v';
