import { BrowserManager } from '../../browser/manager.js';
import type { ServerOptions } from '../../config.js';

/**
 * The file: content process is kept between captures: without it each capture's tab started a new one (~250 ms).
 * Pages of other origins still get a process per user context, as site isolation wants.
 */
const REGRESS_PREFS = ['dom.ipc.keepProcessesAlive.file=1'];

/** A Firefox for regress: a throwaway profile (cookies and caches of earlier runs must not change a screenshot). */
export function regressManager(options: ServerOptions): BrowserManager {
  return new BrowserManager({ ...options, isolated: true, prefs: [...REGRESS_PREFS, ...(options.prefs ?? [])] });
}
