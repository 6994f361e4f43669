// How the long-running commands end. Signals are caught from the first moment a browser may start: a signal's
// default action ends Node on the spot, skipping the exit hook that kills the browser (browser/launch/reaper.ts), and the
// watchdog that covers a SIGKILL is spawned a few milliseconds after Firefox, so a SIGTERM in between left Firefox
// running. Caught, the signal waits for the spawn (and its watchdog) that is under way, then shuts down.
const SIGNALS = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 } as const;

let shutdownWork: (() => Promise<void>) | null = null;
let started: Promise<void> | null = null;
let catching = false;
let watchingStdin = false;

/**
 * Runs the registered shutdown once, then exits with `code`. With nothing registered yet it just exits: the exit hook
 * kills whatever browser was started.
 */
function run(code: number): Promise<void> {
  if (!started) {
    const work = shutdownWork;
    // Deferred a tick: the work may close the MCP server, whose onclose calls this again before `started` is set.
    started = Promise.resolve()
      .then(() => work?.())
      .catch((error: unknown) => {
        process.stderr.write(`firefox-use: error while shutting down: ${(error as Error).message}\n`);
      })
      .finally(() => process.exit(code));
  }
  return started;
}

/** Catches SIGINT, SIGTERM and SIGHUP from now on. Call it before anything launches a browser. */
export function catchSignals(): void {
  if (catching) return;
  catching = true;
  for (const [signal, number] of Object.entries(SIGNALS)) {
    // A registered shutdown is the server's normal end (exit 0); before one, the conventional 128 + signal number.
    process.once(signal, () => void run(shutdownWork ? 0 : 128 + number));
  }
}

/**
 * Makes `shutdown` what runs on SIGINT, SIGTERM or SIGHUP (and, when asked, when stdin closes), then exits. A later
 * call replaces an earlier one: a command registers what it has so far and more once its server is up.
 */
export function onShutdown(shutdown: () => Promise<void>, options: { stdinClose?: boolean } = {}): (code?: number) => Promise<void> {
  catchSignals();
  shutdownWork = shutdown;
  if (options.stdinClose && !watchingStdin) {
    watchingStdin = true;
    process.stdin.once('end', () => void run(0));
    process.stdin.once('close', () => void run(0));
  }
  return (code = 0) => run(code);
}
