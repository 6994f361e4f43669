// `firefox-use show-trace FILE`: serves one --save-trace file on 127.0.0.1 until Ctrl+C, for a browser that cannot
// or will not open it from disk (firefox-use itself refuses file: URLs by default). Only that file, only to a loopback
// Host, and only a file in the working directory or the output dir: nothing else on the disk is reachable.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile, realpath, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { extname, isAbsolute, relative, resolve } from 'node:path';
import { ToolError } from '../errors.js';
import { onShutdown } from './lifecycle.js';

/** A trace holds at most a few hundred small pictures: anything far larger is not one. */
const MAX_BYTES = 200 * 1024 * 1024;

/** The page may show its inline styles and data: pictures, and run nothing (the trace needs no script). */
const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; img-src data:; style-src 'unsafe-inline'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** FILE resolved through its links; refused unless it is an .html file inside the working directory or the output dir. */
export async function traceFileToShow(file: string, outputDir: string, cwd = process.cwd()): Promise<string> {
  const real = await realpath(resolve(cwd, file)).catch(() => {
    throw new ToolError('invalid_arguments', `No file ${file}.`, { field: 'FILE' });
  });
  const roots = [await realpath(cwd), ...(existsSync(outputDir) ? [await realpath(outputDir)] : [])];
  if (!roots.some((root) => isInside(root, real))) {
    throw new ToolError(
      'invalid_arguments',
      `${file} is outside the working directory (${roots[0]}) and the output dir (${resolve(outputDir)}): show-trace serves only a file in one of them. Run it from the file's folder, or pass --output-dir.`,
      { field: 'FILE' },
    );
  }
  if (!['.html', '.htm'].includes(extname(real).toLowerCase())) {
    throw new ToolError('invalid_arguments', `${file} is not an .html file: show-trace serves the trace-*.html files --save-trace writes.`, { field: 'FILE' });
  }
  const info = await stat(real);
  if (!info.isFile()) throw new ToolError('invalid_arguments', `${file} is not a file.`, { field: 'FILE' });
  if (info.size > MAX_BYTES) throw new ToolError('invalid_arguments', `${file} is ${info.size} bytes: larger than any trace.`, { field: 'FILE' });
  return real;
}

/** Serves the file until a signal; resolves once it listens, with its URL (printed on stdout). */
export async function showTrace(file: string, outputDir: string, port = 0): Promise<string> {
  const path = await traceFileToShow(file, outputDir);
  let bound = port;
  const loopbackHosts = () => new Set([`127.0.0.1:${bound}`, `localhost:${bound}`]);
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    // A page elsewhere that rebinds its own name to 127.0.0.1 sends its own Host: refused.
    if (!loopbackHosts().has((req.headers.host ?? '').toLowerCase())) return res.writeHead(403, { 'content-type': 'text/plain' }).end('Host not allowed.\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return res.writeHead(405, { 'content-type': 'text/plain', allow: 'GET, HEAD' }).end();
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/') return res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the trace is at /.\n');
    // Read at each request: a trace still being written shows its latest state on reload. A link swapped in
    // meanwhile for another file is not followed.
    const now = await realpath(path).catch(() => null);
    if (now !== path) return res.writeHead(410, { 'content-type': 'text/plain' }).end('The trace file is gone.\n');
    const body = await readFile(path);
    res.writeHead(200, { ...HEADERS, 'content-length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  const server = createServer((req, res) => {
    answer(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end();
    });
  });
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolvePromise());
  });
  const address = server.address();
  bound = typeof address === 'object' && address ? address.port : port;
  onShutdown(
    () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  );
  const url = `http://127.0.0.1:${bound}/`;
  process.stdout.write(`${url}\n`);
  process.stderr.write(`firefox-use show-trace: serving ${path} at ${url} until Ctrl+C\n`);
  return url;
}
