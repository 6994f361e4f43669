// Waiting inside the page without timers, which background tabs clamp to 1 s.

/** Task turns (cheap, and not clamped in background tabs) until `done` or `ms` have passed. */
export async function waitUntil(done: () => boolean, ms: number): Promise<void> {
  const until = performance.now() + ms;
  while (!done() && performance.now() < until) {
    await new Promise<void>((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    });
  }
}
