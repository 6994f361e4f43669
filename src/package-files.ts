import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * A file of the installed package (package.json, profiles/, dist/page/), found from this module's folder up to the
 * package root: the same answer from tsc's modules (dist/<folder>/) and from the bundled CLI's chunks
 * (dist/cli/chunks/), whose depths differ.
 */
export function packageFile(...parts: string[]): string {
  if (root === undefined) {
    let dir = dirname(fileURLToPath(import.meta.url));
    while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
    root = dir;
  }
  return join(root, ...parts);
}
