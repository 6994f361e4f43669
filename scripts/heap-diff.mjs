#!/usr/bin/env node
// Compares two heap snapshots of the server (scripts/soak.mjs --heap-snapshots DIR writes one at each sample, after
// a full GC): what grew between an early and a late one, by class (count and self size) and by owner, the nearest
// object of a named class that alone keeps the memory alive (its dominator: RefRegistry, Ring, Tab, …). Growth that
// belongs to one owner and keeps on growing is a leak; growth spread over warm-up (code, the first of everything) is
// not.
// Usage: node scripts/heap-diff.mjs EARLY.heapsnapshot LATE.heapsnapshot [--top N]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '25' } } });
if (positionals.length !== 2) {
  process.stderr.write('usage: node scripts/heap-diff.mjs EARLY.heapsnapshot LATE.heapsnapshot [--top N]\n');
  process.exit(2);
}
const top = Number(values.top);

/** The snapshot's node graph: types, names, self sizes and the strong edges of each node. */
function load(file) {
  const raw = JSON.parse(readFileSync(file, 'utf8'));
  const { node_fields: nodeFields, edge_fields: edgeFields, node_types: nodeTypes, edge_types: edgeTypes } = raw.snapshot.meta;
  const width = nodeFields.length;
  const edgeWidth = edgeFields.length;
  const count = raw.nodes.length / width;
  const field = (name) => nodeFields.indexOf(name);
  const [typeAt, nameAt, sizeAt, edgesAt] = [field('type'), field('name'), field('self_size'), field('edge_count')];
  const [edgeTypeAt, edgeToAt] = [edgeFields.indexOf('type'), edgeFields.indexOf('to_node')];
  const weak = edgeTypes[0].indexOf('weak');
  const type = new Array(count);
  const name = new Array(count);
  const size = new Float64Array(count);
  const out = new Array(count);
  for (let i = 0, e = 0; i < count; i++) {
    type[i] = nodeTypes[0][raw.nodes[i * width + typeAt]];
    name[i] = raw.strings[raw.nodes[i * width + nameAt]];
    size[i] = raw.nodes[i * width + sizeAt];
    const targets = [];
    for (let k = raw.nodes[i * width + edgesAt]; k > 0; k--, e += edgeWidth) {
      if (raw.edges[e + edgeTypeAt] !== weak) targets.push(raw.edges[e + edgeToAt] / width);
    }
    out[i] = targets;
  }
  return { count, type, name, size, out };
}

/** Strings are grouped by kind, not text; everything else by type and constructor or function name. */
function label(h, i) {
  return /string/.test(h.type[i]) ? h.type[i] : `${h.type[i]} ${h.name[i].slice(0, 80)}`;
}

/** Immediate dominators from the root (node 0), Cooper-Harvey-Kennedy over reverse postorder; -1 if unreachable. */
function dominators(h) {
  const order = new Int32Array(h.count).fill(-1);
  const post = [];
  const seen = new Uint8Array(h.count);
  const stack = [[0, 0]];
  seen[0] = 1;
  while (stack.length) {
    const top = stack.at(-1);
    const next = h.out[top[0]][top[1]++];
    if (next === undefined) post.push(stack.pop()[0]);
    else if (!seen[next]) {
      seen[next] = 1;
      stack.push([next, 0]);
    }
  }
  const rpo = post.reverse();
  rpo.forEach((node, k) => (order[node] = k));
  const preds = Array.from({ length: h.count }, () => []);
  for (const i of rpo) for (const to of h.out[i]) preds[to].push(i);
  const idom = new Int32Array(h.count).fill(-1);
  idom[0] = 0;
  const meet = (a, b) => {
    while (a !== b) {
      while (order[a] > order[b]) a = idom[a];
      while (order[b] > order[a]) b = idom[b];
    }
    return a;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (const node of rpo.slice(1)) {
      let d = -1;
      for (const p of preds[node]) if (idom[p] >= 0) d = d < 0 ? p : meet(p, d);
      if (d >= 0 && idom[node] !== d) {
        idom[node] = d;
        changed = true;
      }
    }
  }
  return idom;
}

/** Count and self size by class, and by owner: the nearest dominator that is an object of a named class. */
function summarize(file) {
  const h = load(file);
  const idom = dominators(h);
  // Collections are not owners: a Map's growth belongs to whatever holds the Map.
  const named = (i) => h.type[i] === 'object' && !/^(Object|Array|Map|Set|system \/.*|)$/.test(h.name[i]);
  const owner = new Int32Array(h.count).fill(-1);
  const ownerOf = (i) => {
    const chain = [];
    let j = i;
    while (owner[j] < 0 && j !== 0 && !named(j)) {
      chain.push(j);
      j = idom[j];
    }
    const found = owner[j] >= 0 ? owner[j] : j;
    for (const c of [j, ...chain]) owner[c] = found;
    return found;
  };
  const byClass = new Map();
  const byOwner = new Map();
  const add = (map, key, bytes) => {
    const row = map.get(key) ?? { count: 0, bytes: 0 };
    row.count++;
    row.bytes += bytes;
    map.set(key, row);
  };
  let total = 0;
  for (let i = 0; i < h.count; i++) {
    if (idom[i] < 0) continue;
    total += h.size[i];
    add(byClass, label(h, i), h.size[i]);
    const o = ownerOf(i);
    add(byOwner, o === 0 ? '(no owner below the roots)' : label(h, o), h.size[i]);
  }
  return { nodes: h.count, total, byClass, byOwner };
}

function diff(title, before, after) {
  const rows = [...new Set([...before.keys(), ...after.keys()])].map((key) => {
    const a = before.get(key) ?? { count: 0, bytes: 0 };
    const b = after.get(key) ?? { count: 0, bytes: 0 };
    return { key, count: b.count - a.count, bytes: b.bytes - a.bytes, now: b.bytes };
  });
  console.log(`\n${title}: growth in bytes, objects, bytes now`);
  for (const row of rows.sort((x, y) => y.bytes - x.bytes).slice(0, top)) {
    console.log(`${String(row.bytes).padStart(10)} ${String(row.count).padStart(8)} ${String(row.now).padStart(10)}  ${row.key}`);
  }
}

const [early, late] = positionals.map(summarize);
const mb = (bytes) => (bytes / 1048576).toFixed(2);
console.log(`reachable: ${early.nodes} -> ${late.nodes} nodes, ${mb(early.total)} -> ${mb(late.total)} MB`);
diff('By class', early.byClass, late.byClass);
diff('By owner', early.byOwner, late.byOwner);
