// The one page script that runs in the page's own realm (a preload script without a sandbox), before the page's
// scripts: it counts the work a page has scheduled and not yet run, so navigate's settle can tell a page that is
// done from one whose timer, frame callback or fetch is about to draw. It reads nothing of the page's content and
// changes nothing it shows; the functions it wraps behave as before. The sandbox reads the counts through its Xray
// waiver (src/page/settle.ts); the page cannot overwrite the function that answers them.
import { ACTIVITY_PROBE, type PageActivity } from '../contract/page-activity.js';

interface Pending {
  /** performance.now() when it is due to run. */
  due: number;
  /** Its period, for setInterval. */
  every?: number;
}

/** Timers past this far away do not hold a settle: no quiet window is that long. */
const FAR_MS = 10_000;

function install(win: Window & typeof globalThis): void {
  const timers = new Map<number, Pending>();
  const frames = new Set<number>();
  const idle = new Set<number>();
  let requests = 0;
  /** performance.now() of the newest message posted (schedulers yield through MessageChannel) or timer run. */
  let lastTask = 0;
  const now = (): number => win.performance.now();

  // Proxies keep each function's name, length and native-looking source: pages that test them see no change.
  const wrap = <F extends (...args: never[]) => unknown>(owner: object, name: string, apply: (target: F, self: unknown, args: unknown[]) => unknown): void => {
    const target = (owner as Record<string, unknown>)[name];
    if (typeof target !== 'function') return;
    (owner as Record<string, unknown>)[name] = new Proxy(target, { apply: (fn, self, args: unknown[]) => apply(fn as F, self, args) });
  };
  const call = (fn: unknown, self: unknown, args: unknown[]): unknown => Reflect.apply(fn as (...a: unknown[]) => unknown, self, args);

  const timer = (repeat: boolean) => (native: (...args: never[]) => unknown, self: unknown, args: unknown[]): unknown => {
    const [callback, delay, ...rest] = args;
    // A string callback (eval) is passed on untracked: it cannot be wrapped to see it run.
    if (typeof callback !== 'function') return call(native, self, args);
    const wait = Math.max(0, Number(delay) || 0);
    let id = 0;
    const run = function (this: unknown, ...runArgs: unknown[]): unknown {
      lastTask = now();
      const entry = timers.get(id);
      if (entry?.every !== undefined) entry.due = now() + entry.every;
      else timers.delete(id);
      return call(callback, this, runArgs);
    };
    id = call(native, self, [run, delay, ...rest]) as number;
    if (wait < FAR_MS) timers.set(id, repeat ? { due: now() + wait, every: Math.max(wait, 4) } : { due: now() + wait });
    return id;
  };
  const clear = (native: (...args: never[]) => unknown, self: unknown, args: unknown[]): unknown => {
    timers.delete(Number(args[0]));
    return call(native, self, args);
  };
  wrap(win, 'setTimeout', timer(false));
  wrap(win, 'setInterval', timer(true));
  // clearTimeout and clearInterval clear either kind.
  wrap(win, 'clearTimeout', clear);
  wrap(win, 'clearInterval', clear);

  const callbacks = (set: Set<number>, request: string, cancel: string): void => {
    wrap(win, request, (native, self, args) => {
      const [callback, ...rest] = args;
      if (typeof callback !== 'function') return call(native, self, args);
      let id = 0;
      const run = function (this: unknown, ...runArgs: unknown[]): unknown {
        set.delete(id);
        return call(callback, this, runArgs);
      };
      id = call(native, self, [run, ...rest]) as number;
      set.add(id);
      return id;
    });
    wrap(win, cancel, (native, self, args) => {
      set.delete(Number(args[0]));
      return call(native, self, args);
    });
  };
  callbacks(frames, 'requestAnimationFrame', 'cancelAnimationFrame');
  callbacks(idle, 'requestIdleCallback', 'cancelIdleCallback');

  const settled = (): void => void (requests = Math.max(0, requests - 1));
  wrap(win, 'fetch', (native, self, args) => {
    requests++;
    // The page gets the chained promise: a rejection it leaves unhandled is still reported as one in its console.
    return (call(native, self, args) as Promise<unknown>).then(
      (response) => {
        settled();
        return response;
      },
      (error: unknown) => {
        settled();
        throw error;
      },
    );
  });
  const xhr = win.XMLHttpRequest?.prototype;
  if (xhr) {
    wrap(xhr, 'send', (native, self, args) => {
      const request = self as XMLHttpRequest;
      requests++;
      const ended = (): void => settled();
      request.addEventListener('loadend', ended, { once: true });
      try {
        return call(native, self, args);
      } catch (error) {
        request.removeEventListener('loadend', ended);
        settled();
        throw error;
      }
    });
  }
  const posted = (native: (...args: never[]) => unknown, self: unknown, args: unknown[]): unknown => {
    lastTask = now();
    return call(native, self, args);
  };
  if (win.MessagePort) wrap(win.MessagePort.prototype, 'postMessage', posted);
  wrap(win, 'postMessage', posted);

  const read = (): string => {
    const at = now();
    let soonest: number | null = null;
    for (const entry of timers.values()) {
      const left = Math.max(0, entry.due - at);
      if (soonest === null || left < soonest) soonest = left;
    }
    const activity: PageActivity = { timerDueMs: soonest === null ? null : Math.round(soonest), frames: frames.size, idle: idle.size, requests, sinceTaskMs: Math.round(at - lastTask) };
    return JSON.stringify(activity);
  };
  Object.defineProperty(win, ACTIVITY_PROBE, { value: read, enumerable: false, writable: false, configurable: false });
}

install(window);
