// Figures other parts of the project measure on their own (bench/computer.mjs, bench/snapshot.mjs,
// bench/regress.mjs): each is run, when present, as a child process that prints JSON on stdout.
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const EXTRA_SCRIPTS = ['computer', 'snapshot', 'regress'];

/** The last JSON value printed on stdout (a script may log lines before it). */
export function lastJson(stdout) {
  const trimmed = stdout.trim();
  try {
    return JSON.parse(trimmed);
  } catch {
    for (let at = trimmed.lastIndexOf('\n{'); at >= 0; at = trimmed.lastIndexOf('\n{', at - 1)) {
      try {
        return JSON.parse(trimmed.slice(at + 1));
      } catch {
        /* try an earlier start */
      }
    }
    const first = trimmed.indexOf('{');
    return first >= 0 ? JSON.parse(trimmed.slice(first)) : JSON.parse(trimmed);
  }
}

function runScript(path, timeoutMs) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** { name: figures | {skipped} | {error} } for each extra script. */
export async function runExtras({ timeoutMs = 150_000, log = () => {} } = {}) {
  const results = {};
  for (const name of EXTRA_SCRIPTS) {
    const path = fileURLToPath(new URL(`../${name}.mjs`, import.meta.url));
    if (!existsSync(path)) {
      results[name] = { skipped: `bench/${name}.mjs is not there yet` };
      continue;
    }
    log(`extra: bench/${name}.mjs`);
    const started = Date.now();
    const run = await runScript(path, timeoutMs);
    const ms = Date.now() - started;
    if (run.code !== 0) {
      results[name] = { error: `exited with ${run.signal ?? run.code} after ${ms} ms`, stderr: run.stderr.trim().split('\n').slice(-5).join('\n') };
      continue;
    }
    try {
      results[name] = lastJson(run.stdout);
    } catch {
      results[name] = { error: 'did not print JSON on stdout', stdout: run.stdout.slice(-400) };
    }
  }
  return results;
}
