// The live page's script, run in the viewer's browser. Sent as written here, inline under a CSP that allows exactly
// this script (its hash): everything from pages and agents goes in with textContent, never as markup.
export const LIVE_SCRIPT = String.raw`
'use strict';
const token = new URLSearchParams(location.search).get('token');
const withToken = (path) => token ? path + (path.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(token) : path;
const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => { const node = document.createElement(tag); if (cls) node.className = cls; if (text !== undefined) node.textContent = text; return node; };
const match = /^\/live\/s\/([0-9a-f-]{36})$/.exec(location.pathname);

if (!match) listSessions(); else viewSession(match[1]);

async function listSessions() {
  $('list').hidden = false;
  const answer = await fetch(withToken('/live/sessions'), { headers: { accept: 'application/json' } }).catch(() => null);
  $('conn').textContent = answer && answer.ok ? 'updated ' + new Date().toLocaleTimeString() : 'server unreachable';
  const sessions = answer && answer.ok ? await answer.json() : [];
  // Agents come and go: the list reads itself again every few seconds.
  setTimeout(listSessions, 3000);
  const list = $('sessions');
  list.replaceChildren();
  if (!sessions.length) list.append(el('li', 'empty', 'No MCP session yet: the list fills as agents connect.'));
  for (const session of sessions) {
    const item = el('li');
    const link = el('a', null, session.label);
    link.href = withToken('/live/s/' + session.id);
    item.append(link, el('span', 'muted', ' · ' + session.tabs + ' tab' + (session.tabs === 1 ? '' : 's') + ' · ' + session.calls + ' calls · since ' + new Date(session.startedAt).toLocaleTimeString() + (session.held ? ' · waiting for you' : '')));
    list.append(item);
  }
}

function viewSession(id) {
  $('view').hidden = false;
  const base = '/live/s/' + id;
  const state = { tabs: [], calls: new Map(), tabId: null, frames: 0, frameTimes: [], scale: 1, source: null, mark: null };
  const img = $('frame');
  const stage = $('stage');

  const post = (() => {
    let chain = Promise.resolve();
    return (path, body) => (chain = chain.then(async () => {
      const answer = await fetch(withToken(base + path), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const reply = await answer.json().catch(() => ({}));
      if (!answer.ok) showStatus(reply.message || ('refused: ' + answer.status));
      return answer.ok;
    }).catch(() => false));
  })();

  function showStatus(text) { $('status').textContent = text; }

  function connect() {
    if (state.source) state.source.close();
    const query = state.tabId === null ? '' : '?tab=' + state.tabId;
    const source = new EventSource(withToken(base + '/events' + query));
    state.source = source;
    source.addEventListener('open', () => $('conn').textContent = 'live');
    source.addEventListener('error', () => $('conn').textContent = 'reconnecting…');
    source.addEventListener('hello', (event) => {
      const hello = JSON.parse(event.data);
      $('session').textContent = hello.session;
      state.calls.clear();
      $('calls').replaceChildren();
      for (const call of hello.calls) showCall(call);
      showTabs(hello.tabs);
    });
    source.addEventListener('call', (event) => showCall(JSON.parse(event.data)));
    source.addEventListener('tabs', (event) => showTabs(JSON.parse(event.data)));
    source.addEventListener('frame', (event) => showFrame(JSON.parse(event.data)));
  }

  function showFrame(frame) {
    if (state.tabId === null) state.tabId = frame.tabId;
    if (frame.tabId !== state.tabId) return;
    state.scale = frame.scale || 1;
    img.src = 'data:image/jpeg;base64,' + frame.jpeg;
    state.frames++;
    const now = Date.now();
    state.frameTimes.push(now);
    while (state.frameTimes.length && now - state.frameTimes[0] > 2000) state.frameTimes.shift();
    $('fps').textContent = 'frames: ' + state.frames + ' · ' + (state.frameTimes.length / 2).toFixed(1) + '/s';
    drawMark();
  }

  function showTabs(tabs) {
    const wasHeld = new Set(state.tabs.filter((tab) => tab.held).map((tab) => tab.tabId));
    state.tabs = tabs;
    // A hand-off that begins on another tab brings the view to it: the request must not go unseen.
    const newlyHeld = tabs.find((tab) => tab.held && !wasHeld.has(tab.tabId));
    const gone = state.tabId !== null && !tabs.some((tab) => tab.tabId === state.tabId);
    if (newlyHeld && newlyHeld.tabId !== state.tabId && state.tabId !== null) { state.tabId = newlyHeld.tabId; connect(); return; }
    if ((state.tabId === null || gone) && tabs.length) {
      const held = tabs.find((tab) => tab.held);
      state.tabId = (held || tabs[0]).tabId;
      if (gone) { connect(); return; }
    }
    const bar = $('tabs');
    bar.replaceChildren();
    for (const tab of tabs) {
      const button = el('button', 'tab' + (tab.tabId === state.tabId ? ' current' : '') + (tab.held ? ' held' : ''), (tab.held ? '✋ ' : '') + 'Tab ' + tab.tabId + ': ' + (tab.title || tab.url || '(blank)'));
      button.type = 'button';
      button.title = tab.url;
      button.addEventListener('click', () => { if (state.tabId !== tab.tabId) { state.tabId = tab.tabId; connect(); showTabs(state.tabs); } });
      bar.append(button);
    }
    if (!tabs.length) bar.append(el('span', 'muted', 'No tab open yet.'));
    const current = tabs.find((tab) => tab.tabId === state.tabId);
    $('url').textContent = current ? current.url : '';
    $('title').textContent = current ? (current.title || '(untitled)') : '';
    showHold(current && current.held);
    showDialog(current && current.dialog, current && current.held);
  }

  function showDialog(dialog, held) {
    $('dialog').hidden = !dialog;
    if (!dialog) return;
    $('dialog-kind').textContent = 'The page shows a ' + dialog.type + ' dialog:';
    $('dialog-message').textContent = dialog.message;
    $('dialog-form').hidden = !held;
    $('dialog-text').hidden = dialog.type !== 'prompt';
    if (dialog.type === 'prompt' && !$('dialog-text').value) $('dialog-text').value = dialog.defaultValue || '';
    $('dialog-note').textContent = held ? '' : 'No picture while it is open; the agent answers it (firefox_dialog).';
  }

  let countdown = null;
  function showHold(held) {
    const banner = $('handoff');
    clearInterval(countdown);
    document.body.classList.toggle('holding', !!held);
    if (!held) { banner.hidden = true; stage.tabIndex = -1; return; }
    banner.hidden = false;
    stage.tabIndex = 0;
    $('task').textContent = held.task;
    const ends = Date.now() + held.remainingMs;
    const tick = () => { const left = Math.max(0, Math.round((ends - Date.now()) / 1000)); $('left').textContent = Math.floor(left / 60) + ':' + String(left % 60).padStart(2, '0') + ' left'; };
    tick();
    countdown = setInterval(tick, 1000);
  }

  function head(call) {
    const parts = ['#' + call.id, call.tool + (call.action ? ' ' + call.action : '')];
    if (call.tabId !== undefined) parts.push('tab ' + call.tabId);
    parts.push(call.durationMs === undefined ? 'running…' : call.durationMs + ' ms');
    return parts.join(' · ');
  }

  function showCall(call) {
    let card = state.calls.get(call.id);
    if (!card) {
      card = el('li', 'call');
      state.calls.set(call.id, card);
      $('calls').prepend(card);
      while ($('calls').children.length > 200) $('calls').lastChild.remove();
    }
    card.className = 'call' + (call.error ? ' failed' : '') + (call.durationMs === undefined ? ' running' : '');
    const top = el('div', 'head');
    top.append(el('span', 'what', head(call)));
    if (call.error) top.append(el('span', 'badge bad', call.error));
    else if (call.delivered === true) top.append(el('span', 'badge good', 'delivered'));
    else if (call.delivered === false) top.append(el('span', 'badge bad', 'NOT delivered'));
    const parts = [top];
    if (call.args.length) {
      const args = el('dl', 'args');
      for (const arg of call.args) args.append(el('dt', null, arg.name), el('dd', null, arg.value));
      parts.push(args);
    }
    if (call.reply !== undefined) parts.push(el('pre', 'reply', call.reply + (call.images ? '\n[' + call.images + ' image' + (call.images > 1 ? 's' : '') + ']' : '')));
    card.replaceChildren(...parts);
    if (call.point && call.tabId === state.tabId) { state.mark = { point: call.point, from: call.from, at: Date.now(), label: call.action || call.tool }; drawMark(); }
  }

  function drawMark() {
    const mark = $('mark');
    const trail = $('trail');
    if (!state.mark || Date.now() - state.mark.at > 4000 || !img.naturalWidth) { mark.hidden = true; trail.hidden = true; return; }
    const k = (img.clientWidth / img.naturalWidth) * state.scale;
    mark.hidden = false;
    mark.style.left = (state.mark.point.x * k) + 'px';
    mark.style.top = (state.mark.point.y * k) + 'px';
    mark.title = state.mark.label;
    if (state.mark.from) {
      const dx = (state.mark.point.x - state.mark.from.x) * k;
      const dy = (state.mark.point.y - state.mark.from.y) * k;
      trail.hidden = false;
      trail.style.left = (state.mark.from.x * k) + 'px';
      trail.style.top = (state.mark.from.y * k) + 'px';
      trail.style.width = Math.hypot(dx, dy) + 'px';
      trail.style.transform = 'rotate(' + Math.atan2(dy, dx) + 'rad)';
    } else trail.hidden = true;
  }
  setInterval(drawMark, 500);

  const held = () => { const tab = state.tabs.find((candidate) => candidate.tabId === state.tabId); return !!(tab && tab.held); };
  const framePoint = (event) => {
    const box = img.getBoundingClientRect();
    return { x: Math.round(((event.clientX - box.left) / box.width) * img.naturalWidth), y: Math.round(((event.clientY - box.top) / box.height) * img.naturalHeight) };
  };
  const send = (input) => post('/input', { tabId: state.tabId, input });

  img.addEventListener('click', (event) => { if (!held()) return; stage.focus(); send({ kind: 'click', at: framePoint(event), button: 0, count: 1 }); });
  img.addEventListener('contextmenu', (event) => { if (!held()) return; event.preventDefault(); send({ kind: 'click', at: framePoint(event), button: 2, count: 1 }); });
  img.addEventListener('dragstart', (event) => event.preventDefault());
  let wheel = null;
  stage.addEventListener('wheel', (event) => {
    if (!held()) return;
    event.preventDefault();
    const unit = event.deltaMode === 1 ? 40 : event.deltaMode === 2 ? 400 : 1;
    if (!wheel) {
      wheel = { at: framePoint(event), dx: 0, dy: 0 };
      setTimeout(() => { const turn = wheel; wheel = null; send({ kind: 'wheel', at: turn.at, dx: turn.dx, dy: turn.dy }); }, 120);
    }
    wheel.dx += event.deltaX * unit;
    wheel.dy += event.deltaY * unit;
  }, { passive: false });
  let typed = '';
  let typing = null;
  stage.addEventListener('keydown', (event) => {
    if (!held()) return;
    const modifiers = ['ctrl', 'shift', 'alt', 'meta'].filter((name) => event[name + 'Key']);
    if (['Control', 'Shift', 'Alt', 'Meta'].includes(event.key)) return;
    event.preventDefault();
    if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      typed += event.key;
      clearTimeout(typing);
      typing = setTimeout(() => { const text = typed; typed = ''; send({ kind: 'text', text }); }, 60);
      return;
    }
    if (typed) { clearTimeout(typing); const text = typed; typed = ''; send({ kind: 'text', text }); }
    send({ kind: 'key', key: event.key, modifiers: event.key.length === 1 ? modifiers : modifiers.filter((name) => name !== 'shift' || event.key.length > 1) });
  });
  $('type-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = $('type-text').value;
    if (!text || !held()) return;
    send({ kind: 'text', text }).then((ok) => { if (ok) $('type-text').value = ''; });
  });
  const answerDialog = (accept) => {
    if (!held()) return;
    const text = $('dialog-text').hidden ? undefined : $('dialog-text').value;
    send(Object.assign({ kind: 'dialog', accept }, text === undefined ? {} : { text })).then((ok) => { if (ok) $('dialog-text').value = ''; });
  };
  $('dialog-form').addEventListener('submit', (event) => { event.preventDefault(); answerDialog(true); });
  $('dialog-dismiss').addEventListener('click', () => answerDialog(false));
  $('done-form').addEventListener('submit', (event) => {
    event.preventDefault();
    if (!held()) return;
    const note = $('note').value.trim();
    post('/done', { tabId: state.tabId, note: note || null }).then((ok) => { if (ok) { $('note').value = ''; showStatus('Done: the agent has the tab again.'); } });
  });
  window.addEventListener('resize', drawMark);
  connect();
}
`;
