// Renders a truth run as markdown: a table per app and a total, then every failure with its action and lines.
const mean = (xs) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);
const pct = (xs, p) => {
  if (!xs.length) return 0;
  const sorted = [...xs].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p + 0.5))];
};
const fmt = (n) => Math.round(n).toLocaleString('en-US');

/** Per-app (and total) figures of a run's records. */
export function summarise(records) {
  const acted = records.filter((r) => !r.skipped);
  const judged = acted.filter((r) => r.judged);
  const sum = (f) => judged.reduce((s, r) => s + f(r.verdict), 0);
  const inView = sum((v) => v.inView);
  const covered = sum((v) => v.named + v.counted);
  const chars = acted.map((r) => r.replyChars);
  return {
    actions: acted.length,
    judged: judged.length,
    skipped: records.length - acted.length,
    stale: sum((v) => v.stale.length),
    staleActions: judged.filter((r) => r.verdict.stale.length).length,
    staleUnsettled: sum((v) => v.staleUnsettled?.length ?? 0),
    inView,
    missed: sum((v) => v.missed.length),
    // Actions that loaded another document answer with that page's capped snapshot, not a delta: told apart.
    missedNewPage: judged.filter((r) => /^New page: |^A new document loaded/m.test(r.reply)).reduce((s, r) => s + r.verdict.missed.length, 0),
    coveredPct: inView ? (100 * covered) / inView : 100,
    falseUnchanged: judged.filter((r) => r.verdict.falseUnchanged.length).length,
    falseCut: sum((v) => v.falseCut.length),
    falseNotDelivered: judged.filter((r) => r.verdict.falseNotDelivered.length).length,
    charsMean: mean(chars),
    charsP50: pct(chars, 0.5),
    charsMax: chars.length ? Math.max(...chars) : 0,
  };
}

export function byApp(records) {
  const apps = new Map();
  for (const r of records) {
    if (!apps.has(r.app)) apps.set(r.app, []);
    apps.get(r.app).push(r);
  }
  return apps;
}

const clip = (s, n = 160) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const code = (s) => `\`${clip(s).replace(/`/g, "'")}\``;

function failureLines(r) {
  const v = r.verdict;
  const out = [];
  for (const s of v.stale) out.push(`stale: ${code(s.line)} (${clip(s.why, 140)})`);
  for (const s of v.staleUnsettled ?? []) out.push(`gone since (the reply said the page had not settled): ${code(s.line)} (${clip(s.why, 140)})`);
  for (const m of v.missed.slice(0, 6)) out.push(`missed ${m.kind}: ${code(m.line)}${m.was ? ` (was ${code(m.was)})` : ''}`);
  if (v.missed.length > 6) out.push(`… and ${v.missed.length - 6} more missed`);
  for (const f of v.falseUnchanged) out.push(`false unchanged/restyled: ${code(f)}`);
  for (const f of v.falseCut) out.push(`false cut: ${code(f.line)} (${f.why})`);
  for (const f of v.falseNotDelivered) out.push(`false NOT delivered: ${code(f)}`);
  return out;
}

/** The delta's own score: actions that loaded another document answer with a capped snapshot, not a delta. */
function withoutNewPages(records) {
  const judged = records.filter((r) => r.judged);
  const rest = judged.filter((r) => !/^New page: |^A new document loaded/m.test(r.reply));
  const inView = rest.reduce((s, r) => s + r.verdict.inView, 0);
  const missed = rest.reduce((s, r) => s + r.verdict.missed.length, 0);
  return `Without the ${judged.length - rest.length} actions that loaded a new page: ${missed} missed of ${inView} in-view changes, ${inView ? (100 * (1 - missed / inView)).toFixed(1) : '100.0'}% named or counted. ${records.filter((r) => !r.judged && !r.skipped).length} actions that opened a native dialog are not judged (their firefox_dialog answers are).`;
}

export function renderMarkdown({ meta, records, base }) {
  const apps = byApp(records);
  const baseApps = base ? byApp(base.records) : new Map();
  const row = (name, s, b) => `| ${name} | ${s.actions} | ${s.stale} | ${s.missed} / ${s.inView} | ${s.missedNewPage} | ${s.coveredPct.toFixed(1)}% | ${s.falseUnchanged} | ${s.falseCut} | ${s.falseNotDelivered} | ${fmt(s.charsMean)} / ${fmt(s.charsP50)} / ${fmt(s.charsMax)} | ${b ? fmt(b.charsMean) : '–'} |`;
  const table = (recsByApp, other) => [
    '| app | actions | stale lines | missed / in-view changes | of the missed: on a new page | named or counted | false unchanged/restyled | false cut notices | false NOT delivered | reply chars mean / p50 / max | before: chars mean |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...[...recsByApp].map(([app, recs]) => row(app, summarise(recs), other?.has(app) ? summarise(other.get(app)) : null)),
    row('**total**', summarise([...recsByApp.values()].flat()), other ? summarise([...other.values()].flat()) : null),
  ];
  const out = [
    '# Truth oracle: each action\'s reply against the page before and after',
    '',
    `Run ${meta.startedAt}, ${meta.seconds} s, server build ${meta.serverDir}${meta.commit ? ` (${meta.commit})` : ''}. Load average (1, 5, 15 min) at start ${meta.loadavgStart.join(', ')}, at end ${meta.loadavgEnd.join(', ')} (2 cores; another Firefox may have been running).${meta.rejudgedAt ? ` Verdicts re-judged from the run's reads by the current oracle at ${meta.rejudgedAt}.` : ''}`,
    base ? `"before" = reply characters per action of the same script on ${base.meta.serverDir}${base.meta.commit ? ` (${base.meta.commit})` : ''} (run ${base.meta.startedAt}, load at start ${base.meta.loadavgStart.join(', ')}).` : '',
    '',
    'What each column means: docs/truth.md. Targets (issue 36): 0 stale lines, 0 false cut notices, 0 false NOT delivered, ≥ 95% of in-view changes named or counted, reply characters per action no more than before.',
    '',
    ...table(apps, base ? baseApps : null),
    '',
    withoutNewPages(records),
    unsettledNote(records),
    '',
  ];
  if (base) out.push(`### The same script on the "before" build (${base.meta.serverDir}${base.meta.commit ? `, ${base.meta.commit.split(' ')[0]}` : ''})`, '', ...table(baseApps, null), '', withoutNewPages(base.records), '');
  if (meta.failures.length) out.push('Apps that did not run to the end:', ...meta.failures.map((f) => `- ${f.app}: ${clip(f.error, 300)}`), '');
  const skipped = records.filter((r) => r.skipped);
  if (skipped.length) out.push(`Script steps skipped (the element was not there; not counted): ${skipped.map((r) => `${r.app}: ${r.label}`).join('; ')}`, '');
  out.push('## Failures', '', 'Each: the action, the reply\'s first line, and the offending lines (refs left out of comparisons).', '');
  for (const r of records.filter((x) => x.judged)) {
    const lines = failureLines(r);
    if (!lines.length) continue;
    out.push(`- **${r.app}: ${r.label}** (${r.replyChars} chars) — reply: ${code(r.reply.split('\n')[0])}`);
    for (const l of lines) out.push(`  - ${l}`);
  }
  return `${out.join('\n')}\n`;
}

/** Lines of replies that said the page had not settled and were gone once it had: not stale, but not hidden either. */
function unsettledNote(records) {
  const gone = records.filter((r) => r.judged && r.verdict.staleUnsettled?.length);
  if (!gone.length) return '';
  const lines = gone.reduce((sum, r) => sum + r.verdict.staleUnsettled.length, 0);
  return `${lines} line(s) of ${gone.length} reply(s) that said the page had not settled ("this is what it showed then") were gone once it had; they are listed below and not counted as stale.`;
}
