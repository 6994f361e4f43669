import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { BrowserManager } from '../browser/manager.js';
import type { ServerOptions } from '../config.js';
import { ToolError } from '../errors.js';
import { createMcpServer } from '../mcp/server.js';
import { Session } from '../mcp/session.js';
import { TabGroup } from '../browser/group/index.js';
import { processAlive } from '../browser/launch/index.js';
import { onShutdown } from './lifecycle.js';
import { DaemonLife, bridgeSessionOptions } from './shared-daemon.js';
import { isLoopbackHost, requestGuard } from './http-guard.js';
import { LiveHub } from '../mcp/live/hub.js';

interface Live {
  transport: StreamableHTTPServerTransport;
  session: Session;
  /** Date.now() of the end of the last request on the session: idle ones are closed. */
  lastSeen: number;
  /** Calls (POSTs) being answered: the session is not idle meanwhile. */
  busy: number;
  /** Whether it has called a tool: a bare initialize holds a slot briefly and is the first to give it up. */
  called: boolean;
  startedAt: number;
  /** On a profile's shared browser: the pid of the mcp bridge of this session; its session ends when it dies. */
  bridgePid?: number;
  /** Closes the session's tabs, and the browser session of its own if it has one (a remote endpoint's). */
  release: () => Promise<void>;
}

/**
 * How long a session that has called no tool keeps its slot. Initializes cost nothing to send, so without this a
 * client could hold every --max-sessions slot with bare ones until --session-idle-seconds.
 */
const BARE_SESSION_MS = 30_000;

function callsATool(body: unknown): boolean {
  const messages = Array.isArray(body) ? (body as unknown[]) : [body];
  return messages.some((message) => !!message && typeof message === 'object' && (message as { method?: unknown }).method === 'tools/call');
}

function send(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 8 * 1024 * 1024) throw new Error('request body over 8 MiB');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

function readToken(path: string): string {
  let token: string;
  try {
    token = readFileSync(path, 'utf8').trim();
  } catch (error) {
    throw new ToolError('invalid_arguments', `--token-file ${path}: ${(error as Error).message}`, { field: 'token-file' });
  }
  if (!token) throw new ToolError('invalid_arguments', `--token-file ${path} is empty.`, { field: 'token-file' });
  return token;
}

/**
 * A session with storage of its own also gets a folder of its own in the output dir, for its downloads and saved
 * screenshots, and its file tools read from it instead of the whole output dir: no session sees another's files.
 */
function privateOutput(options: ServerOptions, own: string): ServerOptions {
  return { ...options, outputDir: own, uploadRoots: options.uploadRoots.map((root) => (root === options.outputDir ? own : root)) };
}

/** `firefox-use serve`: MCP over Streamable HTTP at /mcp, each MCP session with its own tab group in one browser. */
export async function runServe(options: ServerOptions): Promise<void> {
  // A profile's shared browser (started by `mcp`) takes any free port: the bridges read it from the daemon file.
  const daemon = options.daemonFile ? new DaemonLife(options.daemonFile, options.daemonOptions ?? '') : null;
  const port = daemon ? 0 : options.port;
  if (options.tokenFile) options = { ...options, token: readToken(options.tokenFile) };
  const loopbackBind = isLoopbackHost(options.host);
  if (!loopbackBind && !options.token) {
    throw new ToolError('invalid_arguments', `--host ${options.host} is not loopback: set --token (or FIREFOX_USE_TOKEN) so only your clients can drive the browser.`, {
      field: 'token',
    });
  }
  // On a remote endpoint (a Selenium Grid) each MCP session gets a browser session of its own, created at its first
  // call and deleted with it, so the Grid spreads them over its nodes; a local Firefox is shared, a group per session.
  const perSessionBrowser = Boolean(options.webdriverUrl);
  const manager = perSessionBrowser ? null : new BrowserManager(options);
  const live = new Map<string, Live>();
  /** Initializes being answered: they count against --max-sessions too. */
  let initializing = 0;
  // Idle sessions are closed (tabs, user context, the transport): a client that went away frees its share.
  const idleMs = options.sessionIdleSeconds * 1000;
  const end = (id: string, entry: Live, why: string): void => {
    live.delete(id);
    process.stderr.write(`firefox-use: closed MCP session ${id}: ${why}\n`);
    void entry.transport.close().catch(() => undefined);
    void entry.release();
    daemon?.sessions(live.size + initializing);
  };
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, entry] of live) {
      if (entry.bridgePid !== undefined && !processAlive(entry.bridgePid)) end(id, entry, `its mcp bridge (pid ${entry.bridgePid}) is gone`);
      else if (entry.busy > 0) continue;
      else if (now - entry.lastSeen >= idleMs) end(id, entry, `idle for ${options.sessionIdleSeconds} s (--session-idle-seconds)`);
      else if (!entry.called && now - entry.startedAt >= BARE_SESSION_MS) end(id, entry, `no tool call in ${BARE_SESSION_MS / 1000} s`);
    }
  }, Math.min(10_000, Math.max(1_000, idleMs / 4)));
  sweep.unref();
  const authorized = requestGuard(loopbackBind, options.token);
  // The live view of every session (/live): the same Host, Origin and token rules as /mcp.
  const liveHub = new LiveHub();

  const http = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (LiveHub.owns(url.pathname)) {
        const refused = authorized(req, { queryToken: url.searchParams.get('token') });
        if (refused) return send(res, 403, refused);
        return await liveHub.handle(req, res, url);
      }
      if (url.pathname !== '/mcp') return send(res, 404, 'Not found: the MCP endpoint is /mcp (and the live view /live).');
      const refusal = authorized(req);
      if (refusal) return send(res, 403, refusal);
      const sessionId = req.headers['mcp-session-id'];
      const body = req.method === 'POST' ? await readBody(req) : undefined;
      const existing = typeof sessionId === 'string' ? live.get(sessionId) : undefined;
      if (existing) {
        // A session with a call under way is not idle, however long it takes. (An open GET event stream is not a
        // call: a client that holds one and sends nothing is idle.)
        const call = req.method === 'POST' ? 1 : 0;
        if (call && callsATool(body)) existing.called = true;
        existing.busy += call;
        existing.lastSeen = Date.now();
        try {
          return await existing.transport.handleRequest(req, res, body);
        } finally {
          existing.busy -= call;
          if (call) existing.lastSeen = Date.now();
        }
      }
      if (sessionId) return send(res, 404, 'Unknown or ended MCP session (closed, or idle too long); initialize a new one.');
      if (req.method !== 'POST' || !isInitializeRequest(body)) return send(res, 400, 'No MCP session: send an initialize request first.');
      if (live.size + initializing >= options.maxSessions) {
        // A full server gives the slot of the oldest session that never called a tool (it holds nothing) to a new one.
        const bare = [...live].filter(([, entry]) => !entry.called && entry.busy === 0).sort(([, a], [, b]) => a.startedAt - b.startedAt)[0];
        if (bare) end(bare[0], bare[1], 'its slot went to a new session (--max-sessions reached, and it had called no tool)');
      }
      if (live.size + initializing >= options.maxSessions) {
        return send(res, 503, `The server already has ${options.maxSessions} MCP sessions, its limit (--max-sessions). End one (DELETE /mcp) or try again later.`);
      }
      // A profile's shared browser gives each agent the profile's cookies unless its bridge asks for its own, and
      // the output dir and session options the agent started with.
      const asked = daemon ? bridgeSessionOptions(options, req.headers) : options;
      const ownStorage = daemon ? asked.ownStorage : !options.sharedBrowserContext && !perSessionBrowser;
      // (An agent on a shared browser has an output dir of its own already.)
      const own = daemon ? (ownStorage ? asked.outputDir : undefined) : options.sharedBrowserContext ? undefined : join(asked.outputDir, 'sessions', randomUUID());
      const bridgePid = daemon ? Number(req.headers['x-firefox-use-pid']) : NaN;
      const sessionOptions = own && !daemon ? privateOutput(asked, own) : asked;
      const browsers = manager ?? new BrowserManager(sessionOptions);
      const session = new Session(new TabGroup(browsers, { ownStorage, ...(own && ownStorage ? { downloadDir: own } : {}) }));
      let released: Promise<void> | null = null;
      const release = (): Promise<void> =>
        (released ??= (async () => {
          // Its trace's last pictures and write, while its tabs are still open.
          await session.trace?.flush();
          await session.close();
          if (browsers !== manager) await browsers.close();
        })());
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          live.set(id, { transport, session, release, lastSeen: Date.now(), busy: 0, called: false, startedAt: Date.now(), ...(Number.isInteger(bridgePid) ? { bridgePid } : {}) });
          daemon?.sessions(live.size);
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) live.delete(transport.sessionId);
        void release();
        daemon?.sessions(live.size + initializing);
      };
      // A shared browser's bridge with --live-port serves this hub on its own port: the hand-off names that one.
      const bridgeLive = daemon && asked.livePort !== undefined ? `http://127.0.0.1:${asked.livePort}` : undefined;
      const label = Number.isInteger(bridgePid) ? `mcp pid ${bridgePid}` : `HTTP session from ${new Date().toISOString().slice(11, 19)} UTC`;
      // A bridge without --live-port has no view a person could open (the daemon's port takes its token): like stdio
      // without the flag, it gets none, and no request_human.
      const liveView = daemon && !bridgeLive ? undefined : { hub: liveHub, label, ...(bridgeLive ? { origin: bridgeLive } : {}) };
      const server = createMcpServer(session, sessionOptions, liveView);
      initializing++;
      try {
        await server.connect(transport);
        await transport.handleRequest(req, res, body);
      } finally {
        initializing--;
        // A rejected initialize (bad version, bad params) made no session: free what was allocated for it.
        if (!transport.sessionId || !live.has(transport.sessionId)) {
          await server.close().catch(() => undefined);
          await release();
        }
      }
    })().catch((error: unknown) => {
      if (!res.headersSent) send(res, 400, (error as Error).message);
    });
  });

  const exit = onShutdown(async () => {
    daemon?.remove();
    clearInterval(sweep);
    http.close();
    const open = [...live.values()];
    await Promise.all(open.map(({ transport }) => transport.close().catch(() => undefined)));
    await Promise.all(open.map(({ session }) => session.recorder?.flush() ?? Promise.resolve()));
    await Promise.all(open.map(({ session }) => session.trace?.flush() ?? Promise.resolve()));
    await Promise.all(open.map(({ release }) => release()));
    liveHub.close();
    await manager?.close();
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, options.host, () => resolve());
  });
  const address = http.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  const origin = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${boundPort}`;
  liveHub.origin = origin;
  process.stderr.write(`firefox-use: MCP over Streamable HTTP at ${origin}/mcp (live view: ${origin}/live)\n`);
  daemon?.listening(boundPort, () => void exit(0));
  manager?.prelaunch().catch((error: unknown) => process.stderr.write(`firefox-use: Firefox is not ready: ${(error as Error).message}\n`));
}
