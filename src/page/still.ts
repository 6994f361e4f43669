// regress (src/cli/regress): a page made still before each capture, and its wait_for step.
import type { StillArgs } from '../contract/index.js';

const STILL_STYLE = '__firefox_use_still';
const MASKS = '__firefox_use_masks';
const MASK_STYLE = '__firefox_use_mask_style';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Animations and transitions off, caret hidden, masks painted over their elements, scroll at the top, fonts loaded;
 * then, when `frames` is set, that many animation frames pass (at most 100 ms), so the page has drawn anew since the
 * last screenshot. Returns the selectors that matched nothing.
 */
export async function makeStill({ masks, frames }: StillArgs): Promise<{ missing: string[] }> {
  const doc = document;
  if (!doc.getElementById(STILL_STYLE)) {
    const style = doc.createElement('style');
    style.id = STILL_STYLE;
    style.textContent = '*,*::before,*::after{animation:none!important;transition:none!important;caret-color:transparent!important;scroll-behavior:auto!important}';
    (doc.head ?? doc.documentElement).appendChild(style);
  }
  for (const animation of doc.getAnimations()) {
    try {
      const timing = animation.effect?.getComputedTiming();
      if (timing && timing.endTime !== Infinity) animation.finish();
      else animation.cancel();
    } catch {
      animation.cancel();
    }
  }
  window.scrollTo(0, 0);
  const missing: string[] = [];
  doc.getElementById(MASKS)?.remove();
  doc.getElementById(MASK_STYLE)?.remove();
  if (masks.length) {
    // Hidden as well as covered: an element that grows after it was measured must not show past its box.
    const hide = doc.createElement('style');
    hide.id = MASK_STYLE;
    hide.textContent = masks.map((selector) => `${selector}{visibility:hidden!important}`).join(' ');
    (doc.head ?? doc.documentElement).appendChild(hide);
    const layer = doc.createElement('div');
    layer.id = MASKS;
    layer.style.cssText = 'position:absolute;left:0;top:0;width:0;height:0;z-index:2147483647;pointer-events:none';
    for (const selector of masks) {
      const found = doc.querySelectorAll(selector);
      if (!found.length) missing.push(selector);
      for (const el of found) {
        const r = el.getBoundingClientRect();
        const box = doc.createElement('div');
        box.style.cssText = `position:absolute;background:#ff00ff;left:${r.left + scrollX}px;top:${r.top + scrollY}px;width:${r.width}px;height:${r.height}px`;
        layer.appendChild(box);
      }
    }
    doc.documentElement.appendChild(layer);
  }
  if (doc.activeElement && doc.activeElement !== doc.body) (doc.activeElement as HTMLElement).blur?.();
  await doc.fonts.ready;
  await sleep(0);
  if (frames > 0) {
    await Promise.race([
      new Promise<void>((resolve) => {
        let left = frames;
        const tick = (): void => {
          if (--left > 0) requestAnimationFrame(tick);
          else resolve();
        };
        requestAnimationFrame(tick);
      }),
      sleep(100),
    ]);
  }
  return { missing };
}

/** Whether a selector's element with a box, or else `text` in the body's text, appears within `timeout` ms (checked every 30 ms). */
export async function appeared({ selector, text, timeout }: { selector?: string; text?: string; timeout: number }): Promise<{ found: boolean }> {
  const deadline = Date.now() + timeout;
  for (;;) {
    if (selector) {
      const el = document.querySelector(selector);
      if (el && el.getClientRects().length) return { found: true };
    } else if ((document.body ? document.body.innerText : '').includes(text ?? '')) return { found: true };
    if (Date.now() > deadline) return { found: false };
    await sleep(30);
  }
}
