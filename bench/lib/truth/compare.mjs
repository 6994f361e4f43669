// The oracle's judgement of one action's reply against the full reads taken before it and after the page settled.
// Every count comes with the lines that made it, so a person can check the oracle as well as the server.
import { diffTrees, indexTree, listedIn, normalise, parseTree, splitLine } from './snapshot.mjs';


const REF_IN = /\[ref=(ref_\d+)\]/;

/** Sorts the reply's lines into what they claim. */
export function parseReply(text) {
  const out = { whole: [], more: [], continueRef: null, notShown: [], present: [], removals: [], counts: [], cuts: [], unchanged: [], restyled: [], noChange: false, refsNamed: new Set(), head: [] };
  const dash = [];
  for (const line of text.split('\n')) {
    if (/^\s*- /.test(line)) dash.push(line);
    else {
      out.head.push(line);
      if (/No change on the page\./.test(line)) out.noChange = true;
      if (/^New page: |^A new document loaded/.test(line)) out.newPage = true;
      // "truncated: … Continue from row "x" with read_page ref_id "ref_9" (reads it and the rows after it). Subtrees
      // not shown: ref_3 (link "a"), …": each named place, and what follows the continuing one, is left out and said.
      if (/^truncated: /.test(line)) {
        out.continueRef = /Continue from .*? read_page ref_id "(ref_\d+)"/.exec(line)?.[1] ?? null;
        const subtrees = /Subtrees not shown: (.*)$/.exec(line)?.[1] ?? '';
        // A landmark ("ref_9 (navigation "main")") has no ref in read_page's lines: its role and name place it.
        out.notShown = [...subtrees.matchAll(/\b(ref_\d+) \(([^)]*)\)/g)].map((m) => ({ ref: m[1], what: normalise(m[2]) }));
      }
      // "Opened menu "X" [ref=…] with N items." names the popup.
      // A form_input reply's head, "ref_2 (input[type=email]) is now …", and file_upload's "ref_53 now holds: …" name their field.
      if (/^Opened |\bis now\b|\bnow holds\b/.test(line)) for (const m of line.matchAll(/\b(ref_\d+)\b/g)) out.refsNamed.add(m[1]);
    }
  }
  const tree = parseTree(dash.join('\n'));
  for (const node of tree) {
    const c = node.content;
    const refs = [...c.matchAll(/(ref_\d+)/g)].map((m) => m[1]);
    let m;
    if ((m = /^\(delta cut at (\d+) chars/.exec(c))) out.cuts.push({ line: c, cap: Number(m[1]), ref: refs[0] ?? null, kind: 'cut' });
    else if (/^\(more changed inside/.test(c)) out.cuts.push({ line: c, cap: null, ref: refs.at(-1) ?? null, kind: 'more' });
    else if (/^… \d+ unchanged/.test(c)) out.unchanged.push(c);
    // "(8 more elements in this navigation; read_page with ref_id [ref=ref_9] lists them)": the ref is the landmark's,
    // which read_page prints without a ref; its line in the reply (the count's parent) says which one.
    else if (/^\(\d+ more /.test(c)) out.counts.push({ line: c, refs, within: node.parent === null ? null : tree[node.parent].norm });
    else if (/^restyled: /.test(c)) out.restyled.push(c);
    else if ((m = /^removed: (\d+) \S+ (?:from|in|under) (.*?)(?: \[ref=ref_\d+\])?(?: \(their refs are stale\))?$/.exec(c))) {
      // "removed: 4 buttons from navigation [ref=ref_34]": a landmark's ref is not in read_page's lines; its line is.
      out.counts.push({ line: c, refs, removedOnly: true, place: normalise(m[2]) });
    }
    else if ((m = /^(removed|hidden): ((?:[a-z]+(?: "(?:[^"\\]|\\.)*")?, )*[a-z]+(?: "(?:[^"\\]|\\.)*")?)(?: and (\d+) more)?(?: from (.*))?$/.exec(c)) && (m[2].includes(', ') || m[3])) {
      // "removed: heading "Parameters", button "Try it out", table and 8 more from main": a wrapper's parts, each
      // named (what was inside each went with it); "and N more" counts the rest, which this oracle cannot place.
      for (const part of m[2].match(/[a-z]+(?: "(?:[^"\\]|\\.)*")?/g)) out.removals.push({ line: c, ref: null, from: m[4] ? REF_IN.exec(m[4])?.[1] ?? null : null, ...splitLine(normalise(part)) });
      if (m[3]) out.more.push({ line: c, first: splitLine(normalise(m[2].match(/[a-z]+(?: "(?:[^"\\]|\\.)*")?/)[0])), left: Number(m[3]) });
    } else if ((m = /^(removed|hidden|closed): (.*?)(?: from (.*))?$/.exec(c))) {
      // "removed: img "Loading…" from region "Page 3" [ref=ref_46]": the ref is the place, not the element.
      const own = REF_IN.exec(m[2])?.[1] ?? null;
      out.removals.push({ line: c, ref: own, from: m[3] ? REF_IN.exec(m[3])?.[1] ?? null : null, ...splitLine(normalise(m[2])) });
      if (own) out.refsNamed.add(own);
    } else if (/^in iframe .*:$/.test(c)) {
      // "- in iframe "Rich Text Area":" heads the frame's lines: a place, not an element.
      out.head.push(c);
    } else if ((m = /^moved: (.*?) (?:from |in )(?:.*)$/.exec(c))) {
      // "moved: text "Fix login bug" from main (To do) to …": the element is where it was put; a text by its content.
      const what = /^text "(.*)"$/.exec(m[1]);
      const claim = what ? `text: ${what[1].replace(/\\"/g, '"')}` : m[1];
      out.present.push({ ...node, content: claim, ...splitLine(normalise(claim)), ref: refs[0] ?? null, norm: normalise(claim) });
      refs.forEach((r) => out.refsNamed.add(r));
    } else if ((m = /^focused: (.*)$/.exec(c))) {
      out.present.push({ ...node, ...splitLine(normalise(m[1])), ref: refs[0] ?? null, norm: normalise(m[1]) });
      refs.forEach((r) => out.refsNamed.add(r));
    } else if (/^\(/.test(c)) out.head.push(c);
    else {
      out.present.push(node);
      refs.forEach((r) => out.refsNamed.add(r));
    }
  }
  // Lines listed with all they hold now (children under them, none "… N unchanged"): what they held before and no
  // longer do is said by that listing (pdf.js's page region now holding a "Loading…" image, not its text).
  for (const node of tree) {
    const kids = tree.filter((x) => x.parent === node.index);
    if (kids.length && !kids.some((x) => /^… \d+ unchanged|^\(/.test(x.content)) && !/^(removed|hidden|closed|moved|focused): |^in iframe /.test(node.content)) out.whole.push({ ref: REF_IN.exec(node.content)?.[1] ?? null, norm: normalise(node.content) });
  }
  return out;
}

const unquote = (s) => String(s).replace(/\\"/g, '"');
const stripEllipsis = (s) => s.replace(/^…\s*/, '').replace(/\s*…$/, '').replace(/\s*\[cut\]$/, '');

/** Whether a claimed line agrees with the element's settled line: role, name, and every state the claim gives. */
function agrees(claim, truth) {
  if (claim.role !== truth.role) return `role ${claim.role} vs ${truth.role}`;
  const [cRaw, tRaw] = [unquote(claim.name), unquote(truth.name)];
  const [cn, tn] = [stripEllipsis(cRaw), stripEllipsis(tRaw)];
  // A clipped name ([cut], a reply and a read may clip at different lengths) matches on its start.
  const clipped = claim.states.cut || truth.states.cut;
  if (cRaw !== tRaw && cn !== tn && !(clipped && (tn.startsWith(cn) || cn.startsWith(tn)))) return 'name';
  for (const [k, v] of Object.entries(claim.states)) {
    // Said only in action replies: a text selection, the caret's window of a multi-line value, a cut mark.
    if (k === 'cut' || k === 'box' || (k === 'selected' && v !== true) || k === 'multiline') continue;
    const t = truth.states[k];
    if (k === 'value') {
      const cv = String(v);
      if (/…|\\n/.test(cv) || truth.states.multiline) continue;
      if (t === undefined && cv === '') continue;
      if (String(t ?? '') !== cv && !(truth.states.cut && cv.startsWith(String(t)))) return `value "${cv}" vs "${t ?? ''}"`;
      continue;
    }
    if (t === undefined) {
      // "[expanded=false]" and "[checked=false]" match a line that leaves the state off.
      if (v === 'false') continue;
      return `[${k}${v === true ? '' : `=${v}`}] not in truth`;
    }
    if (String(t) !== String(v)) return `[${k}=${v}] vs [${k}=${t}]`;
  }
  return null;
}

/** Lines the reply says are there that the settled page does not have. */
function staleLines(reply, after, refReads) {
  const stale = [];
  // Text inside an element named by its content is not a line of the full read; the ref_id reads show it.
  const allText = [...after.nodes.map((n) => n.norm), ...Object.values(refReads ?? {}).map(normalise)].join('\n');
  for (const claim of reply.present) {
    if (claim.ref) {
      // Not in the full read: then as read_page with its ref_id showed it, if it did.
      const truth = after.byRef.get(claim.ref) ?? indexTree(refReads?.[claim.ref] ?? '').byRef.get(claim.ref);
      if (!truth) stale.push({ line: claim.content, why: `${claim.ref} is not in the settled page` });
      else {
        const why = agrees(claim, truth);
        if (why) stale.push({ line: claim.content, why: `${why}; truth: ${truth.norm}` });
      }
      continue;
    }
    if (claim.role === 'text') {
      const run = stripEllipsis(claim.name);
      if (run && !allText.includes(run)) stale.push({ line: claim.content, why: 'text not in the settled page' });
      continue;
    }
    // A refless element line (a landmark, a context line): some line of the page reads the same.
    if (!after.nodes.some((n) => n.norm === claim.norm || (n.role === claim.role && n.name === claim.name))) {
      stale.push({ line: claim.content, why: 'no such line in the settled page' });
    }
  }
  return stale;
}

/** Whether the reply names a change: by its ref, its text, or for a removal its role and name. */
function named(change, reply, replyText, before) {
  const n = change.node;
  if (n.ref && reply.refsNamed.has(n.ref)) return true;
  if (change.kind === 'removed') {
    // "from X [ref=…]" places it; a landmark's ref is not in read_page's lines, so an unknown place does not count.
    const placed = (r) => !r.from || !before.byRef.has(r.from) || n.ancestors.includes(r.from);
    // "closed: dialog" without a name (TinyMCE's link dialog) names the one dialog that went.
    const sameName = (r) => r.name === '' || stripEllipsis(unquote(r.name)) === stripEllipsis(unquote(n.name));
    const same = (r) => r.role === n.role && sameName(r) && placed(r);
    if (reply.removals.some((r) => (r.ref && r.ref === n.ref) || same(r))) return true;
    // Replaced in place by a like element the reply lists (pdf.js redraws a page's "Loading…" image): the agent
    // reads the new line where the old one was.
    if (reply.present.some((p) => p.ref && p.ref !== n.ref && p.role === n.role && p.name === n.name && !before.byRef.has(p.ref))) return true;
    if (n.role === 'text' && reply.removals.some((r) => r.role === 'text' && n.name.includes(stripEllipsis(unquote(r.name))))) return true;
    return false;
  }
  if (n.role === 'text') {
    const run = stripEllipsis(n.name).slice(0, 60);
    if (run && replyText.includes(run)) return true;
    // A log that grew at its end is shown as its new tail (`text: …change news true`); short runs that read_page
    // joins on one line (a kanban column's cards, an editor's lines) are shown by the run that is new: a run of the
    // reply that is in the new line and was not in the old one names the change.
    const old = change.old?.role === 'text' ? change.old.name : '';
    return reply.present.some((p) => {
      if (p.role !== 'text') return false;
      const part = stripEllipsis(p.name);
      return part && n.name.includes(part) && (!old.includes(part) || p.name.startsWith('…'));
    });
  }
  return !n.ref && reply.present.some((p) => !p.ref && p.norm === n.norm);
}

/** Whether a count line, a genuine cut, or a named removed ancestor covers a change the reply does not name. */
function counted(change, reply, removedNamed, before, after, genuineCut) {
  const n = change.node;
  const up = new Set([...n.ancestors, ...(change.old?.ancestors ?? []), ...(before.byKey.get(change.key)?.ancestors ?? [])]);
  const upKeys = [...n.ancestorKeys, ...(change.old?.ancestorKeys ?? [])];
  const under = (tree, norm) => upKeys.some((k) => !tree.byKey.get(k)?.ref && tree.byKey.get(k)?.norm === norm);
  for (const c of reply.counts) {
    if (c.removedOnly && change.kind !== 'removed') continue;
    if (c.refs.some((r) => up.has(r) || r === n.ref)) return true;
    if (c.within && /^\(\d+ more \S+ in this /.test(c.line) && (under(after, c.within) || under(before, c.within))) return true;
    if (c.place && (under(after, c.place) || under(before, c.place))) return true;
  }
  // A page snapshot cut at its cap names the subtrees it did not show, and the item to continue from.
  if (change.kind !== 'removed') {
    if (reply.notShown.some(({ ref, what }) => up.has(ref) || ref === n.ref || under(after, what))) return true;
    const from = reply.continueRef && after.byRef.get(reply.continueRef);
    if (from) {
      const rest = after.nodes.filter((x) => x.parent === from.parent && x.index >= from.index).map((x) => x.key);
      if (rest.includes(change.key) || rest.some((k) => n.ancestorKeys.includes(k))) return true;
    }
  }
  for (const c of reply.cuts) if (c.ref && (up.has(c.ref) || c.ref === n.ref) && genuineCut) return true;
  if (genuineCut && reply.cuts.some((c) => c.kind === 'cut')) return true;
  if (change.kind === 'removed') {
    const parent = before.byKey.get(change.key)?.parent;
    const holder = parent === null || parent === undefined ? null : before.nodes.find((x) => x.index === parent);
    if (holder && reply.whole.some((w) => (holder.ref ? w.ref === holder.ref : !w.ref && w.norm === holder.norm))) return true;
  }
  // "hidden: checkbox "Only admins" and 5 more": N more parts of the wrapper that held the named one went with it.
  if (change.kind === 'removed') {
    for (const more of reply.more) {
      if (more.left <= 0) continue;
      const first = before.nodes.find((x) => x.role === more.first.role && stripEllipsis(unquote(x.name)) === stripEllipsis(unquote(more.first.name)));
      // Parts at the top of the page share no line above them: the page itself holds both.
      const theirs = before.byKey.get(change.key)?.ancestorKeys ?? [];
      const common = first && (first.ancestorKeys.find((k) => theirs.includes(k)) ?? (first.ancestorKeys.length === 0 || theirs.length === 0 ? 'root' : undefined));
      if (common) {
        more.left -= 1;
        return true;
      }
    }
  }
  // What was inside a removed element the reply names is gone with it.
  if (change.kind === 'removed' && (before.byKey.get(change.key)?.ancestorKeys ?? []).some((k) => removedNamed.has(k))) return true;
  // A row or field whose name is its content changed only because a part the reply names did (a row's name holds
  // its textbox's value, a grid row its cells'): the agent reads the change on that part.
  if (change.kind === 'changed' && change.old && n.role === change.old.role && JSON.stringify(n.states) === JSON.stringify(change.old.states)
    && after.nodes.some((x) => x.ref && x.ancestorKeys.includes(change.key) && reply.refsNamed.has(x.ref))) return true;
  // The same when read_page lists no children under it (a spreadsheet row: its cells are only in its name) and the
  // reply names an element the full read does not list (the cell that changed).
  if (change.kind === 'changed' && change.old && n.role === change.old.role && !after.nodes.some((x) => x.parent === n.index)
    && reply.present.some((p) => p.ref && !after.byRef.has(p.ref) && !before.byRef.has(p.ref) && n.name.includes(stripEllipsis(unquote(p.name))))) return true;
  // "New page: …" says the whole document was replaced: everything of the old one is gone.
  if (change.kind === 'removed' && reply.newPage) return true;
  return false;
}

/** Whether a cut notice is true: the reply reached its cap, and the ref it names leads to lines the reply left out. */
function cutFalse(cut, replyChars, replyText, after) {
  if (cut.kind === 'cut' && replyChars < cut.cap * 0.75) return `reply is ${replyChars} chars, under the ${cut.cap} cap`;
  if (!cut.ref) return null;
  const node = after.byRef.get(cut.ref);
  if (!node) return `${cut.ref} is not in the settled page`;
  const inside = [node, ...after.nodes.filter((x) => x.ancestors.includes(cut.ref))];
  const shown = new Set(parseTree(replyText).map((x) => x.norm));
  if (inside.every((x) => shown.has(x.norm))) return `everything under ${cut.ref} is already in the reply`;
  return null;
}

/**
 * Judges one action. Inputs are read_page texts: full (filter all) and view (default) before the action and after
 * the settle, and the reply's text and size. Returns counts and the offending lines.
 */
export function judge({ reply, replyChars, beforeFull, afterFull, beforeView, afterView, refReads }) {
  const before = indexTree(beforeFull);
  const after = indexTree(afterFull);
  const bView = indexTree(beforeView);
  const aView = indexTree(afterView);
  const r = parseReply(reply);
  const changes = diffTrees(before, after);
  const inView = changes.filter((c) => (c.kind !== 'added' && listedIn(c.old ?? c.node, bView)) || (c.kind !== 'removed' && listedIn(c.node, aView)) || (c.kind === 'removed' && listedIn(c.node, bView)));
  const reacted = diffTrees(before, after, { withFocus: true }).length > 0;

  const cutProblems = r.cuts.map((c) => ({ line: c.line, why: cutFalse(c, replyChars, reply, after) })).filter((c) => c.why);
  const genuineCut = r.cuts.length > 0 && cutProblems.length === 0;
  const removedNamed = new Set(changes.filter((c) => c.kind === 'removed' && named(c, r, reply, before)).map((c) => c.key));

  const missed = [];
  let namedCount = 0;
  let countedCount = 0;
  for (const c of inView) {
    if (named(c, r, reply, before)) namedCount++;
    else if (counted(c, r, removedNamed, before, after, genuineCut)) countedCount++;
    else missed.push({ kind: c.kind, line: c.node.norm, was: c.old?.norm });
  }
  // A reply that says the page had not settled ("this is what it showed then") is not claiming its lines hold a
  // moment later: what it showed that went away is counted apart, not as stale.
  const unsettledReply = /\(The page had not settled|Still changing after/.test(reply);
  const staleFound = staleLines(r, after, refReads);
  const stale = unsettledReply ? [] : staleFound;
  const staleUnsettled = unsettledReply ? staleFound : [];
  const falseUnchanged = [];
  if (r.noChange && inView.length) falseUnchanged.push('No change on the page.');
  if (missed.length) for (const line of [...r.restyled, ...r.unchanged]) falseUnchanged.push(line);
  const errorLine = /NOT delivered|target_occluded|focus_moved/.exec(reply);
  const falseNotDelivered = errorLine && reacted ? [reply.split('\n').find((l) => errorLine && l.includes(errorLine[0])) ?? errorLine[0]] : [];
  return {
    changes: changes.length,
    inView: inView.length,
    named: namedCount,
    counted: countedCount,
    missed,
    stale,
    staleUnsettled,
    falseUnchanged,
    falseCut: cutProblems,
    falseNotDelivered,
    reacted,
  };
}
