// Memory of a server and the browser it started, read from /proc (Linux). The browser is every descendant of the
// server process; Chromium and Firefox both run several processes, so PSS (shared pages split between them) is
// reported next to the plain RSS sum, which counts shared pages once per process.
import { readdirSync, readFileSync } from 'node:fs';

function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

export function descendants(root) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = parentOf(entry);
    if (parent === null) continue;
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(Number(entry));
  }
  const found = [];
  const queue = [root];
  while (queue.length) {
    for (const child of children.get(queue.shift()) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** { rssKb, pssKb } of one process; zeros when it is gone. */
export function memoryOf(pid) {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0);
    return { rssKb: field('Rss'), pssKb: field('Pss') };
  } catch {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const rss = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
      return { rssKb: rss, pssKb: rss };
    } catch {
      return { rssKb: 0, pssKb: 0 };
    }
  }
}

const mb = (kb) => Math.round((kb / 1024) * 10) / 10;

/** Server RSS and the browser's (all descendants) RSS and PSS sums, in MB. */
export function treeMemory(serverPid) {
  const server = memoryOf(serverPid);
  const browser = { rssKb: 0, pssKb: 0 };
  const pids = descendants(serverPid);
  for (const pid of pids) {
    const m = memoryOf(pid);
    browser.rssKb += m.rssKb;
    browser.pssKb += m.pssKb;
  }
  return { server_rss_mb: mb(server.rssKb), browser_rss_mb: mb(browser.rssKb), browser_pss_mb: mb(browser.pssKb), browser_processes: pids.length };
}
