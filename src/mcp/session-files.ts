// The files a session made (saved screenshots and zooms, PDFs, downloads, exported scripts, storage states) as MCP
// resources: a client that cannot read the server's disk (serve, Docker, another machine) reads them with
// resources/read. Each MCP server object is one session's: a URI another session made is unknown here.
import { realpathSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, relative, sep } from 'node:path';
import { McpError, type ReadResourceResult, type Resource, type ResourceLink } from '@modelcontextprotocol/sdk/types.js';

/** JSON-RPC's "resource not found" (the MCP spec's code for an unknown URI). */
const RESOURCE_NOT_FOUND = -32002;
/** Larger files are not sent inline (base64 in one JSON message); the reply gives their path. */
export const MAX_RESOURCE_BYTES = 20 * 1024 * 1024;

const MIME_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpeg': 'image/jpeg',
  '.jpg': 'image/jpeg',
  '.pdf': 'application/pdf',
  '.yaml': 'text/yaml',
  '.yml': 'text/yaml',
  '.json': 'application/json',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.html': 'text/html',
};

const isText = (mimeType: string) => mimeType.startsWith('text/') || mimeType === 'application/json';

interface SessionFile {
  uri: string;
  path: string;
  name: string;
  mimeType: string;
}

/** The paths a reply names as files it wrote: `savedTo`, `path`, and each download's `path`. */
function pathsIn(structured: Record<string, unknown> | undefined): string[] {
  if (!structured) return [];
  const paths = [structured['savedTo'], structured['path']];
  const downloads = structured['downloads'];
  if (Array.isArray(downloads)) for (const download of downloads) paths.push((download as { path?: unknown } | null)?.path);
  return paths.filter((path): path is string => typeof path === 'string');
}

export class SessionFiles {
  private readonly byUri = new Map<string, SessionFile>();
  private readonly root: string;

  constructor(outputDir: string) {
    this.root = outputDir;
  }

  /** Registers the files a tool's reply names inside the output dir; answers the links to add to the reply. */
  register(structured: Record<string, unknown> | undefined): ResourceLink[] {
    const links: ResourceLink[] = [];
    for (const path of pathsIn(structured)) {
      const file = this.fileAt(path);
      if (!file) continue;
      this.byUri.set(file.uri, file);
      links.push({ type: 'resource_link', uri: file.uri, name: file.name, mimeType: file.mimeType });
    }
    return links;
  }

  list(): Resource[] {
    return [...this.byUri.values()].map(({ uri, name, mimeType }) => ({ uri, name, mimeType }));
  }

  async read(uri: string): Promise<ReadResourceResult> {
    const file = this.byUri.get(uri);
    if (!file) throw new McpError(RESOURCE_NOT_FOUND, `No file ${uri} in this session: only the files its own calls saved can be read.`, { uri });
    // Still a regular file inside the output dir (a page's download cannot be swapped for a link out of it).
    if (!this.fileAt(file.path)) throw new McpError(RESOURCE_NOT_FOUND, `${uri} is no longer in the output dir.`, { uri });
    const size = statSync(file.path).size;
    if (size > MAX_RESOURCE_BYTES) {
      throw new McpError(RESOURCE_NOT_FOUND, `${uri} is ${size} bytes, over the ${MAX_RESOURCE_BYTES} a read sends inline; it is at ${file.path} on the server.`, { uri });
    }
    const data = await readFile(file.path);
    const content = isText(file.mimeType) ? { uri, mimeType: file.mimeType, text: data.toString('utf8') } : { uri, mimeType: file.mimeType, blob: data.toString('base64') };
    return { contents: [content] };
  }

  private fileAt(path: string): SessionFile | null {
    try {
      const real = realpathSync(path);
      const inside = relative(realpathSync(this.root), real);
      if (!inside || inside.startsWith('..') || inside.startsWith(sep) || !statSync(real).isFile()) return null;
      const name = inside.split(sep).join('/');
      const mimeType = MIME_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
      return { uri: `firefox-use://output/${name.split('/').map(encodeURIComponent).join('/')}`, path: real, name, mimeType };
    } catch {
      return null;
    }
  }
}
