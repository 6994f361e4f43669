import { BrowserManager } from '../../browser/manager.js';
import type { ServerOptions } from '../../config.js';

/**
 * The file: content process is kept between captures: without it each capture's tab started a new one (~250 ms).
 * Pages of other origins still get a process per user context, as site isolation wants. History belongs to the
 * browser, not to a user context: a page captured earlier (or loaded ahead by --prefetch) drew another capture's
 * links in their :visited colours, so none is recorded and no link is drawn as visited.
 */
const REGRESS_PREFS = ['dom.ipc.keepProcessesAlive.file=1', 'places.history.enabled=false', 'layout.css.visited_links_enabled=false'];

/** A Firefox for regress: a throwaway profile (cookies and caches of earlier runs must not change a screenshot). */
export function regressManager(options: ServerOptions): BrowserManager {
  return new BrowserManager({ ...options, isolated: true, prefs: [...REGRESS_PREFS, ...(options.prefs ?? [])] });
}
