// Starts the real server (dist/cli/main.js) over stdio and talks to it with the MCP SDK client.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { trackPid } from './processes.mjs';

export const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** A connected client; `args` are extra CLI flags (default: an isolated profile). */
export async function startServer({ args = ['--isolated'], env = {}, cwd } = {}) {
  const outputDir = mkdtempSync(join(tmpdir(), 'fu-out-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--output-dir', outputDir, ...args],
    env: { ...process.env, ...env },
    ...(cwd ? { cwd } : {}),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => (stderr += chunk));
  const client = new Client({ name: 'firefox-use-tests', version: '0.0.0' });
  await client.connect(transport);
  if (transport.pid) trackPid(transport.pid);
  const call = async (name, args = {}) => client.callTool({ name, arguments: args });
  return {
    client,
    transport,
    outputDir,
    call,
    /** Calls a tool and fails the test when it returns an error. */
    async ok(name, args = {}) {
      const result = await call(name, args);
      // The server's stderr says what it saw (Firefox's own messages among them): a failure in CI keeps its tail.
      if (result.isError) throw new Error(`${name} failed: ${result.content.map((c) => c.text).join('\n')}${stderr ? `\n--- server stderr (tail):\n${stderr.slice(-1500)}` : ''}`);
      return result;
    },
    text: (result) => result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n'),
    get stderr() {
      return stderr;
    },
    pid: () => transport.pid,
    async close() {
      await client.close().catch(() => undefined);
    },
  };
}

/** Runs the CLI with `args`; resolves with its exit code and output. */
export function cli(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Opens a tab (createIfEmpty) and returns its id. */
export async function firstTab(server) {
  const result = await server.ok('tabs_context_mcp', { createIfEmpty: true });
  return result.structuredContent.tabs[0].tabId;
}
