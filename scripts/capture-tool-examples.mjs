#!/usr/bin/env node
// Captures the example results of docs/tools.md from a real session: starts the built server (dist/) on a throwaway
// profile, drives scripts/examples/account.html (served from 127.0.0.1) through every tool over MCP, and writes each
// tool's first call, structured result and text into docs/tool-examples.json. gen-tools-doc.mjs reads that file, so
// `npm run docs:check` needs no Firefox. Run after `npm run build`, when a tool's result changes: `npm run docs:examples`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'docs', 'tool-examples.json');
const PAGE = readFileSync(join(ROOT, 'scripts', 'examples', 'account.html'));
/** Shown in place of what changes from run to run: the page's port and the temp output dir. */
const SHOWN_ORIGIN = 'http://127.0.0.1:8000';
const SHOWN_OUTPUT = '/home/ann/firefox-use-output';
const MAX_TEXT_LINES = 30;

const site = createServer((req, res) => {
  if (req.url === '/api/login') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
});
await new Promise((done) => site.listen(0, '127.0.0.1', done));
const origin = `http://127.0.0.1:${site.address().port}`;
const outputDir = mkdtempSync(join(tmpdir(), 'fu-examples-'));
writeFileSync(join(outputDir, 'invoice.pdf'), '%PDF-1.4 example');

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [join(ROOT, 'dist', 'cli', 'main.js'), 'mcp', '--isolated', '--allow-javascript', '--caps', 'storage,pdf,script', '--output-dir', outputDir],
  stderr: 'inherit',
});
const client = new Client({ name: 'capture-tool-examples', version: '0.0.0' });
await client.connect(transport);

const examples = {};
const shown = (value) => JSON.parse(JSON.stringify(value).replaceAll(origin, SHOWN_ORIGIN).replaceAll(outputDir, SHOWN_OUTPUT));

async function call(name, args, { keep = true } = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = result.content.filter((block) => block.type === 'text').map((block) => block.text).join('\n');
  if (result.isError) throw new Error(`${name} ${JSON.stringify(args)} failed: ${text}`);
  if (keep && !examples[name]) {
    const lines = text.split('\n');
    const images = result.content.filter((block) => block.type === 'image').map((block) => block.mimeType);
    examples[name] = shown({
      args,
      result: result.structuredContent,
      text: lines.length > MAX_TEXT_LINES ? [...lines.slice(0, MAX_TEXT_LINES), `… (${lines.length - MAX_TEXT_LINES} more lines)`].join('\n') : text,
      ...(images.length ? { images } : {}),
    });
  }
  return result;
}

try {
  const context = await call('tabs_context_mcp', { createIfEmpty: true });
  const tabId = context.structuredContent.tabs[0].tabId;
  await call('navigate', { tabId, url: `${origin}/account.html` });
  await call('read_page', { tabId, filter: 'interactive' });
  const found = await call('find', { tabId, query: 'email' });
  const email = found.structuredContent.matches[0].ref;
  await call('form_input', { tabId, ref: email, value: 'ann@example.com' });
  const buttons = await call('find', { tabId, query: 'button continue' }, { keep: false });
  await call('computer', { tabId, action: 'left_click', ref: buttons.structuredContent.matches[0].ref });
  await call('wait_for', { tabId, text: 'Signed in as' });
  await call('get_page_text', { tabId });
  await call('read_console_messages', { tabId, onlyErrors: true });
  await call('read_network_requests', { tabId, urlPattern: '/api/' });
  const invoice = (await call('find', { tabId, query: 'Invoice' }, { keep: false })).structuredContent.matches[0].ref;
  await call('file_upload', { tabId, ref: invoice, paths: [join(outputDir, 'invoice.pdf')] });
  const remove = (await call('find', { tabId, query: 'button delete account' }, { keep: false })).structuredContent.matches[0].ref;
  await call('computer', { tabId, action: 'left_click', ref: remove }, { keep: false });
  await call('firefox_dialog', { tabId, action: 'accept' });
  await call('javascript_tool', { tabId, text: 'document.querySelector("#status").textContent' });
  await call('resize_window', { tabId, width: 1024, height: 768 });
  await call('cookies_set', { tabId, name: 'theme', value: 'dark' });
  await call('cookies_list', { tabId });
  await call('cookies_clear', { tabId, name: 'theme' });
  await call('storage_state_save', { filename: 'logins' });
  await call('save_pdf', { tabId, filename: 'account' });
  const created = await call('tabs_create_mcp', { url: `${origin}/account.html` });
  await call('tabs_close_mcp', { tabId: created.structuredContent.tabId });
  await call('script_export', { filename: 'session' });
} finally {
  await client.close();
  site.close();
  rmSync(outputDir, { recursive: true, force: true });
}
writeFileSync(OUT, JSON.stringify(examples, null, 2) + '\n');
process.stdout.write(`wrote ${OUT} (${Object.keys(examples).length} tools)\n`);
