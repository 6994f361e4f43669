// `firefox-use mcp --live-port N`: the stdio session's live view on http://127.0.0.1:N/live, loopback only (the same
// Host and Origin rules as serve's loopback bind; a stdio server takes no token, so it never leaves the machine).
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ToolError } from '../errors.js';
import { LiveHub } from '../mcp/live/hub.js';
import { requestGuard } from './http-guard.js';

export interface LiveServer {
  hub: LiveHub;
  close(): void;
}

/** Serves `live` (its /live paths) on 127.0.0.1:port, behind the loopback Host and Origin checks. */
async function listenLoopback(port: number, live: (req: IncomingMessage, res: ServerResponse, url: URL) => void): Promise<{ http: Server; origin: string }> {
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
    live(req, res, url);
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', (error: NodeJS.ErrnoException) =>
      reject(new ToolError('invalid_arguments', `--live-port ${port}: ${error.code === 'EADDRINUSE' ? 'the port is in use' : error.message}.`, { field: 'live-port' })),
    );
    http.listen(port, '127.0.0.1', () => resolve());
  });
  const address = http.address();
  return { http, origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}` };
}

export async function startLiveServer(port: number): Promise<LiveServer> {
  const hub = new LiveHub();
  const { http, origin } = await listenLoopback(port, (req, res, url) => {
    hub.handle(req, res, url).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end((error as Error).message);
    });
  });
  hub.origin = origin;
  return {
    hub,
    close: () => {
      hub.close();
      http.closeAllConnections();
      http.close();
    },
  };
}

/**
 * `mcp --live-port N` on a profile's shared browser: the bridge's session lives in the daemon, whose /live needs the
 * daemon's token. This serves the daemon's /live on 127.0.0.1:N, adding the token: the same view, on loopback only.
 */
export async function startLiveProxy(port: number, daemonPort: number, token: string): Promise<{ origin: string; close(): void }> {
  const { http, origin } = await listenLoopback(port, (req, res, url) => {
    const upstream = request(
      {
        host: '127.0.0.1',
        port: daemonPort,
        method: req.method,
        path: url.pathname + url.search,
        headers: {
          authorization: `Bearer ${token}`,
          ...(req.headers['content-type'] ? { 'content-type': req.headers['content-type'] } : {}),
          ...(req.headers.accept ? { accept: req.headers.accept } : {}),
        },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' }).end(`The shared browser did not answer: ${error.message}`);
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  return {
    origin,
    close: () => {
      http.closeAllConnections();
      http.close();
    },
  };
}
