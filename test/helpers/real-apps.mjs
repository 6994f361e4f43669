// Serves real third-party web apps from 127.0.0.1 for the tests: libraries installed from npm (devDependencies) and
// Debian packages (.ci/run installs them), plus small host pages of ours in test/fixtures/real-apps/ that load them.
// Nothing of the apps' own code lives in this repository.
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const modules = (path) => join(REPO, 'node_modules', path);

/** URL prefix -> folder on disk. */
export const MOUNTS = {
  '/apps/': join(REPO, 'test/fixtures/real-apps/'),
  '/vendor/shoelace/': modules('@shoelace-style/shoelace/cdn/'),
  '/vendor/ag-grid/': modules('ag-grid-community/dist/'),
  '/vendor/swagger/': modules('swagger-ui-dist/'),
  '/vendor/codemirror/': modules('codemirror/'),
  '/vendor/monaco/': modules('monaco-editor/min/'),
  // Debian's python3.11-doc: the Python 3.11 documentation as shipped.
  '/pydocs/': '/usr/share/doc/python3.11/html/',
  // Debian's libjs-pdf / pdf.js-common: the pdf.js viewer and its library.
  '/pdfjs/': '/usr/share/javascript/pdf/',
};

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.htm': 'text/html; charset=utf-8', '.js': 'text/javascript',
  '.mjs': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf', '.pdf': 'application/pdf',
  '.map': 'application/json', '.txt': 'text/plain; charset=utf-8', '.bcmap': 'application/octet-stream',
  '.ftl': 'text/plain; charset=utf-8', '.properties': 'text/plain; charset=utf-8',
};

/** The apps that come with `npm ci` (devDependencies): all the default tier may use. The others are Debian's. */
export const NPM_APPS = ['/apps/', '/vendor/shoelace/', '/vendor/ag-grid/', '/vendor/swagger/', '/vendor/codemirror/', '/vendor/monaco/'];

/**
 * Which of these real apps are not installed here; a test of a missing one should fail with this message, not skip
 * silently. The default tier asks for NPM_APPS only; the slow tier for all (scripts/install-test-apps.sh adds Debian's).
 */
export function missingApps(prefixes = Object.keys(MOUNTS)) {
  return prefixes.filter((prefix) => !existsSync(MOUNTS[prefix])).map((prefix) => `${prefix} (${MOUNTS[prefix]})`);
}

/** A small OpenAPI document for Swagger UI, with an operation the tests can "Try it out". */
function openApi(origin) {
  return {
    openapi: '3.0.3',
    info: { title: 'Pet orders', version: '1.0.0', description: 'Orders of a pet shop, served by the tests.' },
    servers: [{ url: origin }],
    paths: {
      '/api/orders/{id}': {
        get: {
          summary: 'Find an order by id',
          operationId: 'getOrder',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', example: 42 } }],
          responses: { 200: { description: 'The order', content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } } } },
        },
      },
      '/api/orders': {
        post: {
          summary: 'Place an order',
          operationId: 'placeOrder',
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } } },
          responses: { 201: { description: 'Placed' } },
        },
      },
    },
    components: {
      schemas: {
        Order: {
          type: 'object',
          properties: { id: { type: 'integer' }, pet: { type: 'string' }, quantity: { type: 'integer' }, status: { type: 'string', enum: ['placed', 'approved', 'delivered'] } },
        },
      },
    },
  };
}

/** A small, valid PDF of `pages` pages, each with one line of text, for the pdf.js viewer. */
export function samplePdf(pages = 3) {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', ''];
  const kids = [];
  for (let i = 0; i < pages; i += 1) {
    const text = `BT /F1 24 Tf 72 700 Td (Quarterly report, page ${i + 1} of ${pages}) Tj ET`;
    objects.push(`<< /Length ${text.length} >>\nstream\n${text}\nendstream`);
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${objects.length} 0 R /Resources << /Font << /F1 ${3 + 2 * pages} 0 R >> >> >>`);
    kids.push(`${objects.length} 0 R`);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages} >>`;
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  let out = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** Starts the server; `routes` may add dynamic handlers keyed by path. */
export async function startRealAppServer(routes = {}) {
  let origin = '';
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const route = routes[url.pathname];
    if (route) return route(req, res, url);
    if (url.pathname === '/api/openapi.json') {
      return res.writeHead(200, { 'content-type': TYPES['.json'] }).end(JSON.stringify(openApi(origin)));
    }
    if (url.pathname === '/apps/sample.pdf') {
      return res.writeHead(200, { 'content-type': TYPES['.pdf'] }).end(samplePdf(Number(url.searchParams.get('pages') ?? 3)));
    }
    const order = /^\/api\/orders\/(\d+)$/.exec(url.pathname);
    if (order) {
      const id = Number(order[1]);
      const body = { id, pet: 'Vandelay the cat', quantity: 2, status: 'approved', note: 'x'.repeat(10) + ' long note '.repeat(30) };
      return res.writeHead(200, { 'content-type': TYPES['.json'] }).end(JSON.stringify(body, null, 2));
    }
    const mount = Object.keys(MOUNTS).find((prefix) => url.pathname.startsWith(prefix));
    if (!mount) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const root = MOUNTS[mount];
    let path = normalize(join(root, decodeURIComponent(url.pathname.slice(mount.length))));
    if (!path.startsWith(root)) return res.writeHead(403).end();
    if (path.endsWith('/')) path += 'index.html';
    try {
      const body = await readFile(path);
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'cache-control': 'max-age=3600' }).end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  origin = `http://127.0.0.1:${port}`;
  return {
    port,
    origin,
    url: (path) => `${origin}${path.startsWith('/') ? path : `/${path}`}`,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); }),
  };
}
