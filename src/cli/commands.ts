// The commands and the flags each takes beyond the common ones: what main dispatches on, --help prints and the
// contract test holds to ../shared/CONTRACT.md.
import type { CommandSpec } from './args.js';

const VERBOSE = { flag: 'verbose', kind: 'boolean', help: 'Print where the cold start went (spawn, endpoint, session, first page) to stderr', defaultText: 'false' } as const;

export const COMMANDS: Record<string, CommandSpec> = {
  mcp: { name: 'mcp', usage: 'mcp [flags]', summary: 'MCP server over stdio (the default command): what an agent\'s MCP config starts.', common: true },
  serve: {
    name: 'serve',
    usage: 'serve --port N [--host 127.0.0.1] [flags]',
    summary: 'The same tools over MCP Streamable HTTP at /mcp. Each MCP session gets its own tab group in one owned browser.',
    common: true,
  },
  run: {
    name: 'run',
    usage: 'run SCRIPT|- [flags]',
    summary: 'Runs a YAML/JSON script of tool calls in order and prints one JSON line per step. Exit 0 all passed, 1 a step failed, 2 the script does not parse.',
    common: true,
    extra: [
      { flag: 'interactive', kind: 'boolean', short: 'i', help: 'A REPL: one step per line, with history', defaultText: 'false' },
      VERBOSE,
    ],
  },
  regress: {
    name: 'regress',
    usage: 'regress CONFIG [flags]',
    summary: 'Screenshot regression: captures each page@viewport of CONFIG, still, and compares it with its baseline. Exit 1 when screenshots changed, 2 for a bad CONFIG or flag, 3 when the run could not be done (no Firefox, a page that did not load).',
    common: true,
    extra: [
      { flag: 'baseline-dir', kind: 'string', help: 'Where baselines page@viewport.png live', defaultText: 'baselines/ next to CONFIG' },
      { flag: 'report-dir', kind: 'string', help: 'Where report.html, junit.xml and report.json go', defaultText: './firefox-use-report (shard-I-of-N inside it with --shard)' },
      { flag: 'update', kind: 'boolean', help: 'Rewrite the baselines that changed', defaultText: 'false' },
      { flag: 'ci', kind: 'boolean', help: 'A missing baseline is an error (it is still written, for review)', defaultText: 'false' },
      { flag: 'workers', kind: 'string', help: 'Captures in parallel: tabs of one Firefox, another Firefox per 4 workers', defaultText: '1' },
      { flag: 'prefetch', kind: 'string', help: 'Captures each worker loads ahead, in windows of their own, while it shoots one (0: one page at a time)', defaultText: '1' },
      { flag: 'shard', kind: 'string', help: 'Run only slice I of N (I/N), for a CI matrix', defaultText: 'all' },
      { flag: 'grep', kind: 'string', help: 'Only the captures whose page@viewport id matches this regular expression (with --update: update only those)', defaultText: 'all' },
      { flag: 'flaky', kind: 'string', help: 'An unstable page that differs from its baseline beyond the threshold: fail or warn', defaultText: 'fail with --ci, else warn' },
      { ...VERBOSE, help: "Print each capture's phases (tab, load, wait, still, shots, compare), their totals and where the cold start went to stderr" },
    ],
  },
  'merge-reports': {
    name: 'merge-reports',
    usage: 'merge-reports REPORT_DIR... [--report-dir OUT]',
    summary: 'Joins the reports of regress shards into one (HTML, JUnit XML, JSON). Exit 1 on a failure or a missing shard.',
    common: false,
    extra: [{ flag: 'report-dir', kind: 'string', help: 'Where the merged report goes', defaultText: './firefox-use-report' }],
  },
  'show-trace': {
    name: 'show-trace',
    usage: 'show-trace FILE [--port N] [--output-dir DIR]',
    summary: 'Serves a --save-trace file (trace-*.html) on 127.0.0.1 for a browser to open, until Ctrl+C. FILE must be in the working directory or the output dir.',
    common: false,
    extra: [
      { flag: 'port', kind: 'string', help: 'TCP port on 127.0.0.1', defaultText: 'a free one' },
      { flag: 'output-dir', kind: 'string', help: 'The output dir FILE may be in, besides the working directory', defaultText: './firefox-use-output' },
    ],
  },
  doctor: {
    name: 'doctor',
    usage: 'doctor [--launch] [--json] [flags]',
    summary: 'Says which Firefox is used, its version, the profile and whether it is locked; with --launch, starts it and loads a page.',
    common: true,
    extra: [
      { flag: 'json', kind: 'boolean', help: 'Print the report as JSON', defaultText: 'false' },
      {
        flag: 'launch',
        kind: 'boolean',
        help: 'Also start Firefox headless with these flags, load a page from 127.0.0.1 and report each step (spawn, endpoint, session, ready, page)',
        defaultText: 'false',
      },
    ],
  },
};
