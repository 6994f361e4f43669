import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { z } from 'zod';
import { dataDir, isOwnFile } from '../browser/group/index.js';
import type { FileInputInfo } from '../contract/index.js';
import { ToolError } from '../errors.js';
import { watchWhile } from '../browser/observe/index.js';
import { fileInput, fileInputs } from '../browser/tab/index.js';
import { askBeforeUpload } from './confirm.js';
import { answerLines } from './page-answer.js';
import { refField, refTarget } from './ref-target.js';
import { defineTool, tabIdField, type TabToolContext } from './tool.js';

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The real path of `path`'s nearest existing ancestor, so a missing file is placed as its folder is. */
async function realAncestor(path: string): Promise<string> {
  let at = path;
  for (;;) {
    const real = await realpath(at).catch(() => null);
    if (real !== null) return relative(at, path) ? resolve(real, relative(at, path)) : real;
    const up = dirname(at);
    if (up === at) return path;
    at = up;
  }
}

/**
 * Each path as the real file it names, after symlinks: it must be a readable regular file under one of the upload
 * roots (themselves resolved, so a symlinked root works and a symlink out of a root does not), and not a file the
 * server wrote itself (own-files.ts) nor anything in its data dir (profiles, history). A path outside the roots gets
 * the same answer whether or not it exists: only inside them does the answer say more.
 */
export async function resolveUploadPaths(paths: string[], roots: string[]): Promise<string[]> {
  const realRoots = (await Promise.all(roots.map((root) => realpath(root).catch(() => null)))).filter((root): root is string => root !== null);
  const realData = await realAncestor(dataDir());
  const resolved: string[] = [];
  for (const [index, path] of paths.entries()) {
    const field = `paths.${index}`;
    const bad = (why: string, reason: string) => new ToolError('invalid_arguments', `${field}: ${path} ${why}`, { field, path, reason });
    const outside = () =>
      bad(`is outside the upload roots (${roots.join(', ')}); start the server with --upload-root to allow another directory.`, 'outside_upload_roots');
    const absolute = resolve(path);
    const real = await realpath(absolute).catch(() => null);
    // Where a missing path would be, judged by its existing ancestor, so "missing" is said only inside the roots.
    const placed = real ?? (await realAncestor(absolute));
    if (!realRoots.some((root) => inside(root, placed))) throw outside();
    if (real === null) throw bad('does not exist.', 'not_found');
    if (inside(realData, real)) throw bad("is in firefox-use's data dir (profiles, history); it is never uploaded.", 'server_file');
    const info = await stat(real);
    if (!info.isFile()) throw bad('is not a regular file.', 'not_a_file');
    // A hard link looks like a file inside the root but may be one from anywhere on the same disk.
    if (info.nlink > 1) throw bad('has other hard links, so it may be a file from outside the upload roots; copy it instead.', 'hard_link');
    try {
      await access(real, constants.R_OK);
    } catch {
      throw bad('is not readable.', 'not_readable');
    }
    if (await isOwnFile(real, info.size)) {
      throw bad(
        'is a file firefox-use wrote itself (a storage state, saved screenshot, PDF or script, or a copy of one); those are never uploaded.',
        'server_file',
      );
    }
    resolved.push(real);
  }
  return resolved;
}

/** How long the page may take to answer a pick before "no change" is believed: it reads the file first (FileReader). */
const READ_LINGER_MS = 300;

interface Chosen {
  ref: string;
  frameContext: string;
  info: FileInputInfo;
}

async function chooseInput(context: TabToolContext, ref: string | undefined): Promise<Chosen> {
  const { tab } = context;
  if (ref) {
    const target = await refTarget(context, ref);
    const info = await fileInput(tab, target);
    return { ref, frameContext: target.frameContext, info };
  }
  const inputs = await fileInputs(tab);
  const named = inputs.map((info) => ({ ref: tab.refs.refFor(tab.id, tab.context, info.docId, info.localId), frameContext: tab.context, info }));
  if (named.length === 1) return named[0]!;
  if (named.length === 0) {
    throw new ToolError('not_found', 'The page has no file input (in its top document); pass the ref of one inside a frame if there is one.', { field: 'ref' });
  }
  const candidates = named.map(({ ref: r, info }) => ({ ref: r, name: info.name, multiple: info.multiple, accept: info.accept }));
  throw new ToolError('ambiguous_target', `The page has ${named.length} file inputs; pass ref to say which: ${candidates.map((c) => `${c.ref}${c.name ? ` (${c.name})` : ''}`).join(', ')}.`, {
    field: 'ref',
    candidates,
  });
}

export const fileUploadTool = defineTool({
  name: 'file_upload',
  title: 'Upload files',
  description: 'Puts files into a file input (ref optional if the page has one). Paths must be under --upload-root (default: the output dir).',
  details:
    'Puts local files into a file input (input type=file) as if the user had picked them, without opening a file dialog; ' +
    'hidden inputs behind styled buttons work too. ref names the input (or its label); without ref, the page\'s only file ' +
    'input is used, and several are ambiguous_target (their refs are listed). Paths must be readable files under the server\'s ' +
    'upload roots (--upload-root; default the output dir, where downloads land); relative paths are from the working ' +
    'directory. Files firefox-use wrote itself (storage states, saved screenshots, PDFs, scripts, or copies of them) are refused. An empty list clears the input. Returns the file names the input holds.',
  scope: 'tab',
  errors: ['ref_stale', 'ambiguous_target', 'not_found'],
  input: z.strictObject({
    tabId: tabIdField,
    ref: refField.optional(),
    paths: z.array(z.string().min(1).max(4_096)).max(100),
  }),
  output: z.object({
    ref: z.string(),
    files: z.array(z.string()),
    /** How the page answered (snapshot lines with refs). */
    delta: z.string().optional(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  script: { step: true, secret: null },
  asksItself: true,
  async handler(context, args) {
    const files = await resolveUploadPaths(args.paths, context.options.uploadRoots);
    const chosen = await chooseInput(context, args.ref);
    if (chosen.info.disabled) throw new ToolError('invalid_arguments', `The file input ${chosen.ref} is disabled.`, { field: 'ref' });
    if (files.length > 1 && !chosen.info.multiple) {
      throw new ToolError('invalid_arguments', `paths: the file input ${chosen.ref} takes one file (no multiple attribute), not ${files.length}.`, { field: 'paths' });
    }
    // --confirm-actions upload: asked here, once the paths and the input passed their checks (nothing set yet).
    await askBeforeUpload(context, chosen.ref);
    const { tab } = context;
    // Watched: how the page answered the change (a preview filled from a FileReader, the upload button enabled).
    const { outcome } = await watchWhile(tab, chosen.frameContext, () => tab.setFiles(chosen.frameContext, chosen.info.docId, chosen.info.localId, files), {
      lingerMs: READ_LINGER_MS,
    });
    const after = await fileInput(tab, { docId: chosen.info.docId, localId: chosen.info.localId, frameContext: chosen.frameContext });
    const answered = answerLines(outcome, chosen.ref);
    const text = [after.files.length ? `${chosen.ref} now holds: ${after.files.join(', ')}` : `${chosen.ref} is now empty.`, ...answered].join('\n');
    return { structured: { ref: chosen.ref, files: after.files, ...(answered.length ? { delta: answered.join('\n') } : {}) }, text };
  },
});
