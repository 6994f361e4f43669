// One MCP server under test, spawned over stdio and driven by the SDK's client: the same client for every server.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readFileSync } from 'node:fs';
import { descendants } from './procs.mjs';
import { now } from './stats.mjs';

/** Characters a model would read from a tool result: its text blocks (images are counted apart, in bytes). */
export function replySize(result) {
  let chars = 0;
  let imageBytes = 0;
  for (const block of result?.content ?? []) {
    if (block.type === 'text') chars += block.text.length;
    else if (block.type === 'image') imageBytes += Math.floor((block.data.length * 3) / 4);
  }
  return { chars, imageBytes };
}

export const textOf = (result) => (result?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');

export class McpServer {
  constructor(name, spec) {
    this.name = name;
    this.spec = spec;
    this.stderr = '';
    this.calls = 0;
  }

  /** Spawns the server and completes the MCP handshake; resolves with the elapsed ms. */
  async start() {
    const started = now();
    this.transport = new StdioClientTransport({
      command: this.spec.command,
      args: this.spec.args,
      env: { ...process.env, ...(this.spec.env ?? {}) },
      cwd: this.spec.cwd,
      stderr: 'pipe',
    });
    this.transport.stderr?.on('data', (chunk) => {
      this.stderr = (this.stderr + chunk).slice(-20_000);
    });
    this.client = new Client({ name: 'firefox-use-bench', version: '1.0.0' });
    await this.client.connect(this.transport);
    this.pid = this.transport.pid;
    this.tools = new Map((await this.client.listTools()).tools.map((tool) => [tool.name, tool]));
    return now() - started;
  }

  has(tool) {
    return this.tools?.has(tool) ?? false;
  }

  /** Calls a tool; returns { result, ms, chars, imageBytes, error }. Never throws for a tool-level error. */
  async call(name, args = {}, { timeout = 120_000 } = {}) {
    this.calls++;
    const started = now();
    let result;
    try {
      result = await this.client.callTool({ name, arguments: args }, undefined, { timeout });
    } catch (error) {
      return { result: null, ms: now() - started, chars: 0, imageBytes: 0, error: error.message };
    }
    const ms = now() - started;
    const size = replySize(result);
    return { result, ms, ...size, error: result.isError ? textOf(result).split('\n')[0] : null };
  }

  /** Closes the client, then makes sure nothing the server started is left running (SIGKILL after 5 s). */
  async close() {
    const pid = this.pid;
    const tree = pid ? [pid, ...descendants(pid)] : [];
    await this.client?.close().catch(() => undefined);
    const alive = (p) => {
      try {
        process.kill(p, 0);
        return !/\) Z /.test(readFileSync(`/proc/${p}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    const deadline = Date.now() + 5_000;
    while (tree.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    for (const p of tree.filter(alive)) {
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        /* gone meanwhile */
      }
    }
  }
}
