/** Runs `shutdown` once on SIGINT, SIGTERM or SIGHUP (and, when asked, when stdin closes), then exits. */
export function onShutdown(shutdown: () => Promise<void>, options: { stdinClose?: boolean } = {}): (code?: number) => Promise<void> {
  let started: Promise<void> | null = null;
  const run = (code = 0): Promise<void> => {
    if (!started) {
      // Deferred a tick: shutdown() may close the MCP server, whose onclose calls this again before `started` is set.
      started = Promise.resolve()
        .then(shutdown)
        .catch((error: unknown) => {
          process.stderr.write(`firefox-use: error while shutting down: ${(error as Error).message}\n`);
        })
        .finally(() => process.exit(code));
    }
    return started;
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => void run(0));
  if (options.stdinClose) {
    process.stdin.once('end', () => void run(0));
    process.stdin.once('close', () => void run(0));
  }
  return run;
}
