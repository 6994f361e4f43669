// Serves test/fixtures from 127.0.0.1 on a free port; a second server gives a second origin for cross-origin frames.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from './processes.mjs';

const ROOT = fileURLToPath(new URL('../fixtures/', import.meta.url));
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.png': 'image/png', '.json': 'application/json', '.txt': 'text/plain' };

/** Starts a fixture server; `routes` may add dynamic handlers keyed by path. */
export async function startFixtureServer(routes = {}) {
  /** Path and query of every request, in arrival order: a test waits on these instead of sleeping. */
  const requests = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    requests.push(url.pathname + url.search);
    const route = routes[url.pathname];
    if (route) return route(req, res, url);
    if (url.pathname === '/redirect') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
      return res.end();
    }
    if (url.pathname === '/slow') {
      const ms = Number(url.searchParams.get('ms') ?? 5000);
      return setTimeout(() => res.writeHead(200, { 'content-type': TYPES['.html'] }).end('<title>slow</title>slow'), ms);
    }
    if (url.pathname === '/set-cookie') {
      res.writeHead(200, { 'content-type': TYPES['.html'], 'set-cookie': `${url.searchParams.get('name') ?? 'fu'}=${url.searchParams.get('value') ?? '1'}; Max-Age=86400; Path=/` });
      return res.end('<title>cookie set</title>cookie set');
    }
    if (url.pathname === '/cookies') {
      res.writeHead(200, { 'content-type': TYPES['.html'] });
      return res.end(`<title>cookies</title><pre id="cookies">${(req.headers.cookie ?? '').replace(/</g, '&lt;')}</pre>`);
    }
    const path = normalize(join(ROOT, url.pathname === '/' ? 'index.html' : url.pathname));
    if (!path.startsWith(ROOT)) return res.writeHead(403).end();
    try {
      const body = await readFile(path);
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'cache-control': 'no-store' }).end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    url: (path) => `http://127.0.0.1:${port}${path.startsWith('/') ? path : `/${path}`}`,
    requests,
    /** Resolves true once a request whose path and query start with `prefix` has arrived (false after `timeoutMs`). */
    requested: (prefix, timeoutMs = 20_000) => waitFor(() => requests.some((r) => r.startsWith(prefix)), timeoutMs),
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); }),
  };
}
