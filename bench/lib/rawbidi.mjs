// The floor: the same operations as bare WebDriver BiDi commands on an owned Firefox, with no MCP server between:
// navigate, captureScreenshot, script.callFunction and an input.performActions click at the target's centre.
import { fileURLToPath } from 'node:url';
import { pageUrl, selectedPages } from './pages.mjs';
import { focusField, typedTextSources } from './typing-floor.mjs';
import { summarize } from './stats.mjs';
import { now } from './stats.mjs';

const dist = (path) => fileURLToPath(new URL(`../../dist/${path}`, import.meta.url));

const CENTRE = `(name) => {
  const all = [...document.querySelectorAll('button, [role=button]')];
  const walk = (root) => { for (const el of root.querySelectorAll('*')) if (el.shadowRoot) { all.push(...el.shadowRoot.querySelectorAll('button')); walk(el.shadowRoot); } };
  walk(document);
  const el = all.find((b) => b.textContent.trim() === name);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return [r.x + r.width / 2, r.y + r.height / 2];
}`;

async function timedN(n, fn) {
  const samples = [];
  for (let i = 0; i < n; i++) {
    const start = now();
    await fn();
    samples.push(now() - start);
  }
  return summarize(samples);
}

export async function rawBidiFloor(fixtures, { calls, log, pages }) {
  const { launchFirefox } = await import(dist('browser/launch/launcher.js'));
  const { BidiConnection } = await import(dist('bidi/connection.js'));
  const typed = await typedTextSources();
  const firefox = await launchFirefox({ profile: 'bench-raw-bidi', isolated: true, headed: false });
  const bidi = await BidiConnection.connect(`${firefox.endpoint}/session`);
  const result = { pages: {} };
  try {
    await bidi.send('session.new', { capabilities: { alwaysMatch: { unhandledPromptBehavior: { default: 'ignore' } } } }, { timeout: 20_000 });
    const tree = await bidi.send('browsingContext.getTree', {});
    const context = tree.contexts[0].context;
    await bidi.send('browsingContext.setViewport', { context, viewport: { width: 1280, height: 800 }, devicePixelRatio: 1 });
    for (const page of selectedPages(pages)) {
      log(`raw BiDi: ${page.id}`);
      const url = pageUrl(page, fixtures);
      if (!url) continue;
      const figures = {};
      figures.navigate = await timedN(calls, () => bidi.send('browsingContext.navigate', { context, url, wait: 'complete' }, { timeout: 30_000 }));
      figures.screenshot = await timedN(calls, () => bidi.send('browsingContext.captureScreenshot', { context, origin: 'viewport', format: { type: 'image/png' } }));
      figures.script_call = await timedN(calls, () =>
        bidi.send('script.callFunction', { functionDeclaration: '() => document.title', awaitPromise: false, target: { context } }),
      );
      // Where the page's click target is, in the top-level viewport (through the iframe when it is in one).
      let point = null;
      let target = context;
      let offset = [0, 0];
      if (page.id === 'iframe') {
        const children = (await bidi.send('browsingContext.getTree', { root: context })).contexts[0].children ?? [];
        target = children[0]?.context;
        const box = await bidi.send('script.callFunction', {
          functionDeclaration: '() => { const r = document.querySelector("iframe").getBoundingClientRect(); return [r.x + 1, r.y + 1]; }',
          awaitPromise: false,
          target: { context },
        });
        offset = box.result.value.map((v) => v.value);
      }
      if (target && !page.app) {
        const found = await bidi.send('script.callFunction', {
          functionDeclaration: CENTRE,
          arguments: [{ type: 'string', value: page.click.name }],
          awaitPromise: false,
          target: { context: target },
        });
        if (found.type === 'success' && found.result.type === 'array') point = found.result.value.map((v, i) => Math.round(v.value + offset[i]));
      }
      if (page.app) {
        figures.click = { skipped: 'the raw floor clicks fixture pages only' };
      } else if (point) {
        figures.click = await timedN(calls, () =>
          bidi.send('input.performActions', {
            context,
            actions: [
              {
                type: 'pointer',
                id: 'mouse',
                parameters: { pointerType: 'mouse' },
                actions: [
                  { type: 'pointerMove', x: point[0], y: point[1], duration: 0 },
                  { type: 'pointerDown', button: 0 },
                  { type: 'pointerUp', button: 0 },
                ],
              },
            ],
          }),
        );
      } else {
        figures.click = { skipped: `could not locate "${page.click.name}"` };
      }
      // The typing floor: the same key batches computer type sends (trusted key events, 16 keys a tick), with no
      // aim, no delivery check and no read-back: what Firefox itself takes for the 40 key events.
      const focused = page.type && page.id !== 'iframe' && (await focusField(bidi, context, page.type.name));
      if (focused) {
        figures.type = await timedN(calls, () => bidi.send('input.performActions', { context, actions: typed }));
      } else {
        if (page.type) figures.type = { skipped: page.id === 'iframe' ? 'the raw floor types into the top-level document only' : `could not focus "${page.type.name}"` };
      }
      result.pages[page.id] = figures;
    }
  } finally {
    await bidi.send('browser.close', {}, { timeout: 5_000 }).catch(() => undefined);
    bidi.close();
    await firefox.waitForExit(5_000);
    firefox.profile.release();
  }
  return result;
}
