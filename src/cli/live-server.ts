// `firefox-use mcp --live-port N`: the stdio session's live view on http://127.0.0.1:N/live, loopback only (the same
// Host and Origin rules as serve's loopback bind; a stdio server takes no token, so it never leaves the machine).
import { createServer, type Server } from 'node:http';
import { ToolError } from '../errors.js';
import { LiveHub } from '../mcp/live/hub.js';
import { requestGuard } from './http-guard.js';

export interface LiveServer {
  hub: LiveHub;
  close(): void;
}

export async function startLiveServer(port: number): Promise<LiveServer> {
  const hub = new LiveHub();
  const guard = requestGuard(true, undefined);
  const http: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const refused = guard(req);
    if (refused) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end(refused);
      return;
    }
    if (url.pathname === '/') {
      res.writeHead(302, { location: '/live' }).end();
      return;
    }
    if (!LiveHub.owns(url.pathname)) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: the live view is /live.');
      return;
    }
    hub.handle(req, res, url).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end((error as Error).message);
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', (error: NodeJS.ErrnoException) =>
      reject(new ToolError('invalid_arguments', `--live-port ${port}: ${error.code === 'EADDRINUSE' ? 'the port is in use' : error.message}.`, { field: 'live-port' })),
    );
    http.listen(port, '127.0.0.1', () => resolve());
  });
  const address = http.address();
  hub.origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
  return {
    hub,
    close: () => {
      hub.close();
      http.closeAllConnections();
      http.close();
    },
  };
}
