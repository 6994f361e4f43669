// A call its MCP client cancelled (notifications/cancelled) stops where it waits: the waits that can run for
// seconds (navigate's load, wait_for, computer's wait, a page's promise) take the call's signal.

/** Thrown where a cancelled call stopped; the client gets no reply (the MCP SDK drops it), the next call a notice. */
export class CallCancelled extends Error {
  /** started: false when it was cancelled before it began (queued behind another call): nothing was done. */
  constructor(readonly started = true) {
    super('The client cancelled this call.');
    this.name = 'CallCancelled';
  }
}

export function isCancelled(error: unknown): error is CallCancelled {
  return error instanceof CallCancelled;
}

/** A signal that never aborts: what a call without a client (a `run` script step, a test) is given. */
export const NEVER: AbortSignal = new AbortController().signal;

/**
 * `work`, or CallCancelled as soon as `signal` aborts. The work itself is left to end on its own (its result unread):
 * use this for waits that hold nothing, and stop the ones that do (a page's wait) where they run.
 */
export function unlessCancelled<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal === NEVER) return work;
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(new CallCancelled());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      work.catch(() => undefined);
      reject(new CallCancelled());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Waits `ms`, or until the signal aborts (CallCancelled); the timer goes with it. */
export function sleepUnlessCancelled(ms: number, signal: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const slept = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return unlessCancelled(slept, signal).finally(() => clearTimeout(timer));
}
