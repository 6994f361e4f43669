// Drives one app's script: for each action, the truth before (the previous settled reads), the action through its
// tool as an agent would call it, a long settle, the truth after, and the judgement. Refs come from the
// before-read by role and name (or a fresh find), never from a number written in the script.
import { judge } from './compare.mjs';
import { indexTree } from './snapshot.mjs';

const center = (box) => [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)];

class ScriptError extends Error {}

/** The helpers an app's script calls; each returns the tool call to make. */
function actions(session, state) {
  const nameMatches = (node, name, exact) => {
    const n = node.name.replace(/\\"/g, '"');
    if (name instanceof RegExp) return name.test(n);
    return exact ? n === name : n === name || n.startsWith(name);
  };
  const ref = async (role, name, { exact = false, nth = 0 } = {}) => {
    const tree = state.beforeTree;
    const all = tree.nodes.filter((n) => n.ref && n.role === role && nameMatches(n, name, true));
    const loose = all.length ? all : tree.nodes.filter((n) => n.ref && n.role === role && !exact && nameMatches(n, name, false));
    if (loose[nth]) return loose[nth].ref;
    const found = await session.find(`${role} ${name instanceof RegExp ? name.source : name}`, (m) => m.role === role);
    if (found) return found;
    throw new ScriptError(`no ${role} "${name}" on the page`);
  };
  const box = async (role, name) => {
    const res = await session.call('find', { query: `${role} ${name}`.trim() });
    const matches = res.structured?.matches ?? [];
    const hit = matches.find((m) => (!role || m.role === role) && m.box && m.visible !== false) ?? matches[0];
    if (!hit?.box) throw new ScriptError(`no box for ${role} "${name}"`);
    return hit.box;
  };
  const computer = (args) => ({ tool: 'computer', args });
  return {
    ref,
    box,
    click: async (role, name, opts) => computer({ action: 'left_click', ref: await ref(role, name, opts) }),
    dblclick: async (role, name, opts) => computer({ action: 'double_click', ref: await ref(role, name, opts) }),
    clickAt: (x, y) => computer({ action: 'left_click', coordinate: [x, y] }),
    type: async (text, role, name) => computer({ action: 'type', text, ...(role ? { ref: await ref(role, name) } : {}) }),
    key: (text, repeat) => computer({ action: 'key', text, ...(repeat ? { repeat } : {}) }),
    scroll: async (direction, amount, role, name) => computer({
      action: 'scroll', scroll_direction: direction, scroll_amount: amount,
      ...(role ? { coordinate: center(await box(role, name)) } : { coordinate: [640, 400] }),
    }),
    // Scroll over an element (by its ref: the server scrolls at its centre), or at a point.
    scrollOn: async (direction, amount, role, name) => computer({ action: 'scroll', scroll_direction: direction, scroll_amount: amount, ref: await ref(role, name) }),
    scrollAt: (direction, amount, x, y) => computer({ action: 'scroll', scroll_direction: direction, scroll_amount: amount, coordinate: [x, y] }),
    // A click at the centre of what find names: for things read_page gives no line of their own (calendar events).
    clickFound: async (query, role) => computer({ action: 'left_click', coordinate: center(await box(role ?? '', query)) }),
    hoverFound: async (query, role) => computer({ action: 'hover', coordinate: center(await box(role ?? '', query)) }),
    hover: async (role, name, opts) => computer({ action: 'hover', ref: await ref(role, name, opts) }),
    form: async (role, name, value) => ({ tool: 'form_input', args: { ref: await ref(role, name), value } }),
    dialog: (action, text) => ({ tool: 'firefox_dialog', args: { action, ...(text !== undefined ? { text } : {}) } }),
    upload: async (role, name, paths) => ({ tool: 'file_upload', args: { ...(role ? { ref: await ref(role, name) } : {}), paths } }),
    drag: async (from, to) => computer({
      action: 'left_click_drag', start_coordinate: center(await box(...from)), coordinate: center(await box(...to)),
    }),
    js: (code) => session.js(code),
    file: (name, body) => session.uploadFile(name, body),
  };
}

/**
 * Refs the reply names that the full read does not list: read_page shows some elements only inside their parent's
 * line (a spreadsheet's cells), so each is read by its ref_id before the oracle calls it stale. At most 20.
 */
async function confirmRefs(session, reply, full) {
  const listed = new Set([...full.matchAll(/\[ref=(ref_\d+)\]/g)].map((m) => m[1]));
  const missing = [...new Set([...reply.matchAll(/\[ref=(ref_\d+)\]/g)].map((m) => m[1]))].filter((r) => !listed.has(r));
  const reads = {};
  for (const ref of missing.slice(0, 20)) reads[ref] = (await session.call('read_page', { ref_id: ref, filter: 'all', max_chars: 2000 })).text;
  return reads;
}

/** The settled truth: a long settle, then the whole page and the viewport view. */
async function truth(session) {
  const settle = await session.settle();
  const full = await session.full();
  const view = await session.view();
  return { settle, full, view };
}

const dialogOpen = (text) => /dialog_open|dialog is open|A (confirm|prompt|alert)/i.test(text.split('\n')[0] ?? '');

/**
 * Runs an app: `app.url` (path on the app server), optional `app.setup(a)`, then `app.script`: a list of
 * `[label, async (a) => toolCall]` or `['nav', path]` (a navigation that is not measured).
 */
export async function runApp(session, apps, app, log) {
  const records = [];
  const state = {};
  const a = actions(session, state);
  const load = async (path) => {
    await session.navigate(apps.url(path));
    if (app.ready) await session.js(app.ready);
    Object.assign(state, await truth(session));
    state.beforeTree = indexTree(state.full);
  };
  await load(app.url);
  for (const [label, step] of app.script) {
    if (label === 'nav') {
      await load(step);
      continue;
    }
    let call;
    try {
      call = await step(a);
    } catch (error) {
      if (!(error instanceof ScriptError)) throw error;
      log(`  ${app.id}: ${label}: script skipped (${error.message})`);
      records.push({ app: app.id, label, skipped: error.message });
      continue;
    }
    if (!call) continue;
    const res = await session.call(call.tool, call.args);
    const after = await truth(session);
    const record = { app: app.id, label, tool: call.tool, args: call.args, reply: res.text, replyChars: res.chars, ms: Math.round(res.ms), settle: after.settle };
    if (dialogOpen(after.full) || dialogOpen(after.view)) {
      // A native dialog blocks every read; the page's reaction is judged on the firefox_dialog call that answers it.
      record.judged = false;
      record.note = 'a native dialog is open: the reads wait for the next action';
    } else {
      record.judged = true;
      // The reads are kept (apart from the committed JSON) so that a fix of the oracle can re-judge without Firefox.
      record.reads = { beforeFull: state.full, afterFull: after.full, beforeView: state.view, afterView: after.view };
      record.reads.refReads = await confirmRefs(session, res.text, after.full);
      record.verdict = judge({ reply: res.text, replyChars: res.chars, ...record.reads });
      Object.assign(state, after);
      state.beforeTree = indexTree(state.full);
    }
    const v = record.verdict;
    log(`  ${app.id}: ${label} -> ${res.chars} chars${v ? `, in view ${v.inView}, missed ${v.missed.length}, stale ${v.stale.length}` : ' (not judged)'}`);
    records.push(record);
  }
  return records;
}
