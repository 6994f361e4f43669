import type { BrowserManager } from '../browser/manager.js';
import type { ServerOptions } from '../config.js';
import { createMcpServer } from '../mcp/server.js';
import { Session } from '../mcp/session.js';
import { TabGroup } from '../browser/group/index.js';
import { LineStdioTransport } from '../mcp/stdio.js';
import { onShutdown } from './lifecycle.js';
import { startLiveServer } from './live-server.js';

/** `firefox-use mcp`: one MCP session over stdio, one owned Firefox (already launching: see main.ts). */
export async function runStdio(options: ServerOptions, manager: BrowserManager): Promise<void> {
  const session = new Session(new TabGroup(manager, { firstTabAhead: true }));
  // --live-port: the session's live view (and request_human's hand-off) on loopback; nothing is captured until someone opens it.
  const live = options.livePort === undefined ? null : await startLiveServer(options.livePort);
  const server = createMcpServer(session, options, live ? { hub: live.hub, label: 'stdio session' } : undefined);
  if (live) process.stderr.write(`firefox-use: live view of this session at ${session.liveUrl(0)} (all sessions: ${live.hub.origin}/live)\n`);
  const exit = onShutdown(
    async () => {
      await server.close().catch(() => undefined);
      await session.recorder?.flush();
      await session.trace?.flush();
      live?.close();
      await manager.close();
    },
    { stdinClose: true },
  );
  server.onclose = () => void exit(0);
  await server.connect(new LineStdioTransport());
}
