#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { resolveOptions } from '../config.js';
import { isToolError } from '../errors.js';
import { VERSION } from '../version.js';
import { closest, flagLines, helpText, parseCommand } from './args.js';
import { COMMANDS } from './commands.js';
import { catchSignals, onShutdown } from './lifecycle.js';

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
  for (const note of parsed.notes) process.stderr.write(`firefox-use ${spec.name}: ${note}\n`);
  if (parsed.flags['help']) {
    process.stdout.write(helpText(spec) + '\n');
    return 0;
  }
  const options = resolveOptions(parsed.flags);
  // From here on a browser may start: a signal must go through the exit hook that kills it (see lifecycle.ts).
  catchSignals();
  // Mistakes in these surface now, not at the first tool call.
  if (options.storageState) (await import('../browser/group/index.js')).readStorageState(options.storageState);
  if (options.secrets) (await import('../mcp/secrets.js')).secretsOf(options);
  if (options.caps.length || options.tools.length) (await import('../mcp/server.js')).checkToolChoice(options);
  // --confirm-actions asks a person through an MCP client: run and regress have none (its variable means nothing there).
  if (commandName !== 'mcp' && commandName !== 'serve') options.confirmActions = [];
  if (options.confirmActions.length) (await import('../tools/confirm-policy.js')).parseConfirmKinds(options.confirmActions);
  const launch = await import('../browser/launch/index.js');
  launch.launchTuning(options);
  if (options.initScript) launch.readInitScript(options.initScript);
  if ((commandName === 'mcp' || commandName === 'serve' || commandName === 'run') && !options.isolated && !options.connect && !options.webdriverUrl) {
    // A profile folder with the user's own user.js is never written: flags that need prefs are refused now.
    const { checkForeignProfile } = await import('../browser/launch/index.js');
    const { resolveProfileDir } = await import('../browser/launch/index.js');
    checkForeignProfile(resolveProfileDir(options.profile), options);
  }
  switch (commandName) {
    case 'mcp': {
      const shared = await import('./shared.js');
      // Other agents may use this profile too: its browser is a daemon's, and this process a bridge to it.
      if (shared.sharesBrowser(options) && (await shared.runSharedStdio(options, named ? argv.slice(1) : argv))) return -1;
      // Firefox starts before the browser layer's modules load (~50 ms) and while the client connects; the first
      // call waits for this launch and gets its failure as its coded error.
      const owned = !options.connect && !options.webdriverUrl;
      const launcher = owned ? await import('../browser/launch/index.js') : undefined;
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
    case 'show-trace': {
      const file = parsed.positionals[0];
      if (!file) {
        process.stderr.write('firefox-use show-trace: name a trace FILE (a trace-*.html that --save-trace wrote).\n');
        return 2;
      }
      const { showTrace } = await import('./show-trace.js');
      await showTrace(file, options.outputDir, parsed.flags['port'] === undefined ? 0 : options.port);
      return -1;
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
