// The typing floor, paired: a second Firefox of our own, driven by bare WebDriver BiDi, kept open beside the
// server under test. Each `computer type` call is followed by the same key batches sent raw into the same page's
// field, so both figures come from the same seconds of the machine's life. Measured minutes apart (the unpaired
// floor in rawbidi.mjs), the ratio moved ±0.3 between identical runs on a 2-core machine.
import { fileURLToPath } from 'node:url';
import { TYPED_TEXT } from './pages.mjs';
import { now } from './stats.mjs';

const dist = (path) => fileURLToPath(new URL(`../../dist/${path}`, import.meta.url));

// Focuses the page's typing field (by its aria-label, placeholder or label, open shadow roots included): the first
// one that takes focus. The Python docs page has three "Quick search" fields and the first, in a hidden mobile menu,
// takes none: the floor's keys then went to the body, which inserts no text and was 5-13 ms cheaper than typing.
export const FOCUS = `(name) => {
  const fields = [];
  const walk = (root) => { for (const el of root.querySelectorAll('*')) { if (el.matches('input, textarea')) fields.push(el); if (el.shadowRoot) walk(el.shadowRoot); } };
  walk(document);
  const byIds = (el) => (el.getAttribute('aria-labelledby') || '').split(/\\s+/).map((id) => el.getRootNode().getElementById?.(id)?.textContent ?? '').join(' ');
  const host = (el) => el.getRootNode().host?.getAttribute('label') ?? '';
  const label = (el) => [el.getAttribute('aria-label'), byIds(el), el.placeholder, el.labels && el.labels[0] ? el.labels[0].textContent : '', host(el)].join(' ');
  for (const field of fields.filter((f) => label(f).includes(name))) {
    field.focus();
    if (field.getRootNode().activeElement === field) return true;
  }
  return false;
}`;

/** The key batches `computer type` sends for the bench's text (trusted key events, one per grapheme). */
export async function typedTextSources() {
  const { textKeys, typeSources } = await import(dist('browser/engine/input/keyboard.js'));
  return typeSources(textKeys(TYPED_TEXT));
}

/**
 * Focuses the field named `name` in `context`; true when it has focus. The iframe page's field is in a frame the
 * floor does not reach: false.
 */
export async function focusField(bidi, context, name) {
  const focused = await bidi.send('script.callFunction', {
    functionDeclaration: FOCUS,
    arguments: [{ type: 'string', value: name }],
    awaitPromise: false,
    target: { context },
  });
  return focused?.type === 'success' && focused.result.value === true;
}

/** A raw-BiDi Firefox that types the bench's text into one page's field at a time, on demand. */
export class PairedTypist {
  /** `prefs`: extra Firefox prefs (bench/typing-breakdown.mjs turns timer precision up). */
  static async start({ prefs } = {}) {
    const { launchFirefox } = await import(dist('browser/launch/launcher.js'));
    const { BidiConnection } = await import(dist('bidi/connection.js'));
    const tuning = prefs ? { tuning: { prefs, env: {} } } : {};
    const firefox = await launchFirefox({ profile: 'bench-paired-typing', isolated: true, headed: false, ...tuning });
    try {
      const bidi = await BidiConnection.connect(`${firefox.endpoint}/session`);
      await bidi.send('session.new', { capabilities: { alwaysMatch: { unhandledPromptBehavior: { default: 'ignore' } } } }, { timeout: 20_000 });
      const tree = await bidi.send('browsingContext.getTree', {});
      const context = tree.contexts[0].context;
      await bidi.send('browsingContext.setViewport', { context, viewport: { width: 1280, height: 800 }, devicePixelRatio: 1 });
      return new PairedTypist(firefox, bidi, context, await typedTextSources());
    } catch (error) {
      firefox.killNow();
      await firefox.waitForExit(5_000);
      firefox.profile.release();
      throw error;
    }
  }

  constructor(firefox, bidi, context, sources) {
    this.firefox = firefox;
    this.bidi = bidi;
    this.context = context;
    this.sources = sources;
  }

  /** Loads `url` and focuses its field; false (with nothing to pair) when the field cannot be reached. */
  async ready(url, fieldName) {
    await this.bidi.send('browsingContext.navigate', { context: this.context, url, wait: 'complete' }, { timeout: 30_000 });
    return focusField(this.bidi, this.context, fieldName);
  }

  /** An expression in the page's own realm; its value (a string or number). */
  async evaluate(expression) {
    const evaluated = await this.bidi.send('script.evaluate', { expression, awaitPromise: false, target: { context: this.context } });
    if (evaluated.type !== 'success') throw new Error(`evaluate failed: ${evaluated.exceptionDetails?.text}`);
    return evaluated.result.value;
  }

  /** One raw type of the bench's text; ms. */
  async typeOnce() {
    const start = now();
    await this.bidi.send('input.performActions', { context: this.context, actions: this.sources });
    return now() - start;
  }

  /** Closes its Firefox; again is a no-op. */
  async close() {
    if (this.closed) return;
    this.closed = true;
    await this.bidi.send('browser.close', {}, { timeout: 5_000 }).catch(() => undefined);
    this.bidi.close();
    await this.firefox.waitForExit(5_000);
    this.firefox.profile.release();
  }
}
