#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { resolveOptions } from '../config.js';
import { isToolError } from '../errors.js';
import { VERSION } from '../version.js';
import { closest, flagLines, helpText, parseCommand, type CommandSpec } from './args.js';
import { catchSignals, onShutdown } from './lifecycle.js';

const VERBOSE = { flag: 'verbose', kind: 'boolean', help: 'Print where the cold start went (spawn, endpoint, session, first page) to stderr', defaultText: 'false' } as const;

const COMMANDS: Record<string, CommandSpec> = {
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

function mainHelp(): string {
  return [
    `firefox-use ${VERSION}: a headless Firefox, owned and driven over WebDriver BiDi, served to agents over MCP.`,
    '',
    'Usage: firefox-use [command] [flags]',
    '',
    'Commands:',
    ...Object.values(COMMANDS).map((spec) => `  ${spec.name.padEnd(13)} ${spec.summary}`),
    '',
    'firefox-use <command> --help lists the flags of that command.',
    'firefox-use --version prints the version.',
    '',
    'Without a command, firefox-use runs mcp. Its flags (the other commands take most of them: see their --help):',
    ...flagLines({ name: 'mcp', common: true }),
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === '--version' || argv[0] === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    process.stdout.write(mainHelp() + '\n');
    return 0;
  }
  const named = argv[0] && !argv[0].startsWith('-') ? argv[0] : undefined;
  const commandName = named ?? 'mcp';
  const spec = COMMANDS[commandName];
  if (!spec) {
    const suggestion = closest(commandName, Object.keys(COMMANDS));
    process.stderr.write(`firefox-use: unknown command "${commandName}".${suggestion ? ` Did you mean "${suggestion}"?` : ''}\n${mainHelp()}\n`);
    return 2;
  }
  const parsed = parseCommand(spec, named ? argv.slice(1) : argv);
  if (parsed.flags['help']) {
    process.stdout.write(helpText(spec) + '\n');
    return 0;
  }
  const options = resolveOptions(parsed.flags);
  // From here on a browser may start: a signal must go through the exit hook that kills it (see lifecycle.ts).
  catchSignals();
  // Mistakes in these surface now, not at the first tool call.
  if (options.storageState) (await import('../browser/storage.js')).readStorageState(options.storageState);
  if (options.caps.length || options.tools.length) (await import('../mcp/server.js')).checkToolChoice(options);
  const launch = await import('../browser/launch-prefs.js');
  launch.launchTuning(options);
  if (options.initScript) launch.readInitScript(options.initScript);
  if ((commandName === 'mcp' || commandName === 'serve' || commandName === 'run') && !options.isolated && !options.connect && !options.webdriverUrl) {
    // A profile folder with the user's own user.js is never written: flags that need prefs are refused now.
    const { checkForeignProfile } = await import('../browser/user-js.js');
    const { resolveProfileDir } = await import('../browser/profile.js');
    checkForeignProfile(resolveProfileDir(options.profile), options);
  }
  switch (commandName) {
    case 'mcp': {
      // Firefox starts before the browser layer's modules load (~50 ms) and while the client connects; the first
      // call waits for this launch and gets its failure as its coded error.
      const owned = !options.connect && !options.webdriverUrl;
      const launcher = owned ? await import('../browser/launcher.js') : undefined;
      const spawned = launcher?.launchFirefox(launcher.launchOptionsOf(options));
      spawned?.catch(() => undefined);
      const { BrowserManager } = await import('../browser/manager.js');
      const manager = new BrowserManager(options);
      // Until the MCP server is up (runStdio registers the full shutdown), a signal closes the launching browser.
      onShutdown(() => manager.close());
      manager.prelaunch(spawned).catch((error: unknown) => {
        const hint = isToolError(error) ? `${error.code}: ${error.message}` : String(error);
        process.stderr.write(`firefox-use: Firefox is not ready: ${hint}\n`);
      });
      const { runStdio } = await import('./mcp.js');
      await runStdio(options, manager);
      return -1;
    }
    case 'serve': {
      const { runServe } = await import('./serve.js');
      await runServe(options);
      return -1;
    }
    case 'run': {
      const script = parsed.positionals[0];
      if (parsed.flags['interactive']) {
        const { runInteractive } = await import('./run.js');
        return runInteractive(options);
      }
      if (!script) {
        process.stderr.write('firefox-use run: name a SCRIPT file (or - for stdin).\n');
        return 2;
      }
      const { runScriptCommand } = await import('./run.js');
      return runScriptCommand(script, options, { verbose: Boolean(parsed.flags['verbose']) });
    }
    case 'regress': {
      const config = parsed.positionals[0];
      const workers = Number(parsed.flags['workers'] ?? 1);
      const ci = Boolean(parsed.flags['ci']);
      const flaky = parsed.flags['flaky'] ?? (ci ? 'fail' : 'warn');
      const prefetch = parsed.flags['prefetch'] === undefined ? undefined : Number(parsed.flags['prefetch']);
      const badPrefetch = prefetch !== undefined && (!Number.isInteger(prefetch) || prefetch < 0 || prefetch > 8);
      if (!config || !Number.isInteger(workers) || workers < 1 || (flaky !== 'fail' && flaky !== 'warn') || badPrefetch) {
        const why = !config
          ? 'name a CONFIG file'
          : flaky !== 'fail' && flaky !== 'warn'
            ? '--flaky takes fail or warn'
            : badPrefetch
              ? '--prefetch takes a whole number from 0 to 8'
              : '--workers takes a positive whole number';
        process.stderr.write(`firefox-use regress: ${why}.\n`);
        return 2;
      }
      // Firefox starts while the tools' modules load and CONFIG is parsed (~1 s at load 6); a CONFIG that does not
      // parse closes it unused, and a failed start reaches the first capture as exit 3.
      const { regressManager } = await import('./regress/launch.js');
      const first = existsSync(config) ? regressManager(options) : undefined;
      first?.prelaunch().catch(() => undefined);
      const { runRegress } = await import('./regress/run.js');
      return runRegress(config, options, {
        update: Boolean(parsed.flags['update']),
        ci,
        workers,
        ...(prefetch !== undefined ? { prefetch } : {}),
        flaky,
        verbose: Boolean(parsed.flags['verbose']),
        ...(typeof parsed.flags['baseline-dir'] === 'string' ? { baselineDir: parsed.flags['baseline-dir'] } : {}),
        ...(typeof parsed.flags['report-dir'] === 'string' ? { reportDir: parsed.flags['report-dir'] } : {}),
        ...(typeof parsed.flags['shard'] === 'string' ? { shard: parsed.flags['shard'] } : {}),
        ...(typeof parsed.flags['grep'] === 'string' ? { grep: parsed.flags['grep'] } : {}),
      }, first);
    }
    case 'merge-reports': {
      if (parsed.positionals.length === 0) {
        process.stderr.write('firefox-use merge-reports: name the shard report directories (or report.json files).\n');
        return 2;
      }
      const { mergeReports } = await import('./regress/merge.js');
      return mergeReports(parsed.positionals, typeof parsed.flags['report-dir'] === 'string' ? parsed.flags['report-dir'] : 'firefox-use-report');
    }
    case 'doctor': {
      const { doctor, printDoctor } = await import('./doctor.js');
      const report = doctor(options);
      if (parsed.flags['launch'] && report.ok) {
        const { launchCheck } = await import('./doctor-launch.js');
        report.launch = await launchCheck(options);
        report.ok = report.launch.ok;
      }
      printDoctor(report, Boolean(parsed.flags['json']));
      return report.ok ? 0 : 1;
    }
  }
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    // -1: a server that keeps running until a signal or its client goes away.
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    if (isToolError(error)) process.stderr.write(`firefox-use: ${error.code}: ${error.message}\n`);
    else process.stderr.write(`firefox-use: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(isToolError(error, 'invalid_arguments') ? 2 : 1);
  },
);
