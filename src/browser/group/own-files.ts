import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { appendFile, chmod, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';

// Files the server wrote itself (storage states, saved screenshots, PDFs, exported and --save-script scripts) must
// never go out through file_upload: a page could have the agent upload the session's logins. They are known by
// their content (size and SHA-256), not their path or inode, so a rename, a hard link or a copy is still known. The
// record lives in the data dir (never an upload root), so a file an earlier server wrote is known too.

const MAX_ENTRIES = 20_000;

interface Entry {
  size: number;
  sha256: string;
}

/** `$XDG_DATA_HOME/firefox-use`: profiles, REPL history and this record; nothing in it is ever uploaded. */
export function dataDir(): string {
  return join(process.env['XDG_DATA_HOME'] || join(homedir(), '.local', 'share'), 'firefox-use');
}

function recordPath(): string {
  return join(dataDir(), 'own-files.jsonl');
}

const known = new Map<number, Set<string>>();
let loaded: { path: string; mtimeMs: number; size: number } | null = null;
let writing: Promise<void> = Promise.resolve();

function remember(entry: Entry): void {
  let hashes = known.get(entry.size);
  if (!hashes) known.set(entry.size, (hashes = new Set()));
  hashes.add(entry.sha256);
}

/** Reads what other servers (and earlier runs) recorded, when the record changed since the last read. */
async function loadRecord(): Promise<void> {
  const path = recordPath();
  const info = await stat(path).catch(() => null);
  if (!info) return;
  if (loaded && loaded.path === path && loaded.mtimeMs === info.mtimeMs && loaded.size === info.size) return;
  const text = await readFile(path, 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    try {
      const entry = JSON.parse(line) as Partial<Entry>;
      if (typeof entry.size === 'number' && typeof entry.sha256 === 'string') remember({ size: entry.size, sha256: entry.sha256 });
    } catch {
      // A torn last line from a server that died mid-write.
    }
  }
  loaded = { path, mtimeMs: info.mtimeMs, size: info.size };
}

/** Records content the server is about to write (or wrote) into a file a user or an agent can reach. */
export function recordOwnFile(data: Buffer | string): Promise<void> {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  // An empty file tells nothing; refusing every empty file would only get in the way.
  if (bytes.length === 0) return writing;
  const entry = { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  remember(entry);
  writing = writing.then(async () => {
    const path = recordPath();
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await appendFile(path, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    const info = await stat(path);
    // Keep the record bounded: the newest entries stay.
    if (info.size > MAX_ENTRIES * 100) {
      const lines = (await readFile(path, 'utf8')).split('\n').filter(Boolean);
      await writeFile(path, `${lines.slice(-MAX_ENTRIES / 2).join('\n')}\n`, { mode: 0o600 });
    }
  }).catch((error: unknown) => {
    process.stderr.write(`firefox-use: could not record a written file in ${recordPath()}: ${(error as Error).message}\n`);
  });
  return writing;
}

/** The size and hash of one read of the file (a file the server rewrites meanwhile is read as one version). */
function hashFile(path: string): Promise<Entry> {
  return new Promise((resolvePromise, reject) => {
    const hash = createHash('sha256');
    let size = 0;
    createReadStream(path)
      .on('data', (chunk) => {
        size += chunk.length;
        hash.update(chunk);
      })
      .on('error', reject)
      .on('end', () => resolvePromise({ size, sha256: hash.digest('hex') }));
  });
}

/** Whether the file at `path` holds what the server once wrote (`size`: its size when stat'ed; a hint, not trusted). */
export async function isOwnFile(path: string, size: number): Promise<boolean> {
  await writing;
  await loadRecord();
  if (size === 0) return false;
  const read = await hashFile(path);
  return known.get(read.size)?.has(read.sha256) ?? false;
}

/**
 * Writes a file of the server's own, readable by this user only, recorded first. It is written under a temporary name
 * with no permissions and renamed when whole, so no upload can read it half written (content not yet recorded).
 */
export async function writeOwnFile(path: string, data: Buffer | string): Promise<void> {
  await recordOwnFile(data);
  const part = join(dirname(path), `.${basename(path)}.${randomUUID().slice(0, 8)}.part`);
  try {
    await writeFile(part, data, { mode: 0o000 });
    await chmod(part, 0o600);
    await rename(part, path);
  } catch (error) {
    await rm(part, { force: true });
    throw error;
  }
}
