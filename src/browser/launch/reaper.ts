import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

/** Browser process groups still running, each with the throwaway profile to delete after it (if any). */
const guarded = new Map<number, string | undefined>();

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

process.on('exit', () => {
  for (const [pid, throwaway] of guarded) {
    killGroup(pid);
    if (throwaway) rmSync(throwaway, { recursive: true, force: true });
  }
});

/** The watchdog shell's whole environment: a PATH to find its few commands, nothing of the server's secrets. */
export function watchdogEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'] || '/usr/bin:/bin' };
}

/**
 * Makes sure a browser process group never outlives this server: it is killed when this process exits by any path,
 * and a tiny watchdog kills it even if this process is killed with SIGKILL (which no handler can catch).
 * Returns the function to call once the browser's main process has exited: what is left of its group goes then.
 */
export function guardProcessGroup(pid: number, throwawayDir?: string): () => void {
  guarded.set(pid, throwawayDir);
  if (process.platform !== 'win32') {
    // Tried again while anything is left: a killed group's last processes can still be closing files in it.
    const dir = throwawayDir ? `'${throwawayDir.replace(/'/g, "'\\''")}'` : '';
    const cleanup = throwawayDir ? `; for try in 1 2 3 4 5; do sleep 1; rm -rf ${dir} 2>/dev/null; [ -e ${dir} ] || break; done` : '';
    // A zombie answers kill -0: a server that died but was not yet reaped counts as gone. Whatever is left in the
    // group once the browser's main process has gone (or the server has) is killed either way.
    const script =
      `alive() { kill -0 "$1" 2>/dev/null && ! grep -qs '^State:[[:space:]]*Z' "/proc/$1/status"; }; ` +
      `while alive ${process.pid} && alive ${pid}; do sleep 0.5; done; kill -KILL -${pid} 2>/dev/null; ` +
      `if alive ${process.pid}; then exit 0; fi${cleanup}; exit 0`;
    // The watchdog needs only PATH (sleep, grep, rm): the server's environment may hold the user's secrets, readable
    // in /proc by anything that outlives the server as this process does.
    const watchdog = spawn('/bin/sh', ['-c', script], { detached: true, stdio: 'ignore', env: watchdogEnv() });
    watchdog.on('error', () => undefined);
    watchdog.unref();
  }
  return () => {
    guarded.delete(pid);
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* the group went with its leader */
    }
  };
}

export { killGroup };
