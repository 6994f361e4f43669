import { secretsOf } from '../mcp/secrets.js';
import { chmodSync, closeSync, existsSync, fchmodSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LocalFiles } from './local-files.js';
import { createInterface } from 'node:readline';
import { BrowserManager } from '../browser/manager.js';
import { TabGroup } from '../browser/group/index.js';
import type { ServerOptions } from '../config.js';
import { enabledTools } from '../mcp/server.js';
import { ScriptParseError, parseScript, parseStepLine, type ScriptStep } from './script.js';
import { ScriptRunner, type StepOutcome } from './script-runner.js';
import { startupLine } from './startup-report.js';

/** At a script's end, the longest wait for requests its last steps started, ms. */
const SCRIPT_END_REQUESTS_MS = 2_000;

/** The JSON line of a step: everything but the model-facing text. */
function jsonLine(outcome: StepOutcome): string {
  const { text: _text, ...rest } = outcome;
  return JSON.stringify(rest);
}

function readScript(scriptPath: string): string {
  return scriptPath === '-' ? readFileSync(0, 'utf8') : readFileSync(scriptPath, 'utf8');
}

/** `firefox-use run SCRIPT`: exit 0 when every step passed, 1 when one failed, 2 when the script does not parse. */
export async function runScriptCommand(scriptPath: string, options: ServerOptions, flags: { verbose?: boolean } = {}): Promise<number> {
  const tools = enabledTools(options);
  const name = scriptPath === '-' ? '<stdin>' : scriptPath;
  let steps: ScriptStep[];
  try {
    // A name of --secrets is set too: the server fills it in.
    const secrets = secretsOf(options);
    steps = parseScript(readScript(scriptPath), tools, secrets ? { ...process.env, ...secrets.placeholders() } : true);
  } catch (error) {
    const parse = error instanceof ScriptParseError;
    const message = parse ? `${name}:${error.line}: ${error.reason}` : `${name}: ${(error as Error).message}`;
    process.stderr.write(`firefox-use run: ${message}\n`);
    process.stdout.write(JSON.stringify({ ok: false, error: { code: 'script_invalid', message, ...(parse ? { line: error.line } : {}) } }) + '\n');
    return 2;
  }
  const manager = new BrowserManager(options);
  void manager.prelaunch();
  const group = new TabGroup(manager, { firstTabAhead: true });
  const runner = new ScriptRunner(group, tools, options);
  const localFiles = new LocalFiles();
  runner.localFiles = localFiles;
  // $SCRIPT_DIR: the script's folder as a file:// URL, so a script can open pages shipped next to it.
  runner.scriptDir = pathToFileURL(scriptPath === '-' ? process.cwd() : dirname(resolve(scriptPath))).href;
  runner.saved.set('SCRIPT_DIR', runner.scriptDir);
  const progress = process.stderr.isTTY && steps.length > 1;
  const started = performance.now();
  let firstStepAt: number | null = null;
  try {
    const passed = await runner.runAll(steps, (outcome) => {
      firstStepAt ??= performance.now();
      process.stdout.write(jsonLine(outcome) + '\n');
      if (progress) {
        const state = outcome.ok ? 'ok' : outcome.skipped ? 'skipped' : 'FAILED';
        process.stderr.write(`\r[${outcome.step}/${steps.length}] ${outcome.tool} ${state} ${outcome.ms} ms\x1b[K`);
      }
    });
    if (progress) process.stderr.write('\n');
    const failed = passed ? '' : ' (a step failed; see its "error")';
    process.stderr.write(`firefox-use run: ${steps.length} steps in ${Math.round(performance.now() - started)} ms${failed}\n`);
    if (flags.verbose) process.stderr.write(startupLine('run', manager.lastStartup, firstStepAt));
    return passed ? 0 : 1;
  } finally {
    // The last step's request (a form's fetch on submit) would die with the browser.
    await manager.drainRequests(SCRIPT_END_REQUESTS_MS);
    await group.dispose().catch(() => undefined);
    await manager.close();
    await localFiles.close();
  }
}

function historyPath(): string {
  const dataHome = process.env['XDG_DATA_HOME'] || join(homedir(), '.local', 'share');
  return join(dataHome, 'firefox-use', 'repl_history');
}

/**
 * Makes the history's folder 0700 and the file 0600, also when they exist with wider modes: every typed step is in
 * it, secrets included.
 */
function tightenHistory(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  chmodSync(dirname(path), 0o700);
  if (existsSync(path)) chmodSync(path, 0o600);
}

function appendHistory(path: string, line: string): void {
  const fd = openSync(path, 'a', 0o600);
  try {
    fchmodSync(fd, 0o600);
    writeSync(fd, `${line}\n`);
  } finally {
    closeSync(fd);
  }
}

function loadHistory(path: string): string[] {
  try {
    // readline wants the newest entry first.
    return readFileSync(path, 'utf8').split('\n').filter(Boolean).slice(-500).reverse();
  } catch {
    return [];
  }
}

const REPL_HELP = [
  'One step per line, as in a script: navigate: {url: https://example.com}',
  '  add save/expect in the same mapping: {find: {query: "Log in"}, save: login}',
  '.tools  list the tools    .saved  show saved $NAMES    .exit  leave (or Ctrl-D)',
].join('\n');

/**
 * `firefox-use run --interactive`: a REPL of steps on one session. At a terminal: a prompt, readable outcomes and
 * history kept across runs. Piped: no prompt and no history, one JSON line per step (as `run` prints) or per line
 * that does not parse, and exit 1 if any did fail, so `cmds | firefox-use run --interactive` is scriptable.
 */
export async function runInteractive(options: ServerOptions): Promise<number> {
  const tools = enabledTools(options);
  const manager = new BrowserManager(options);
  const group = new TabGroup(manager);
  const runner = new ScriptRunner(group, tools, options);
  const file = historyPath();
  const terminal = Boolean(process.stdin.isTTY);
  if (terminal) {
    try {
      tightenHistory(file);
    } catch {
      // History is a convenience; a read-only home must not stop the REPL.
    }
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal, history: terminal ? loadHistory(file) : [], historySize: 500, prompt: 'firefox-use> ' });
  // Start Firefox while the user types.
  manager.prelaunch().catch((error: unknown) => process.stderr.write(`firefox-use: Firefox is not ready: ${(error as Error).message}\n`));
  const prompt = () => terminal && rl.prompt();
  if (terminal) process.stdout.write(`${REPL_HELP}\n`);
  prompt();
  let lineNumber = 0;
  let failed = false;
  try {
    for await (const raw of rl) {
      lineNumber++;
      const line = raw.trim();
      if (line && terminal) {
        try {
          appendHistory(file, line);
        } catch {
          // History is a convenience; a read-only home must not stop the REPL.
        }
      }
      if (line === '.exit' || line === '.quit') break;
      if (line === '.help') process.stdout.write(terminal ? `${REPL_HELP}\n` : `${JSON.stringify({ help: REPL_HELP })}\n`);
      else if (line === '.tools') process.stdout.write(terminal ? `${tools.map((tool) => tool.name).join(', ')}\n` : `${JSON.stringify({ tools: tools.map((tool) => tool.name) })}\n`);
      else if (line === '.saved') process.stdout.write(`${JSON.stringify(runner.masked(Object.fromEntries(runner.saved)))}\n`);
      else if (line && !line.startsWith('#')) {
        let step: ScriptStep | null = null;
        try {
          step = parseStepLine(line, tools);
        } catch (error) {
          const reason = error instanceof ScriptParseError ? error.reason : (error as Error).message;
          failed = true;
          process.stdout.write(terminal ? `parse error: ${reason}\n` : `${JSON.stringify({ line: lineNumber, ok: false, error: { code: 'script_invalid', message: reason, line: lineNumber } })}\n`);
        }
        if (step) {
          const outcome = await runner.run({ ...step, line: lineNumber });
          if (!outcome.ok) failed = true;
          if (!terminal) process.stdout.write(`${jsonLine(outcome)}\n`);
          else {
            process.stdout.write(`${outcome.ok ? 'ok' : 'FAILED'} ${outcome.tool} ${outcome.ms} ms${outcome.images ? ` → ${outcome.images.join(', ')}` : ''}\n`);
            const failure = outcome.ok ? '' : `${JSON.stringify(outcome.error)}\n`;
            process.stdout.write(failure || `${outcome.text ?? ''}\n`);
          }
        }
      }
      prompt();
    }
  } finally {
    rl.close();
    await manager.drainRequests(SCRIPT_END_REQUESTS_MS);
    await group.dispose().catch(() => undefined);
    await manager.close();
  }
  return !terminal && failed ? 1 : 0;
}
