// npm run build first; then: node scripts/capture-live-view.mjs
// Takes docs/images/live-view.png: an agent session with --live-port mid hand-off, its live view opened by a second
// headless Firefox (firefox-use itself), screenshotted as PNG.
import { createServer } from 'node:http';
import { chmodSync } from 'node:fs';
import sharp from 'sharp';
import { startServer, firstTab } from '../test/helpers/mcp-client.mjs';
import { freePort } from '../test/helpers/http-server.mjs';

const PAGE = `<!doctype html><html><head><title>Sign in · Acme Cloud</title>
<style>
body{margin:0;font:16px/1.5 system-ui,sans-serif;background:linear-gradient(135deg,#eef2ff,#f8fafc);color:#1e293b}
.card{width:420px;margin:70px auto;background:#fff;border-radius:14px;box-shadow:0 10px 30px rgba(30,41,59,.12);padding:32px 36px}
h1{margin:0 0 4px;font-size:26px} p{margin:0 0 20px;color:#64748b}
label{display:block;font-weight:600;margin:14px 0 6px} input[type=email],input[type=password]{width:100%;box-sizing:border-box;padding:10px 12px;border:1px solid #cbd5e1;border-radius:8px;font:inherit}
.robot{display:flex;align-items:center;gap:12px;margin:22px 0;padding:14px;border:1px solid #cbd5e1;border-radius:8px;background:#f8fafc}
.robot input{width:26px;height:26px} .robot small{margin-left:auto;color:#94a3b8;font-size:11px;text-align:right}
button{width:100%;padding:11px;border:0;border-radius:8px;background:#4f46e5;color:#fff;font:600 16px system-ui;cursor:pointer}
</style></head><body><div class="card"><h1>Acme Cloud</h1><p>Sign in to your workspace</p>
<label for="e">Email</label><input id="e" type="email">
<label for="p">Password</label><input id="p" type="password">
<div class="robot"><input type="checkbox" id="r" aria-label="I am not a robot"><label for="r" style="margin:0">I am not a robot</label><small>Protected by<br>HumanCheck</small></div>
<button id="go">Continue</button></div></body></html>`;

const site = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE));
await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${site.address().port}/signin`;
const livePort = await freePort();
const agent = await startServer({ args: ['--isolated', '--live-port', String(livePort)] });
const person = await startServer({ args: ['--isolated', '--viewport', '1440x940', '--screenshot-format', 'png'] });
try {
  const tabId = await firstTab(agent);
  await agent.ok('navigate', { tabId, url });
  const tree = agent.text(await agent.ok('read_page', { tabId, filter: 'interactive' }));
  const ref = (re) => /\[ref=(ref_\d+)\]/.exec(tree.split('\n').find((line) => re.test(line)))[1];
  const liveUrl = /live view of this session at (\S+)/.exec(agent.stderr)[1];
  const personTab = await firstTab(person);
  await person.ok('navigate', { tabId: personTab, url: liveUrl });
  await agent.ok('computer', { tabId, action: 'type', ref: ref(/textbox "Email"/), text: 'ada@example.com' });
  await agent.ok('computer', { tabId, action: 'left_click', ref: ref(/textbox "Password"/) });
  const handed = agent.call('request_human', { tabId, task: 'Sign in as Ada: type the password from your vault and tick "I am not a robot", then press Done', timeoutSeconds: 300 });
  await new Promise((resolve) => setTimeout(resolve, 1200));
  const shot = await person.ok('computer', { tabId: personTab, action: 'screenshot', save_to_disk: true });
  const saved = shot.structuredContent.savedTo;
  console.log(saved);
  // A palette PNG: a fifth of the size, the text as sharp.
  const out = new URL('../docs/images/live-view.png', import.meta.url);
  await sharp(saved).png({ palette: true, quality: 90, effort: 10 }).toFile(out.pathname);
  chmodSync(out, 0o644);
  handed.catch(() => undefined);
} finally {
  await person.close();
  await agent.close();
  site.close();
}
