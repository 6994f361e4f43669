// Parses read_page text (and the lines of an action's delta, which use the same format) into nodes: role, name,
// states, ref and place in the tree. Identity is the ref when the line has one (refs stay on a node across reads);
// a line without one (text runs, landmarks) is known by its nearest ancestor with a ref and its content.

// Marks that say where or whether an element is focused, not what it is: a focus change alone is not a change the
// oracle asks the delta to name (the delta has its own `focused:` line for it, and [box=] moves with any scroll).
const NOISE = [/\s*\[box=[^\]]*\]/g, /\s*\[focused\]/g];

/** The content of a line without its ref and noise: what must match between reply and truth. */
export function normalise(content) {
  let out = content.replace(/\s*\[ref=ref_\d+\]/g, '');
  for (const re of NOISE) out = out.replace(re, '');
  return out.replace(/\s+/g, ' ').trim();
}

/** Splits `role "name" [a] [b=c]` (content without "- "). Text runs (`text: …`) have role "text" and the run as name. */
export function splitLine(content) {
  const text = /^text: ?(.*)$/s.exec(content);
  if (text) {
    // A clipped run ends "… [cut]" (and carries its paragraph's ref, already taken off).
    const cut = /\s*\[cut\]$/.test(text[1]);
    return { role: 'text', name: text[1].replace(/\s*\[cut\]$/, ''), states: cut ? { cut: true } : {} };
  }
  const m = /^([\w-]+)(?: "((?:[^"\\]|\\.)*)")?(.*)$/s.exec(content);
  if (!m) return { role: content, name: '', states: {} };
  const states = {};
  // Values may hold brackets and quotes: [value="a [b]"]; match quoted values first.
  for (const s of m[3].matchAll(/\[([\w-]+)(?:=("(?:[^"\\]|\\.)*"|…"(?:[^"\\]|\\.)*"|[^\]]*))?\]/g)) {
    states[s[1]] = s[2] === undefined ? true : s[2].replace(/^…?"|"$/g, '');
  }
  const rest = m[3].replace(/\[[^\]]*\]/g, '').trim();
  return { role: m[1], name: m[2] ?? '', states, rest };
}

/**
 * Parses snapshot text. Each node: { line, depth, content, norm, ref, role, name, states, parent (index),
 * anchor (nearest ancestor ref or 'root'), ancestors (refs up the tree), key }.
 */
export function parseTree(text) {
  const nodes = [];
  const stack = [];
  const seen = new Map();
  for (const line of text.split('\n')) {
    const m = /^( *)- (.*)$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 2;
    const content = m[2];
    while (stack.length && stack[stack.length - 1].depth >= depth) stack.pop();
    const parent = stack.length ? stack[stack.length - 1] : null;
    const ref = /\[ref=(ref_\d+)\]/.exec(content)?.[1] ?? null;
    const ancestors = parent ? (parent.ref ? [parent.ref, ...parent.ancestors] : parent.ancestors) : [];
    const norm = normalise(content);
    const anchor = ancestors[0] ?? 'root';
    let key = ref;
    if (!key) {
      // Refless lines of the same content under one anchor are told apart by their order.
      const base = `${anchor}>${norm}`;
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      key = `${base}#${n}`;
    }
    const ancestorKeys = parent ? [parent.key, ...parent.ancestorKeys] : [];
    const node = { line, depth, content, norm, ref, ...splitLine(norm), parent: parent?.index ?? null, anchor, ancestors, ancestorKeys, key, index: nodes.length };
    nodes.push(node);
    stack.push(node);
  }
  return nodes;
}

/** The meta lines read_page adds (outside the viewport…, cut hints) are not page elements. */
export const isMeta = (node) => /^\(/.test(node.content) || /^… \d+ unchanged/.test(node.content);

export function indexTree(text) {
  const nodes = parseTree(text).filter((n) => !isMeta(n));
  const byKey = new Map(nodes.map((n) => [n.key, n]));
  const byRef = new Map(nodes.filter((n) => n.ref).map((n) => [n.ref, n]));
  // Refless lines are matched to the viewport read by anchor and content, without the order (the view skips some).
  const loose = new Set(nodes.map((n) => (n.ref ? n.ref : `${n.anchor}>${n.norm}`)));
  return { text, nodes, byKey, byRef, loose };
}

/** Whether a node of one read is listed in another read (the viewport view). */
export const listedIn = (node, tree) => tree.loose.has(node.ref ? node.ref : `${node.anchor}>${node.norm}`);

/**
 * The truth: every element whose line differs between two full reads. kind: added | removed | changed.
 * `withFocus` keeps [focused] (to tell whether the page reacted at all).
 */
export function diffTrees(before, after, { withFocus = false } = {}) {
  const cmp = (n) => (withFocus ? n.content.replace(/\s*\[ref=ref_\d+\]|\s*\[box=[^\]]*\]/g, '') : n.norm);
  const changes = [];
  for (const [key, b] of before.byKey) {
    const a = after.byKey.get(key);
    if (!a) changes.push({ kind: 'removed', node: b, key });
    else if (cmp(a) !== cmp(b)) changes.push({ kind: 'changed', node: a, old: b, key });
  }
  for (const [key, a] of after.byKey) if (!before.byKey.has(key)) changes.push({ kind: 'added', node: a, key });
  // A refless line whose content changed (a log's text that grew, a label re-rendered) reads as one removed and one
  // added line under the same anchor: pair them as one change, so the reply naming the new text names it.
  const out = [];
  const added = changes.filter((c) => c.kind === 'added' && !c.node.ref);
  for (const c of changes) {
    if (c.kind === 'removed' && !c.node.ref) {
      const twin = added.findIndex((x) => x.node.anchor === c.node.anchor && x.node.role === c.node.role);
      if (twin >= 0) {
        const [pair] = added.splice(twin, 1);
        pair.kind = 'changed';
        pair.old = c.node;
        continue;
      }
    }
    out.push(c);
  }
  return out;
}
