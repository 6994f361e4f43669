// The daemon side of a profile's shared browser (see shared.ts): where the bridges find it, and when it ends.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import type { ServerOptions } from '../config.js';
import { SESSION_KEYS, type DaemonInfo } from './shared.js';

/** How long a daemon stays after its last session ended: an agent that restarts finds its browser still there. */
export const DAEMON_GRACE_MS = 5_000;
/** How long a new daemon waits for the bridge that started it to open its session. */
const FIRST_SESSION_MS = 30_000;

export class DaemonLife {
  private timer: NodeJS.Timeout | null = null;
  private leave: (() => void) | null = null;

  constructor(
    private readonly path: string,
    private readonly options: string,
  ) {}

  /** Writes where the daemon listens (atomically, 0600), and arms the wait for its first session. */
  listening(port: number, leave: () => void): void {
    this.leave = leave;
    const info: DaemonInfo = { pid: process.pid, port, options: this.options };
    const temporary = `${this.path}.${process.pid}`;
    writeFileSync(temporary, JSON.stringify(info), { mode: 0o600 });
    renameSync(temporary, this.path);
    this.arm(FIRST_SESSION_MS);
  }

  /** Told the number of sessions after each change: none left arms the exit, one disarms it. */
  sessions(count: number): void {
    if (count > 0) this.disarm();
    else if (this.leave) this.arm(DAEMON_GRACE_MS);
  }

  /** Removes the daemon file, if it is still this daemon's: no bridge connects to a daemon on its way out. */
  remove(): void {
    this.disarm();
    try {
      if ((JSON.parse(readFileSync(this.path, 'utf8')) as DaemonInfo).pid === process.pid) rmSync(this.path, { force: true });
    } catch {
      // gone already
    }
  }

  private arm(ms: number): void {
    this.disarm();
    this.timer = setTimeout(() => {
      this.remove();
      this.leave?.();
    }, ms);
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** A session's options on a shared browser: the daemon's, with what the agent's bridge keeps for itself. */
export function bridgeSessionOptions(options: ServerOptions, headers: IncomingHttpHeaders): ServerOptions {
  const header = headers['x-firefox-use-session'];
  if (typeof header !== 'string') return options;
  let sent: Record<string, unknown>;
  try {
    sent = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return options;
  }
  const own = Object.fromEntries(Object.entries(sent).filter(([key]) => SESSION_KEYS.has(key)));
  return { ...options, ...own } as ServerOptions;
}
