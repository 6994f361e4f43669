import { ToolError } from '../errors.js';

/** Compiles an agent's regex (case-insensitive), or invalid_arguments naming the field. */
export function compilePattern(source: string | undefined, field: string): RegExp | null {
  if (source === undefined || source === '') return null;
  try {
    return new RegExp(source, 'i');
  } catch (error) {
    throw new ToolError('invalid_arguments', `${field}: not a valid regular expression: ${(error as Error).message}`, { field });
  }
}

/** How long one call's pattern may spend matching. */
export const MATCH_BUDGET_MS = 1_000;

/** Plain words and punctuation that cannot backtrack: matched here, without a worker. */
const PLAIN = /^[^\\^$.|?*+()[\]{}]*$/;

// Runs in a worker thread: V8 regexes backtrack without bound, and a worker can be stopped, the main thread cannot.
const MATCHER = `
const { parentPort, workerData } = require('node:worker_threads');
const re = new RegExp(workerData.source, 'i');
parentPort.postMessage({ started: true });
parentPort.postMessage({ hits: workerData.texts.map((text) => re.test(text)) });
`;

/**
 * The items whose text matches the agent's pattern. A regex runs in a worker thread with a time budget, so a
 * catastrophic one (`^(a+)+$`) costs this call an invalid_arguments, not the server (and every other session) its
 * event loop.
 */
export async function filterByPattern<T>(items: T[], textOf: (item: T) => string, source: string | undefined, field: string): Promise<T[]> {
  const compiled = compilePattern(source, field);
  if (!compiled || items.length === 0) return items;
  if (PLAIN.test(source!)) return items.filter((item) => compiled.test(textOf(item)));
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(MATCHER, { eval: true, workerData: { source, texts: items.map(textOf) } });
  try {
    const hits = await new Promise<boolean[]>((resolve, reject) => {
      const slow = () =>
        reject(new ToolError('invalid_arguments', `${field}: the regular expression took over ${MATCH_BUDGET_MS} ms to match (nested repetition such as (a+)+ backtracks without end); simplify it.`, { field }));
      // Counted from when matching starts: a busy machine may take a while to start the worker.
      let timer = setTimeout(slow, 10_000);
      worker.on('message', (message: { started?: boolean; hits?: boolean[] }) => {
        if (message.started) {
          clearTimeout(timer);
          timer = setTimeout(slow, MATCH_BUDGET_MS);
        } else if (message.hits) {
          clearTimeout(timer);
          resolve(message.hits);
        }
      });
      worker.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    return items.filter((_, index) => hits[index]);
  } finally {
    void worker.terminate();
  }
}

/** The newest `limit` of `items`, and how many older matches were left out. */
export function newest<T>(items: T[], limit: number): { shown: T[]; omitted: number } {
  const omitted = Math.max(0, items.length - limit);
  return { shown: items.slice(omitted), omitted };
}

export function clock(timestamp: number): string {
  return new Date(timestamp).toISOString().slice(11, 23);
}
