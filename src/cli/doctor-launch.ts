// doctor --launch: starts Firefox the way mcp would with the same flags, loads a page served from 127.0.0.1, and
// says how long each step took and which one failed.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BrowserManager } from '../browser/manager.js';
import { pageInfo } from '../browser/tab/index.js';
import type { ServerOptions } from '../config.js';
import { isToolError } from '../errors.js';

export interface LaunchCheck {
  ok: boolean;
  /** Milliseconds from the start to each step that was reached. */
  phases: { spawn?: number; endpoint?: number; session?: number; ready?: number; page?: number };
  browser?: string;
  /** The title the test page had once loaded (proves script and networking work). */
  pageTitle?: string;
  error?: string;
}

const TITLE = 'firefox-use doctor page';

export async function launchCheck(options: ServerOptions): Promise<LaunchCheck> {
  const site = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>loading</title><script>document.title = ${JSON.stringify(TITLE)};</script>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  const manager = new BrowserManager(options);
  const check: LaunchCheck = { ok: false, phases: {} };
  try {
    const browser = await manager.get();
    Object.assign(check.phases, browser.startup ?? {});
    delete (check.phases as { startedAt?: number }).startedAt;
    const startedAt = browser.startup?.startedAt ?? performance.now();
    const tab = await browser.createTab('doctor');
    await tab.navigateTo(url, 'complete', options.timeoutNavigation);
    check.pageTitle = (await pageInfo(tab, { timeout: options.timeoutAction })).title;
    check.phases.page = performance.now() - startedAt;
    check.browser = await browser.versionWhenKnown();
    check.ok = check.pageTitle === TITLE;
    if (!check.ok) check.error = `the test page loaded but its script did not run (title ${JSON.stringify(check.pageTitle)})`;
  } catch (error) {
    check.error = isToolError(error) ? `${error.code}: ${error.message}` : String(error);
  } finally {
    await manager.close().catch(() => undefined);
    await new Promise((resolve) => site.close(resolve));
  }
  return check;
}
