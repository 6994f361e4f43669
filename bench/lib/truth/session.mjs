// One truth run's plumbing: the app server (the tests' real-app server plus the bench's own host pages and npm
// packages), one firefox-use MCP server (this build or another one's, via --server-dir), and the oracle's own reads:
// full snapshots, the viewport view, and a settle measured in the page. The oracle only uses MCP tools, so what it
// reads is what an agent could read.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpServer, textOf } from '../mcp.mjs';
import { MOUNTS, startRealAppServer } from '../../../test/helpers/real-apps.mjs';

const BENCH = fileURLToPath(new URL('../../', import.meta.url));

/** Our host pages and the bench's npm packages, served next to the tests' apps. */
export function addTruthMounts() {
  MOUNTS['/truth/'] = join(BENCH, 'fixtures/truth/');
  MOUNTS['/npm/'] = join(BENCH, 'node_modules/');
  MOUNTS['/debian-js/'] = '/usr/share/javascript/';
}

/** The packages the bench's host pages load; missing ones mean `npm install` in bench/ has not run. */
export const TRUTH_PACKAGES = ['bootstrap', 'fullcalendar', 'jkanban', 'tinymce', 'jspreadsheet-ce', 'jsuites'];
export const missingPackages = () => TRUTH_PACKAGES.filter((name) => !existsSync(join(BENCH, 'node_modules', name, 'package.json')));

export async function startApps() {
  addTruthMounts();
  return startRealAppServer({
    // A page that shows what was uploaded: read by the file_upload actions.
    '/truth/upload.txt': (req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('hello'),
  });
}

// Runs in the page: resolves once no mutation happened for `quiet` ms in the document, its open shadow roots and its
// same-origin frames, and no finite CSS animation or transition is running; gives up at `cap` ms. The oracle's
// after-snapshot is only as true as this settle, so it is longer than anything the server waits for.
const SETTLE = (quiet, cap) => `
const roots = [];
const addRoots = (doc) => {
  roots.push(doc);
  for (const el of doc.querySelectorAll('*')) if (el.shadowRoot) addRoots(el.shadowRoot);
};
const collect = (win) => {
  try { addRoots(win.document); } catch { return; }
  for (let i = 0; i < win.frames.length; i += 1) collect(win.frames[i]);
};
collect(window);
const started = performance.now();
let last = started;
// A caret that blinks by a timer (CodeMirror, Monaco) flips one attribute forever: a style or class change on an
// element that flipped three times already, each at least 300 ms apart (a timer, not an animation drawn per frame),
// is not a change the page is still making.
const flips = new Map();
const blinking = (r) => {
  if (r.type !== 'attributes' || (r.attributeName !== 'style' && r.attributeName !== 'class')) return false;
  const t = performance.now();
  const f = flips.get(r.target) ?? { n: 0, at: -1e9 };
  f.n = t - f.at >= 300 ? f.n + 1 : 0;
  f.at = t;
  flips.set(r.target, f);
  return f.n > 3;
};
const observers = roots.map((root) => {
  const o = new MutationObserver((records) => {
    if (!records.every(blinking)) last = performance.now();
  });
  o.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
  return o;
});
const animating = () => roots.some((root) => {
  try {
    return root.getAnimations().some((a) => a.playState === 'running' && Number.isFinite(a.effect?.getComputedTiming().endTime));
  } catch { return false; }
});
const result = await new Promise((resolve) => {
  const tick = () => {
    const t = performance.now();
    if (t - started > ${cap}) return resolve({ ms: Math.round(t - started), capped: true });
    if (animating()) last = t;
    if (t - last >= ${quiet}) return resolve({ ms: Math.round(t - started), capped: false });
    setTimeout(tick, 50);
  };
  setTimeout(tick, 50);
});
for (const o of observers) o.disconnect();
return JSON.stringify(result);`;

export class TruthSession {
  constructor({ serverDir, log }) {
    this.cli = join(serverDir, 'dist/cli/main.js');
    this.log = log;
    this.outDir = mkdtempSync(join(tmpdir(), 'fu-truth-out-'));
  }

  async start() {
    if (!existsSync(this.cli)) throw new Error(`${this.cli} is not built`);
    // One throwaway data dir per run: the server keeps nothing between runs and never touches the user's.
    const xdg = process.env.XDG_DATA_HOME ?? mkdtempSync(join(tmpdir(), 'fu-truth-xdg-'));
    this.server = new McpServer('firefox-use', {
      command: process.execPath,
      args: [this.cli, 'mcp', '--isolated', '--allow-javascript', '--output-dir', this.outDir, '--upload-root', this.outDir],
      env: { XDG_DATA_HOME: xdg },
    });
    await this.server.start();
    const opened = await this.server.call('tabs_context_mcp', { createIfEmpty: true });
    if (opened.error) throw new Error(`tabs_context_mcp: ${opened.error}`);
    this.tabId = opened.result.structuredContent.tabs[0].tabId;
  }

  /** A file under the upload root, for file_upload. */
  uploadFile(name, body) {
    const path = join(this.outDir, name);
    writeFileSync(path, body);
    return path;
  }

  async call(tool, args = {}) {
    const res = await this.server.call(tool, { tabId: this.tabId, ...args });
    return { text: textOf(res.result) || res.error || '', chars: res.chars, ms: res.ms, error: res.error, structured: res.result?.structuredContent };
  }

  async navigate(url) {
    const res = await this.call('navigate', { url });
    if (res.error) throw new Error(`navigate ${url}: ${res.error}`);
    return res;
  }

  /** The whole page (filter all), as the oracle's truth; big enough never to be cut on these apps. */
  async full() {
    return (await this.call('read_page', { filter: 'all', max_chars: 200_000 })).text;
  }

  /** What read_page shows by default: the viewport and its margin. "In view" means listed here. */
  async view() {
    return (await this.call('read_page', { max_chars: 200_000 })).text;
  }

  async js(code) {
    const res = await this.call('javascript_tool', { text: code });
    return res.text;
  }

  async settle(quiet = 1000, cap = 8000) {
    const text = await this.js(SETTLE(quiet, cap));
    const m = /\{[^}]*"ms"[^}]*\}/.exec(text.replace(/\\"/g, '"'));
    return m ? JSON.parse(m[0]) : { ms: null, capped: null, raw: text.slice(0, 200) };
  }

  /** A fresh find; the first match's ref (or null), as an agent picks the best match. */
  async find(query, pick = () => true) {
    const res = await this.call('find', { query });
    const matches = res.structured?.matches ?? res.structured?.elements ?? [];
    const hit = matches.find(pick);
    if (hit?.ref) return hit.ref;
    const m = /\[ref=(ref_\d+)\]/.exec(res.text);
    return m ? m[1] : null;
  }

  async close() {
    await this.server?.close();
  }
}
