// The trace file as HTML: one self-contained page (inline CSS, pictures as data: URLs, no script) that any browser
// opens from disk. Everything a page or an agent wrote goes through `escapeHtml`; the page's own policy forbids
// scripts, so a slip would still run nothing.

/** One argument of a call as the trace shows it; `hidden`: text that went into a password field, shown as its length. */
export interface ShownArg {
  name: string;
  value: string;
  hidden?: boolean;
}

export interface TracePicture {
  dataUrl: string;
  width: number;
  height: number;
  /** What is drawn on it: "click at (120, 44)", "drag from (10, 10) to (200, 40)". */
  mark?: string;
}

export interface TraceEntry {
  id: number;
  tool: string;
  /** computer's action, shown beside the tool's name. */
  action?: string;
  args: ShownArg[];
  tabId?: number;
  startedAt: number;
  /** Undefined while the call runs. */
  durationMs?: number;
  /** The error code of a failed call. */
  error?: string;
  /** The engine's verdict (`delivered` in the reply). */
  delivered?: boolean;
  reply?: string;
  /** The whole reply's length when `reply` is cut. */
  replyLength?: number;
  /** Images the reply carried (not copied into the trace). */
  replyImages?: number;
  /** A call that acts (a step of a script): it gets a picture of its tab afterwards. */
  acting: boolean;
  picture?: TracePicture;
  /** Why an acting call has no picture, or that one is being taken. */
  pictureNote?: string;
  /** request_human: how the hand-off ended, the person's inputs and their note. */
  handOff?: { outcome: string; inputs?: number; note?: string };
}

/** The hand-off's line: "Hand-off: done, 3 inputs, note: …". */
function handOffLine(handOff: NonNullable<TraceEntry['handOff']>): string {
  const parts = [`Hand-off: ${handOff.outcome}`];
  if (handOff.inputs !== undefined) parts.push(count(handOff.inputs, 'input') + ' by the person');
  if (handOff.note) parts.push(`their note: “${handOff.note}”`);
  return parts.join(' · ');
}

export interface TraceHead {
  name: string;
  startedAt: number;
  firefox: string | null;
  version: string;
  calls: number;
  failed: number;
  pictures: number;
  imageBudget: number;
  /** Acting calls past the budget, listed without a picture. */
  picturesLeftOut: number;
  /** Calls past the list's limit, not listed. */
  callsLeftOut: number;
  maxCalls: number;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** 16:50:01.234 (UTC). */
function clock(at: number): string {
  const date = new Date(at);
  return `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.${pad(date.getUTCMilliseconds(), 3)}`;
}

function duration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1_000)} s`;
}

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function chips(entry: TraceEntry): string {
  const out: string[] = [];
  if (entry.durationMs === undefined) out.push('<span class="chip run">running</span>');
  else if (entry.error) out.push(`<span class="chip bad">${escapeHtml(entry.error)}</span>`);
  else out.push('<span class="chip good">ok</span>');
  if (entry.delivered === true) out.push('<span class="chip good">delivered</span>');
  if (entry.delivered === false) out.push('<span class="chip bad">NOT delivered</span>');
  return out.join(' ');
}

function argsList(args: ShownArg[]): string {
  if (args.length === 0) return '';
  const rows = args.map(({ name, value, hidden }) => `<dt>${escapeHtml(name)}</dt><dd${hidden ? ' class="hidden"' : ''}>${escapeHtml(value)}</dd>`);
  return `<dl class="args">${rows.join('')}</dl>`;
}

/** One call as a card: its head (number, tool, outcome, tab, time), arguments, reply and the picture after it. */
export function renderCard(entry: TraceEntry, sessionStart: number): string {
  const state = entry.durationMs === undefined ? 'run' : entry.error ? 'bad' : 'good';
  const meta = [
    entry.tabId !== undefined ? `tab ${entry.tabId}` : '',
    entry.durationMs !== undefined ? duration(entry.durationMs) : '',
    `${clock(entry.startedAt)} (+${duration(entry.startedAt - sessionStart)})`,
  ].filter(Boolean);
  const head =
    `<h2><a class="n" href="#call-${entry.id}">#${entry.id}</a> <span class="tool">${escapeHtml(entry.tool)}</span>` +
    `${entry.action ? ` <span class="action">${escapeHtml(entry.action)}</span>` : ''} ${chips(entry)}` +
    `<span class="meta">${meta.map(escapeHtml).join(' · ')}</span></h2>`;
  const notes: string[] = [];
  if (entry.replyLength !== undefined) notes.push(`Reply cut: ${count(entry.reply?.length ?? 0, 'character')} of ${count(entry.replyLength, 'character')} shown.`);
  if (entry.replyImages) notes.push(`The reply carried ${count(entry.replyImages, 'image')} (not copied here).`);
  const reply = entry.reply !== undefined ? `<pre class="reply">${escapeHtml(entry.reply)}</pre>` : '';
  const handOff = entry.handOff ? `<p class="handoff">${escapeHtml(handOffLine(entry.handOff))}</p>` : '';
  const figure = entry.picture
    ? `<figure><img src="${escapeHtml(entry.picture.dataUrl)}" width="${entry.picture.width}" height="${entry.picture.height}" alt="Tab ${entry.tabId ?? ''} after call ${entry.id}">` +
      `<figcaption>After #${entry.id}${entry.picture.mark ? `: ${escapeHtml(entry.picture.mark)}` : ''}</figcaption></figure>`
    : entry.pictureNote
      ? `<figure class="none"><figcaption>${escapeHtml(entry.pictureNote)}</figcaption></figure>`
      : '';
  return (
    `<article class="call ${state}${figure ? '' : ' wide'}" id="call-${entry.id}"><div class="text">${head}${argsList(entry.args)}${handOff}${reply}` +
    `${notes.map((note) => `<p class="note">${escapeHtml(note)}</p>`).join('')}</div>${figure}</article>\n`
  );
}

const STYLE = `
:root{color-scheme:light;--ink:#1c2230;--soft:#5b6475;--line:#e3e6ec;--good:#1f8a5b;--bad:#c8372d;--run:#8a8f99}
*{box-sizing:border-box}
body{margin:0;background:#f3f4f7;color:var(--ink);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.top{background:#1d2433;color:#fff;padding:18px 28px 16px}
.top h1{margin:0 0 6px;font-size:20px;font-weight:600;letter-spacing:.2px}
.top h1 small{font-weight:400;color:#aab3c5;font-size:14px;margin-left:8px}
.facts{display:flex;flex-wrap:wrap;gap:6px 22px;margin:0;color:#d5dbe7}
.facts b{color:#fff;font-weight:600}
.budget{margin:10px 0 0;color:#ffd58a}
main{max-width:1440px;margin:0 auto;padding:18px 22px 40px}
.call{display:grid;grid-template-columns:minmax(0,1fr) auto;gap:18px;background:#fff;border:1px solid var(--line);border-left:5px solid var(--good);border-radius:8px;padding:12px 16px;margin:0 0 12px}
.call.bad{border-left-color:var(--bad)}
.call.run{border-left-color:var(--run)}
.call.wide{grid-template-columns:minmax(0,1fr)}
.handoff{margin:6px 0;padding:5px 9px;background:#fff4e6;border:1px solid #f5c28f;border-radius:6px;font-weight:600;color:#8a3a0b}
h2{margin:0 0 6px;font-size:15px;font-weight:600;display:flex;flex-wrap:wrap;align-items:center;gap:6px}
h2 .n{color:var(--soft);text-decoration:none;font-weight:500}
h2 .action{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:13px;background:#eef1f6;border-radius:4px;padding:1px 6px}
.meta{margin-left:auto;color:var(--soft);font-weight:400;font-size:12.5px}
.chip{font-size:11.5px;font-weight:600;border-radius:10px;padding:1px 8px;color:#fff}
.chip.good{background:var(--good)}.chip.bad{background:var(--bad)}.chip.run{background:var(--run)}
.args{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 12px;margin:4px 0 8px;font:12.5px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace}
.args dt{color:var(--soft)}
.args dd{margin:0;white-space:pre-wrap;overflow-wrap:anywhere}
.args dd.hidden{font-style:italic;color:#8a5a00}
.reply{margin:0;background:#f7f8fa;border:1px solid var(--line);border-radius:6px;padding:8px 10px;max-height:20em;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere;font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace}
.note{margin:6px 0 0;color:var(--soft);font-size:12.5px}
figure{margin:0;width:min(520px,42vw)}
figure img{display:block;width:100%;height:auto;border:1px solid var(--line);border-radius:6px;background:#fff}
figcaption{color:var(--soft);font-size:12px;margin-top:4px}
figure.none{align-self:center;text-align:center}
.empty{color:var(--soft)}
@media (max-width:900px){.call{grid-template-columns:minmax(0,1fr)}figure{width:100%}}
`;

/** The whole file: the header with what the session did, then the cards, oldest first. */
export function renderTrace(head: TraceHead, cards: readonly string[]): string {
  const facts = [
    `Started <b>${escapeHtml(new Date(head.startedAt).toISOString().replace('T', ' ').slice(0, 19))} UTC</b>`,
    head.firefox ? `<b>${escapeHtml(head.firefox)}</b>` : '',
    `<b>${count(head.calls, 'call')}</b>${head.failed ? ` (${head.failed} failed)` : ''}`,
    `<b>${count(head.pictures, 'picture')}</b> (budget ${head.imageBudget})`,
    `firefox-use ${escapeHtml(head.version)}`,
  ].filter(Boolean);
  const limits: string[] = [];
  if (head.picturesLeftOut) limits.push(`The budget of ${head.imageBudget} pictures is spent: ${count(head.picturesLeftOut, 'later action')} ${head.picturesLeftOut === 1 ? 'is' : 'are'} listed without one.`);
  if (head.callsLeftOut) limits.push(`This trace lists the first ${head.maxCalls.toLocaleString('en-US')} calls: ${count(head.callsLeftOut, 'later call')} ${head.callsLeftOut === 1 ? 'is' : 'are'} not listed.`);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trace ${escapeHtml(head.name)}</title>
<style>${STYLE}</style></head>
<body><header class="top"><h1>firefox-use trace<small>${escapeHtml(head.name)}</small></h1>
<p class="facts">${facts.map((fact) => `<span>${fact}</span>`).join('')}</p>
${limits.map((line) => `<p class="budget">${escapeHtml(line)}</p>`).join('\n')}</header>
<main>
${cards.length ? cards.join('') : '<p class="empty">No calls yet.</p>'}</main>
</body></html>
`;
}
