// Runs page-script modules (src/page, TypeScript) in Node against happy-dom, a DOM without a browser: esbuild
// bundles the modules asked for, and the bundle sees happy-dom's window as its globals. Only DOM logic can be tested
// here (roles, names, states); anything that needs layout (boxes, visibility, hit tests) stays in the Firefox tiers.
import { build } from 'esbuild';
import { Window } from 'happy-dom';
import { fileURLToPath } from 'node:url';

const PAGE = fileURLToPath(new URL('../../src/page/', import.meta.url));
const GLOBALS = ['Node', 'Element', 'HTMLElement', 'location', 'getComputedStyle', 'document', 'window', 'NodeFilter', 'ShadowRoot'];

/** A fresh document holding `html`, and the exports of the page modules `modules` (e.g. ['roles', 'names']). */
export async function pageModules(modules, html = '') {
  const window = new Window({ url: 'http://127.0.0.1:9/page.html' });
  window.document.body.innerHTML = html;
  for (const name of GLOBALS) globalThis[name] = name === 'window' ? window : name === 'getComputedStyle' ? window.getComputedStyle.bind(window) : window[name];
  const entry = modules.map((m) => `export * from './${m}.js';`).join('\n');
  const { outputFiles } = await build({ stdin: { contents: entry, resolveDir: PAGE, loader: 'ts' }, bundle: true, format: 'esm', write: false, platform: 'neutral', logLevel: 'silent' });
  const source = outputFiles[0].text;
  const exports = await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`);
  return { window, document: window.document, ...exports, close: () => window.happyDOM.close() };
}
