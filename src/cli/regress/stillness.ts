import type { Browser } from '../../browser/browser.js';
import type { Tab } from '../../browser/tab.js';
import { ToolError } from '../../errors.js';

const QUIET_MS = 50;
const NETWORK_CAP_MS = 3_000;

/** In-flight requests per browsing context, from the BiDi network events the Browser subscribes to. */
export class NetworkWatch {
  private readonly inflight = new Map<string, Set<string>>();
  private readonly lastActivity = new Map<string, number>();
  private readonly unsubscribe: () => void;

  constructor(browser: Browser) {
    const touch = (context: string | null, id: string, open: boolean, url: string) => {
      // Only http(s) requests settle with responseCompleted; file:, data: and about: ones need no wait.
      if (!context || !/^https?:/i.test(url)) return;
      const set = this.inflight.get(context) ?? new Set<string>();
      if (open) set.add(id);
      else set.delete(id);
      this.inflight.set(context, set);
      this.lastActivity.set(context, Date.now());
    };
    this.unsubscribe = browser.onNetworkActivity((activity) => touch(activity.context, activity.request, !activity.done, activity.url));
  }

  /** Resolves once the context had no request in flight for QUIET_MS (or after a cap, for pages that never settle). */
  async idle(context: string): Promise<boolean> {
    const deadline = Date.now() + NETWORK_CAP_MS;
    for (;;) {
      const busy = (this.inflight.get(context)?.size ?? 0) > 0;
      const quietFor = Date.now() - (this.lastActivity.get(context) ?? 0);
      if (!busy && quietFor >= QUIET_MS) return true;
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, busy ? 20 : QUIET_MS - quietFor));
    }
  }

  close(): void {
    this.unsubscribe();
  }
}

/**
 * Runs in the page (sandbox realm): animations and transitions off, caret hidden, masks painted over their elements,
 * scroll at the top, fonts loaded; then, when `frames` is set, that many animation frames pass (at most 100 ms), so
 * the page has drawn anew since the last screenshot. Returns the selectors that matched nothing.
 */
const STILL = `async (maskJson, frames) => {
  const masks = JSON.parse(maskJson);
  const doc = document;
  if (!doc.getElementById('__firefox_use_still')) {
    const style = doc.createElement('style');
    style.id = '__firefox_use_still';
    style.textContent = '*,*::before,*::after{animation:none!important;transition:none!important;caret-color:transparent!important;scroll-behavior:auto!important}';
    (doc.head || doc.documentElement).appendChild(style);
  }
  for (const animation of doc.getAnimations()) {
    try {
      const timing = animation.effect && animation.effect.getComputedTiming();
      if (timing && timing.endTime !== Infinity) animation.finish(); else animation.cancel();
    } catch (e) { animation.cancel(); }
  }
  window.scrollTo(0, 0);
  const missing = [];
  const old = doc.getElementById('__firefox_use_masks');
  if (old) old.remove();
  const oldStyle = doc.getElementById('__firefox_use_mask_style');
  if (oldStyle) oldStyle.remove();
  if (masks.length) {
    // Hidden as well as covered: an element that grows after it was measured must not show past its box.
    const hide = doc.createElement('style');
    hide.id = '__firefox_use_mask_style';
    hide.textContent = masks.map((selector) => selector + '{visibility:hidden!important}').join(' ');
    (doc.head || doc.documentElement).appendChild(hide);
    const layer = doc.createElement('div');
    layer.id = '__firefox_use_masks';
    layer.style.cssText = 'position:absolute;left:0;top:0;width:0;height:0;z-index:2147483647;pointer-events:none';
    for (const selector of masks) {
      const found = doc.querySelectorAll(selector);
      if (!found.length) missing.push(selector);
      for (const el of found) {
        const r = el.getBoundingClientRect();
        const box = doc.createElement('div');
        box.style.cssText = 'position:absolute;background:#ff00ff;left:' + (r.left + scrollX) + 'px;top:' + (r.top + scrollY) + 'px;width:' + r.width + 'px;height:' + r.height + 'px';
        layer.appendChild(box);
      }
    }
    doc.documentElement.appendChild(layer);
  }
  if (doc.activeElement && doc.activeElement !== doc.body) doc.activeElement.blur();
  await doc.fonts.ready;
  await new Promise((resolve) => setTimeout(resolve, 0));
  if (frames > 0) {
    await Promise.race([
      new Promise((resolve) => { let left = frames; const tick = () => (--left > 0 ? requestAnimationFrame(tick) : resolve()); requestAnimationFrame(tick); }),
      new Promise((resolve) => setTimeout(resolve, 100)),
    ]);
  }
  return JSON.stringify(missing);
}`;

const WAIT_FOR = `async (selector, text, timeout) => {
  const deadline = Date.now() + timeout;
  for (;;) {
    if (selector) {
      const el = document.querySelector(selector);
      if (el && el.getClientRects().length) return true;
    } else if ((document.body ? document.body.innerText : '').includes(text)) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
}`;

function callSandbox(tab: Tab, declaration: string, args: Array<string | number>, timeout: number): Promise<string | boolean> {
  return tab.callSandboxFunction(declaration, args, timeout + 2_000);
}

export async function waitFor(tab: Tab, target: { selector?: string; text?: string }, timeout: number): Promise<void> {
  const found = await callSandbox(tab, WAIT_FOR, [target.selector ?? '', target.text ?? '', timeout], timeout);
  if (found !== true) throw new ToolError('timeout', `wait_for: ${target.selector ? `selector ${target.selector}` : `text "${target.text}"`} did not appear within ${timeout} ms.`);
}

/** Makes the page still; returns mask selectors that matched nothing. */
export async function makeStill(tab: Tab, network: NetworkWatch, mask: string[], timeout: number, framesSinceShot = 0): Promise<string[]> {
  const [missing] = await Promise.all([callSandbox(tab, STILL, [JSON.stringify(mask), framesSinceShot], timeout), network.idle(tab.context)]);
  return JSON.parse(String(missing)) as string[];
}
