// Serves bench/fixtures from 127.0.0.1. Two instances give two origins (ports), for the cross-origin iframe page:
// a page may name the other origin as {{OTHER_ORIGIN}}, filled in when it is served.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../fixtures/', import.meta.url));
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };

async function listen(handler) {
  const server = createServer(handler);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** Starts both origins; `url(path)` is on the first, `otherUrl(path)` on the second. */
export async function startFixtures() {
  const state = { other: '' };
  const handler = async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (url.pathname === '/favicon.ico') return res.writeHead(204).end();
    const path = normalize(join(ROOT, url.pathname.endsWith('/') ? `${url.pathname}index.html` : url.pathname));
    if (!path.startsWith(ROOT)) return res.writeHead(403).end();
    try {
      let body = await readFile(path);
      if (extname(path) === '.html') body = body.toString('utf8').replaceAll('{{OTHER_ORIGIN}}', state.other);
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'cache-control': 'no-store' }).end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  };
  const first = await listen(handler);
  const second = await listen(handler);
  const origin = `http://127.0.0.1:${first.address().port}`;
  state.other = `http://127.0.0.1:${second.address().port}`;
  return {
    origin,
    otherOrigin: state.other,
    url: (path) => `${origin}${path}`,
    otherUrl: (path) => `${state.other}${path}`,
    async close() {
      for (const server of [first, second]) {
        server.closeAllConnections?.();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}
