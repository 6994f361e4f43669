// Builds the page scripts (src/page, TypeScript) into one IIFE that the server injects into the sandbox realm, and
// the small activity script for the page's own realm.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'src/page/tsconfig.json')], { stdio: 'inherit' });
const common = {
  bundle: true,
  format: 'iife',
  target: 'firefox115',
  // PAGE_NO_MINIFY=1: readable function names in a Gecko profile of the page scripts.
  minify: process.env.PAGE_NO_MINIFY !== '1',
  legalComments: 'none',
  logLevel: 'warning',
};
await build({ ...common, entryPoints: [join(root, 'src/page/index.ts')], outfile: join(root, 'dist/page/bundle.js') });
// The page's own realm gets one small script: the activity counts settle reads (src/page/main-realm.ts).
await build({ ...common, entryPoints: [join(root, 'src/page/main-realm.ts')], outfile: join(root, 'dist/page/main-realm.js') });
