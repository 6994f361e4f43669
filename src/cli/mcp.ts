import type { BrowserManager } from '../browser/manager.js';
import type { ServerOptions } from '../config.js';
import { createMcpServer } from '../mcp/server.js';
import { Session } from '../mcp/session.js';
import { TabGroup } from '../browser/group/index.js';
import { LineStdioTransport } from '../mcp/stdio.js';
import { onShutdown } from './lifecycle.js';

/** `firefox-use mcp`: one MCP session over stdio, one owned Firefox (already launching: see main.ts). */
export async function runStdio(options: ServerOptions, manager: BrowserManager): Promise<void> {
  const session = new Session(new TabGroup(manager, { firstTabAhead: true }));
  const server = createMcpServer(session, options);
  const exit = onShutdown(
    async () => {
      await server.close().catch(() => undefined);
      await session.recorder?.flush();
      await session.trace?.flush();
      await manager.close();
    },
    { stdinClose: true },
  );
  server.onclose = () => void exit(0);
  await server.connect(new LineStdioTransport());
}
