import { BrowserManager } from '../browser/manager.js';
import type { ServerOptions } from '../config.js';
import { isToolError } from '../errors.js';
import { createMcpServer } from '../mcp/server.js';
import { Session } from '../mcp/session.js';
import { LineStdioTransport } from '../mcp/stdio.js';
import { onShutdown } from './lifecycle.js';

/** `firefox-use mcp`: one MCP session over stdio, one owned Firefox. */
export async function runStdio(options: ServerOptions): Promise<void> {
  const manager = new BrowserManager(options);
  const session = new Session(manager);
  const server = createMcpServer(session, options);
  const exit = onShutdown(
    async () => {
      await server.close().catch(() => undefined);
      await manager.close();
    },
    { stdinClose: true },
  );
  server.onclose = () => void exit(0);
  await server.connect(new LineStdioTransport());
  // Start Firefox now so the first call does not pay for it; a failure is reported by the first call instead.
  manager.get().catch((error: unknown) => {
    const hint = isToolError(error) ? `${error.code}: ${error.message}` : String(error);
    process.stderr.write(`firefox-use: Firefox is not ready: ${hint}\n`);
  });
}
