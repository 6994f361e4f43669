// Several agents on one machine, one profile: each `firefox-use mcp` on a profile (not --isolated, --connect or
// --webdriver-url) is a thin stdio bridge to one per-profile daemon, `firefox-use serve` on loopback, that owns the
// Firefox; each bridge is an MCP session of its own there (its own tab group). The first bridge starts the daemon
// (starts are serialized by a lock file); the daemon exits a short while after its last session ended. Only this OS
// user reaches it: its port and token sit in a 0700 folder, the token file 0600.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { processAlive, resolveProfileDir } from '../browser/launch/index.js';
import { FLAGS, type ServerOptions } from '../config.js';
import { ToolError } from '../errors.js';
import { LineStdioTransport } from '../mcp/stdio.js';
import { onShutdown } from './lifecycle.js';
import { startLiveProxy } from './live-server.js';

/** What a daemon writes once it listens: where to reach it, and the options it was started with. */
export interface DaemonInfo {
  pid: number;
  port: number;
  /** A hash of the options: a bridge started with other flags must not take a browser set up differently. */
  options: string;
}

const START_TIMEOUT_MS = 30_000;
const LOCK_WAIT_MS = 60_000;

/** Whether `mcp` shares the profile's browser through a daemon (the default for a profile it would otherwise lock). */
export function sharesBrowser(options: ServerOptions): boolean {
  return !options.isolated && !options.connect && !options.webdriverUrl && !options.exclusive;
}

function daemonDir(): string {
  const runtime = process.env['XDG_RUNTIME_DIR'];
  const base = runtime ? join(runtime, 'firefox-use') : join(process.env['XDG_DATA_HOME'] || join(homedir(), '.local', 'share'), 'firefox-use', 'run');
  mkdirSync(base, { recursive: true, mode: 0o700 });
  return base;
}

/** The daemon's files for a profile folder. */
function daemonFiles(profileDir: string): { info: string; lock: string; token: string; log: string } {
  const key = createHash('sha256').update(profileDir).digest('hex').slice(0, 16);
  const dir = daemonDir();
  return { info: join(dir, `${key}.json`), lock: join(dir, `${key}.lock`), token: join(dir, `${key}.token`), log: join(dir, `${key}.log`) };
}

/**
 * The options each agent's session keeps for itself on a shared browser: its output dir and upload roots, and what only
 * a session reads (its tools, screenshots, tab cap, scripts). The bridge sends them with its initialize.
 */
export const SESSION_KEYS: ReadonlySet<string> = new Set([
  'outputDir',
  'uploadRoots',
  ...FLAGS.filter((spec) => !spec.commands.includes('doctor') && spec.commands.includes('mcp')).map((spec) => spec.key),
]);

/** What makes two starts the same browser: every resolved option but the ones each session keeps for itself. */
function optionsHash(options: ServerOptions): string {
  const browserLevel = Object.entries(options).filter(([key]) => !SESSION_KEYS.has(key));
  return createHash('sha256').update(JSON.stringify(browserLevel)).digest('hex').slice(0, 16);
}

/** This bridge's session options, as the header the daemon reads them from. */
function sessionHeader(options: ServerOptions): string {
  const own = Object.fromEntries(Object.entries(options).filter(([key]) => SESSION_KEYS.has(key)));
  return Buffer.from(JSON.stringify(own)).toString('base64url');
}

function readInfo(path: string): DaemonInfo | null {
  try {
    const info = JSON.parse(readFileSync(path, 'utf8')) as DaemonInfo;
    return typeof info.pid === 'number' && typeof info.port === 'number' && processAlive(info.pid) ? info : null;
  } catch {
    return null;
  }
}

function safeSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Takes the lock file (O_EXCL); one left by a process that died is taken over. Returns the release. */
async function lock(path: string): Promise<() => void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    // Made whole beside it, then linked in: a lock is never seen empty (and so taken for a dead one's).
    const mine = `${path}.${process.pid}`;
    writeFileSync(mine, String(process.pid), { mode: 0o600 });
    try {
      linkSync(mine, path);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(mine, { force: true });
    }
    let holder: number;
    try {
      holder = Number(readFileSync(path, 'utf8').trim());
    } catch {
      continue; // released meanwhile
    }
    if (!Number.isInteger(holder) || !processAlive(holder)) rmSync(path, { force: true });
    else if (Date.now() > deadline) throw new ToolError('profile_locked', `Another firefox-use (pid ${holder}) has been starting this profile's browser for a minute.`);
    else await sleep(50);
  }
}

/** Starts the daemon for the profile, detached, and waits until it listens. */
async function startDaemon(files: ReturnType<typeof daemonFiles>, argv: string[], hash: string): Promise<DaemonInfo> {
  writeFileSync(files.token, randomBytes(24).toString('hex'), { mode: 0o600 });
  rmSync(files.info, { force: true });
  const log = openSync(files.log, 'w', 0o600);
  // The CLI this process runs (the bundle's chunks live beside it, so import.meta.url would not name it).
  const cli = process.argv[1]!;
  const child = spawn(
    process.execPath,
    [cli, 'serve', ...argv, '--host', '127.0.0.1', '--token-file', files.token, '--daemon-file', files.info, '--daemon-options', hash],
    { detached: true, stdio: ['ignore', 'ignore', log] },
  );
  closeSync(log);
  child.unref();
  // Read in the loop below, set by the event: an object, so the read is not narrowed to its first value.
  const started = { exited: null as number | null };
  child.once('exit', (code) => (started.exited = code ?? 1));
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const info = readInfo(files.info);
    if (info) return info;
    if (started.exited !== null || Date.now() > deadline) {
      const said = readFileSync(files.log, 'utf8').trim().split('\n').slice(-3).join(' ');
      throw new ToolError('launch_failed', `The shared browser of this profile did not start${started.exited !== null ? ` (exit ${started.exited})` : ''}: ${said || 'no output'}`);
    }
    await sleep(25);
  }
}

/** What the daemon's log says of one session or of how to reach it: not for the agents on it. */
const DAEMON_OWN_LINE = /^firefox-use: (closed MCP session|MCP over Streamable HTTP at) /;

/**
 * Passes the daemon's log on to this bridge's stderr from `from` (a byte offset): what the browser says (a profile's
 * own user.js kept, downloads left to Firefox) reaches the agent's client as it would without sharing.
 */
function relayLog(path: string, from: number): () => void {
  let offset = from;
  let partial = '';
  const timer = setInterval(() => {
    let fd: number;
    try {
      if (statSync(path).size <= offset) return;
      fd = openSync(path, 'r');
    } catch {
      return;
    }
    try {
      const chunk = Buffer.alloc(64 * 1024);
      const read = readSync(fd, chunk, 0, chunk.length, offset);
      offset += read;
      const lines = (partial + chunk.subarray(0, read).toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      const shown = lines.filter((line) => !DAEMON_OWN_LINE.test(line));
      if (shown.length) process.stderr.write(`${shown.join('\n')}\n`);
    } finally {
      closeSync(fd);
    }
  }, 200);
  timer.unref();
  return () => clearInterval(timer);
}

/** The profile's daemon: the running one, or one started now. */
async function daemonFor(options: ServerOptions, argv: string[]): Promise<{ info: DaemonInfo; token: string; log: string; started: boolean }> {
  const files = daemonFiles(resolveProfileDir(options.profile));
  const hash = optionsHash(options);
  const release = await lock(files.lock);
  try {
    let info = readInfo(files.info);
    if (info && info.options !== hash) {
      throw new ToolError(
        'profile_locked',
        `This profile's browser is shared by another agent's firefox-use (pid ${info.pid}) started with other flags. Start with the same flags to share it, or with --isolated or another --profile.`,
        { profile: resolveProfileDir(options.profile) },
      );
    }
    const started = !info;
    info ??= await startDaemon(files, argv, hash);
    return { info, token: readFileSync(files.token, 'utf8').trim(), log: files.log, started };
  } finally {
    release();
  }
}

/** `firefox-use mcp` on a shared profile: stdio in and out, each message passed to and from this session on the daemon. */
export async function runSharedStdio(options: ServerOptions, argv: string[]): Promise<boolean> {
  let daemon: Awaited<ReturnType<typeof daemonFor>>;
  try {
    daemon = await daemonFor(options, argv);
  } catch (error) {
    // This process then owns the browser itself, and its calls give the launch's own coded error if it fails too.
    process.stderr.write(`firefox-use: could not share this profile's browser: ${(error as Error).message}\n`);
    return false;
  }
  const { info, token } = daemon;
  process.stderr.write(
    `firefox-use: ${daemon.started ? 'started' : 'joined'} this profile's shared browser (pid ${info.pid}, log ${daemon.log}); other agents on the profile use it too, each with its own tabs (--exclusive to own it alone)\n`,
  );
  const stopRelay = relayLog(daemon.log, daemon.started ? 0 : safeSize(daemon.log));
  // --live-port: the daemon's live view, on this port without its token (loopback only).
  const liveProxy = options.livePort === undefined ? null : await startLiveProxy(options.livePort, info.port, token);
  if (liveProxy) process.stderr.write(`firefox-use: live view of the shared browser's sessions at ${liveProxy.origin}/live (this one is "mcp pid ${process.pid}")\n`);
  const remote = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${info.port}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}`, 'x-firefox-use-session': sessionHeader(options), 'x-firefox-use-pid': String(process.pid) } },
  });
  const local = new LineStdioTransport();
  let ended = false;
  const end = async (): Promise<void> => {
    if (ended) return;
    ended = true;
    stopRelay();
    liveProxy?.close();
    // The daemon closes this session's tabs at once rather than when it idles out.
    await remote.terminateSession().catch(() => undefined);
    await remote.close().catch(() => undefined);
  };
  const exit = onShutdown(end, { stdinClose: true });
  local.onmessage = (message: JSONRPCMessage) => {
    remote.send(message).catch((error: unknown) => {
      // The daemon went away (killed, crashed): the request is answered, not left hanging.
      if (isJSONRPCRequest(message)) {
        const reply: JSONRPCMessage = { jsonrpc: '2.0', id: message.id, error: { code: -32000, message: `browser_crashed: the shared browser of this profile is gone: ${(error as Error).message}` } };
        void local.send(reply);
      }
    });
  };
  remote.onmessage = (message) => void local.send(message);
  local.onclose = () => void exit(0);
  await remote.start();
  await local.start();
  return true;
}
