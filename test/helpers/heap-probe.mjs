// Test-only, preloaded into a server by scripts/soak.mjs (NODE_OPTIONS="--expose-gc --import=<this file>"): at each
// SIGUSR2 it runs a full garbage collection and writes what is still live to stderr, one line
// `heap-probe {"n":…,"heapUsed":…,"external":…,"rss":…}`, so a memory check measures what the server keeps, not
// how far the garbage collector happens to be behind. With HEAP_PROBE_SNAPSHOTS=DIR it also writes a heap snapshot
// there (heap-001.heapsnapshot, …) for scripts/heap-diff.mjs.
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';

if (isMainThread) {
  let n = 0;
  process.on('SIGUSR2', () => {
    n++;
    // Twice: the first collection may leave objects whose finalizers (Buffers' backing stores) run only after it.
    globalThis.gc();
    globalThis.gc();
    const { heapUsed, external, rss } = process.memoryUsage();
    // Compiled code, apart: it grows as the JIT optimizes more functions, which is warming up, not a leak.
    const code = getHeapSpaceStatistics()
      .filter((space) => space.space_name.startsWith('code_'))
      .reduce((total, space) => total + space.space_used_size, 0);
    const dir = process.env.HEAP_PROBE_SNAPSHOTS;
    if (dir) writeHeapSnapshot(join(dir, `heap-${String(n).padStart(3, '0')}.heapsnapshot`));
    process.stderr.write(`heap-probe ${JSON.stringify({ n, heapUsed, code, external, rss })}\n`);
  });
}
