// Bundles the CLI (src/cli/main.ts and what it imports, npm dependencies included) into dist/cli/main.js and its
// chunks, after tsc has built the modules. Node loads one bundle ~130 ms faster than the ~300 files of tsc's output
// and the packages (execa and zod alone are 230 files): Firefox is spawned that much sooner and the MCP handshake
// answers sooner (docs/benchmark.md). The dynamic imports stay lazy as chunks. tsc's other modules stay in dist/
// for the unit tests; only main.js is replaced.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
rmSync(join(root, 'dist/cli/chunks'), { recursive: true, force: true });
await build({
  entryPoints: [join(root, 'src/cli/main.ts')],
  outdir: join(root, 'dist/cli'),
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // sharp is native; ws's optional native helpers are looked for at run time and may be absent.
  external: ['sharp', 'bufferutil', 'utf-8-validate'],
  // CommonJS packages inside the bundle (cross-spawn under execa) call require() for Node's built-ins.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module';\nconst require = __bundleRequire(import.meta.url);" },
  sourcemap: true,
  legalComments: 'eof',
  logLevel: 'warning',
});
