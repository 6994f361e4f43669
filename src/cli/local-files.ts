import { createReadStream } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname, extname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// A local page a run script or a regress config names is served over loopback HTTP, rooted at its own folder, not
// loaded as file:. A file: document may frame, embed or link any other local file (/etc/passwd, a folder listing, a
// binary Firefox then saves as a download); an http page cannot reach file: at all, and this server serves only the
// regular files of that folder: no symlink, no dotfile or dot-folder, no listing, nothing above the root.

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.wasm': 'application/wasm',
};

/** The real file under `root` that `pathname` names, or null: every component a plain name, no symlink, a regular file. */
async function servable(root: string, pathname: string): Promise<string | null> {
  let parts: string[];
  try {
    parts = decodeURIComponent(pathname).split('/').filter(Boolean);
  } catch {
    return null;
  }
  if (parts.length === 0 || parts.some((part) => part.startsWith('.') || part.includes('\\') || part.includes('\0') || part.includes(sep))) return null;
  let at = root;
  for (const [index, part] of parts.entries()) {
    at = join(at, part);
    const info = await lstat(at).catch(() => null);
    const last = index === parts.length - 1;
    if (!info || info.isSymbolicLink() || (last ? !info.isFile() : !info.isDirectory())) return null;
  }
  return at;
}

/** One loopback server per folder (each its own origin), started on first need and closed with `close`. */
export class LocalFiles {
  private readonly servers = new Map<string, Promise<{ server: Server; origin: string }>>();

  /** The http://127.0.0.1 URL that serves the file a `file:` URL names (query and hash kept). */
  async urlFor(fileUrl: string): Promise<string> {
    const url = new URL(fileUrl);
    const path = fileURLToPath(url);
    const root = await realpath(dirname(path));
    const { origin } = await this.serve(root);
    return `${origin}/${encodeURIComponent(basename(path))}${url.search}${url.hash}`;
  }

  private serve(root: string): Promise<{ server: Server; origin: string }> {
    let started = this.servers.get(root);
    if (!started) {
      started = new Promise((resolvePromise, reject) => {
        const server = createServer((req, res) => {
          if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405).end();
          const pathname = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
          void servable(root, pathname).then((file) => {
            if (!file) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
            res.writeHead(200, { 'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream', 'cache-control': 'no-store' });
            if (req.method === 'HEAD') return void res.end();
            createReadStream(file).on('error', () => res.destroy()).pipe(res);
          });
        });
        server.on('error', reject);
        server.listen(0, '127.0.0.1', () => resolvePromise({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
      });
      this.servers.set(root, started);
    }
    return started;
  }

  async close(): Promise<void> {
    const all = await Promise.all([...this.servers.values()].map((started) => started.catch(() => null)));
    this.servers.clear();
    const closing = all.flatMap((entry) =>
      entry
        ? [
            new Promise<void>((done) => {
              entry.server.closeAllConnections();
              entry.server.close(() => done());
            }),
          ]
        : [],
    );
    await Promise.all(closing);
  }
}
