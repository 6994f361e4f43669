// Starts `firefox-use serve` as a child process and connects MCP clients to it over Streamable HTTP.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CLI } from './mcp-client.mjs';
import { alive, trackPid, waitFor } from './processes.mjs';

export async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Pids of the Firefox processes whose parent is `pid` (the server starts exactly one main process). */
export function firefoxChildren(pid) {
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== pid || /\) Z /.test(stat)) continue;
      if (/firefox/.test(readFileSync(`/proc/${entry}/cmdline`, 'utf8'))) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Spawns `firefox-use serve` on a free port; resolves once it listens. */
export async function startServe({ args = ['--isolated'], env = {}, host = '127.0.0.1' } = {}) {
  const port = await freePort();
  const outputDir = mkdtempSync(join(tmpdir(), 'fu-out-'));
  const child = spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--host', host, '--output-dir', outputDir, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  trackPid(child.pid);
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const listening = await Promise.race([waitFor(() => stderr.includes('/mcp'), 15_000), exited.then(() => false)]);
  if (!listening) throw new Error(`serve did not start:\n${stderr}`);
  const url = `http://127.0.0.1:${port}/mcp`;
  const clients = [];
  return {
    port,
    url,
    outputDir,
    child,
    exited,
    get stderr() {
      return stderr;
    },
    /** The Firefox main process this server started (waits for the launch). */
    async firefoxPid() {
      const pids = await waitFor(() => (firefoxChildren(child.pid).length ? firefoxChildren(child.pid) : null), 20_000);
      return pids?.[0];
    },
    async connect(options = {}) {
      const client = new Client({ name: 'firefox-use-tests', version: '0.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(url), options);
      await client.connect(transport);
      const call = (name, toolArgs = {}) => client.callTool({ name, arguments: toolArgs });
      const wrapper = {
        client,
        transport,
        call,
        async ok(name, toolArgs = {}) {
          const result = await call(name, toolArgs);
          if (result.isError) throw new Error(`${name} failed: ${result.content.map((c) => c.text).join('\n')}`);
          return result;
        },
        text: (result) => result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n'),
        /** Ends the MCP session the way a polite client does: DELETE, then close. */
        async end() {
          await transport.terminateSession().catch(() => undefined);
          await client.close().catch(() => undefined);
        },
      };
      clients.push(wrapper);
      return wrapper;
    },
    async stop(signal = 'SIGTERM') {
      for (const c of clients) await c.client.close().catch(() => undefined);
      if (alive(child.pid)) child.kill(signal);
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (alive(child.pid)) child.kill('SIGKILL');
      return exited;
    },
  };
}
