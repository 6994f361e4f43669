// The live page: one HTML document with its style and script inline, allowed by their hashes under a strict CSP
// (no other script, no markup from pages or agents: the script puts their text in with textContent).
import { createHash } from 'node:crypto';
import { LIVE_SCRIPT } from './page-script.js';

const STYLE = `
:root { color-scheme: light; --ink: #1d2330; --muted: #667085; --line: #e4e7ec; --accent: #e8590c; --good: #1a7f37; --bad: #c92a2a; --paper: #f6f7f9; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--paper); }
header { display: flex; align-items: baseline; gap: 12px; padding: 10px 18px; background: #1d2330; color: #fff; }
header h1 { font-size: 16px; margin: 0; font-weight: 600; }
header .muted { color: #b8c0cc; }
#conn { margin-left: auto; font-size: 12px; padding: 2px 8px; border-radius: 10px; background: #2f3a4d; }
.muted { color: var(--muted); }
#list { padding: 18px; } #list li { margin: 6px 0; }
#view { display: grid; grid-template-columns: minmax(0, 1fr) 420px; gap: 16px; padding: 14px 18px; align-items: start; }
#tabs { display: flex; gap: 6px; flex-wrap: wrap; margin-bottom: 8px; }
.tab { max-width: 320px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; border: 1px solid var(--line); background: #fff; border-radius: 6px; padding: 4px 10px; font: inherit; cursor: pointer; }
.tab.current { border-color: var(--ink); font-weight: 600; }
.tab.held { border-color: var(--accent); }
.where { display: flex; gap: 10px; align-items: baseline; background: #fff; border: 1px solid var(--line); border-bottom: 0; border-radius: 8px 8px 0 0; padding: 6px 10px; }
#url { font-family: ui-monospace, Menlo, monospace; font-size: 12.5px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
#title { font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 40%; }
#fps { margin-left: auto; font-size: 12px; white-space: nowrap; }
#stage { position: relative; border: 1px solid var(--line); border-radius: 0 0 8px 8px; background: #fff; overflow: hidden; outline: none; line-height: 0; }
#frame { width: 100%; height: auto; display: block; min-height: 120px; }
body.holding #stage { border: 3px solid var(--accent); cursor: crosshair; }
body.holding #stage:focus { box-shadow: 0 0 0 4px rgba(232, 89, 12, .25); }
#mark { position: absolute; width: 34px; height: 34px; margin: -17px 0 0 -17px; border-radius: 50%; border: 3px solid var(--accent); background: rgba(232, 89, 12, .18); box-shadow: 0 0 0 3px #fff; pointer-events: none; }
#trail { position: absolute; height: 4px; margin-top: -2px; background: var(--accent); transform-origin: 0 50%; pointer-events: none; }
#handoff { background: #fff4e6; border: 2px solid var(--accent); border-radius: 8px; padding: 12px 14px; margin-bottom: 10px; }
#handoff h2 { margin: 0 0 4px; font-size: 15px; color: #a23b06; }
#task { font-size: 16px; font-weight: 600; white-space: pre-wrap; margin: 2px 0 10px; }
#handoff form { display: flex; gap: 8px; margin-top: 8px; }
#handoff input { flex: 1; font: inherit; padding: 6px 8px; border: 1px solid #d0d5dd; border-radius: 6px; }
#handoff button { font: inherit; padding: 6px 14px; border-radius: 6px; border: 1px solid #d0d5dd; background: #fff; cursor: pointer; }
#handoff button.done { background: var(--accent); border-color: var(--accent); color: #fff; font-weight: 600; }
#left { float: right; font-weight: 600; color: #a23b06; }
#status { font-size: 12.5px; margin-top: 6px; min-height: 1em; }
aside h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 4px 0 8px; }
#calls { list-style: none; margin: 0; padding: 0; max-height: calc(100vh - 110px); overflow: auto; }
.call { background: #fff; border: 1px solid var(--line); border-left: 4px solid #98a2b3; border-radius: 6px; padding: 7px 10px; margin-bottom: 8px; }
.call.failed { border-left-color: var(--bad); } .call.running { border-left-color: var(--accent); }
.call .head { display: flex; gap: 8px; align-items: baseline; font-weight: 600; }
.badge { font-size: 11.5px; padding: 0 6px; border-radius: 8px; font-weight: 600; }
.badge.good { background: #dafbe1; color: var(--good); } .badge.bad { background: #ffe3e3; color: var(--bad); }
.args { display: grid; grid-template-columns: max-content 1fr; gap: 1px 8px; margin: 5px 0 0; font-size: 12.5px; }
.args dt { color: var(--muted); } .args dd { margin: 0; font-family: ui-monospace, Menlo, monospace; word-break: break-all; }
.reply { margin: 6px 0 0; font: 12px/1.4 ui-monospace, Menlo, monospace; white-space: pre-wrap; word-break: break-word; max-height: 9.8em; overflow: auto; background: var(--paper); border-radius: 4px; padding: 4px 6px; }
#dialog { background: #fff; border: 2px solid #1d2330; border-bottom: 0; padding: 10px 12px; }
#dialog-message { white-space: pre-wrap; }
#dialog form { display: flex; gap: 8px; margin-top: 8px; }
#dialog input { flex: 1; font: inherit; padding: 5px 8px; border: 1px solid #d0d5dd; border-radius: 6px; }
#dialog button { font: inherit; padding: 5px 14px; border-radius: 6px; border: 1px solid #d0d5dd; background: #fff; cursor: pointer; }
[hidden] { display: none !important; }
`;

const BODY = `
<header><h1>firefox-use · live view</h1><span id="session" class="muted"></span><span id="conn">connecting…</span></header>
<section id="list" hidden><h2>MCP sessions</h2><ul id="sessions"></ul></section>
<main id="view" hidden>
  <section>
    <div id="tabs"></div>
    <div id="handoff" hidden>
      <span id="left"></span>
      <h2>The agent hands you this tab</h2>
      <div id="task"></div>
      <div class="muted">Click, scroll and type on the picture below: it goes to the page. Press Done when you have finished.</div>
      <form id="type-form"><input id="type-text" placeholder="Text to type at the focus (or click the picture and type)" autocomplete="off"><button type="submit">Type</button></form>
      <form id="done-form"><input id="note" placeholder="A note for the agent (optional)" autocomplete="off"><button type="submit" class="done">Done</button></form>
      <div id="status" class="muted"></div>
    </div>
    <div class="where"><span id="title"></span><span id="url"></span><span id="fps" class="muted"></span></div>
    <div id="dialog" hidden><div><b id="dialog-kind"></b> <span id="dialog-message"></span></div>
      <form id="dialog-form"><input id="dialog-text" placeholder="Answer" autocomplete="off" hidden><button type="submit" id="dialog-accept">OK</button><button type="button" id="dialog-dismiss">Cancel</button></form>
      <div id="dialog-note" class="muted"></div></div>
    <div id="stage"><img id="frame" alt="The tab as it is now"><div id="trail" hidden></div><div id="mark" hidden></div></div>
  </section>
  <aside><h2>Calls</h2><ol id="calls"></ol></aside>
</main>
`;

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

export const LIVE_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>firefox-use live view</title><style>${STYLE}</style></head>
<body>${BODY}<script>${LIVE_SCRIPT}</script></body></html>`;

/** Only the page's own script and style run; frames are data: images; requests go to this server only. */
export const LIVE_CSP = [
  "default-src 'none'",
  `script-src ${hash(LIVE_SCRIPT)}`,
  `style-src ${hash(STYLE)}`,
  'img-src data:',
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
