// Where a frame's viewport sits inside the tab's viewport, so a point a frame's guard returns can be aimed at
// from the top level. Each hop asks the parent document where its <iframe> content box is.
import type { Script } from 'webdriver-bidi-protocol';
import type { Browser } from '../../browser/browser.js';
import { SANDBOX } from '../../browser/page-script.js';
import type { Tab } from '../../browser/tab.js';
import { ToolError } from '../../errors.js';

const FRAME_BOXES = `function () {
  return [...document.querySelectorAll('iframe, frame')].map((f) => {
    const r = f.getBoundingClientRect();
    const s = getComputedStyle(f);
    return [f.contentWindow, r.left + f.clientLeft + parseFloat(s.paddingLeft), r.top + f.clientTop + parseFloat(s.paddingTop)];
  });
}`;

function numberOf(value: Script.RemoteValue | undefined): number {
  return value && value.type === 'number' && typeof value.value === 'number' ? value.value : 0;
}

/** The offset of `frameContext`'s viewport in its tab's viewport, in CSS pixels. */
export async function frameOffset(browser: Browser, tab: Tab, frameContext: string): Promise<{ x: number; y: number }> {
  let x = 0;
  let y = 0;
  for (let child = frameContext; child !== tab.context; ) {
    const parent = browser.contexts.get(child)?.parent;
    if (!parent) throw new ToolError('ref_stale', 'The frame of that ref is gone.', { reason: 'other_document' });
    const result = await tab.race(
      browser.bidi.send(
        'script.callFunction',
        { functionDeclaration: FRAME_BOXES, awaitPromise: false, target: { context: parent, sandbox: SANDBOX }, resultOwnership: 'none' },
        { timeout: tab.timeouts.action },
      ),
    );
    if (result.type !== 'success' || result.result.type !== 'array') throw new ToolError('internal_error', 'Could not locate the frame in its parent.');
    const entry = (result.result.value ?? []).find((item) => {
      if (item.type !== 'array') return false;
      const win = item.value?.[0];
      return win?.type === 'window' && win.value.context === child;
    });
    if (!entry || entry.type !== 'array') throw new ToolError('ref_stale', 'The frame of that ref is no longer in its page.', { reason: 'other_document' });
    x += numberOf(entry.value?.[1]);
    y += numberOf(entry.value?.[2]);
    child = parent;
  }
  return { x, y };
}
