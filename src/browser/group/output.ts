import { mkdir } from 'node:fs/promises';
import { basename, relative, resolve, isAbsolute } from 'node:path';
import { ToolError } from '../../errors.js';
import { writeOwnFile } from './own-files.js';

/** Keeps a name from a page or an agent to one harmless path segment. */
export function safeFileName(name: string, fallback = 'file'): string {
  const cleaned = basename(name.replace(/\\/g, '/'))
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_')
    .replace(/^\.+/, '')
    .slice(0, 120);
  return cleaned || fallback;
}

/** Resolves `name` inside `dir`, refusing anything that would land outside it. */
export function insideDir(dir: string, name: string): string {
  const root = resolve(dir);
  const target = resolve(root, name);
  const rel = relative(root, target);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw new ToolError('invalid_arguments', `"${name}" would be written outside the output dir ${root}.`, { field: 'path' });
  }
  return target;
}

let saved = 0;

/** Creates the output dir readable by this user only (downloads and screenshots may hold anything a page shows). */
export async function makeOutputDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
}

/** Writes a PNG into the output dir under a name the server makes; returns the absolute path. */
export function saveImage(outputDir: string, stem: string, data: Buffer, mimeType = 'image/png'): Promise<string> {
  return saveOutput(outputDir, stem, mimeType === 'image/jpeg' ? 'jpg' : 'png', data);
}

/**
 * Writes a file into the output dir, readable by this user only: under `name` when given (one path segment, kept
 * inside the dir), else a name the server makes from `stem`. Returns the absolute path.
 */
export async function saveOutput(outputDir: string, stem: string, extension: string, data: Buffer | string, name?: string): Promise<string> {
  await makeOutputDir(outputDir);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const path = insideDir(outputDir, name ? safeFileName(name) : `${safeFileName(stem)}-${stamp}-${++saved}.${extension}`);
  await writeOwnFile(path, data);
  return path;
}
