import type { BrowserManager } from '../../browser/manager.js';
import { navigateTab } from '../../browser/tab/index.js';
import type { Tab } from '../../browser/tab/index.js';
import type { ServerOptions } from '../../config.js';
import { TabGroup } from '../../browser/group/index.js';
import type { Tool } from '../../tools/tool.js';
import { ScriptRunner } from '../script-runner.js';
import type { Capture } from './config.js';
import type { Phases } from './phases.js';
import { makeStill, waitFor, type NetworkWatch } from './stillness.js';
import type { LocalFiles } from '../local-files.js';

export const MAX_ATTEMPTS = 5;
/** Animation frames between two screenshots compared for stillness. */
const SHOT_GAP_FRAMES = 2;

/** A window of a worker: a blank anchor tab keeps it open between captures (a new window costs ~300 ms). */
export interface Lane {
  anchor: Tab | null;
  /** The first window's selected tab, or a window of its own. */
  foreground: 'tab' | 'window';
  /**
   * The lane's previous capture, closed once the next capture's tab is selected: closed first, it would make
   * Firefox switch to the anchor tab and then away again (each switch costs its main thread a paint).
   */
  retiring: (() => Promise<void>) | null;
}

/** Closes the lane's previous capture now (its tab and user context), in the background. */
export function retire(lane: Lane): void {
  const close = lane.retiring;
  lane.retiring = null;
  void close?.();
}

/** A capture whose page is loaded (steps run, wait_for met) in its own tab and user context, ready to be made still and shot. */
export interface Loaded {
  group: TabGroup;
  tab: Tab;
}

export interface Shot {
  png: Buffer;
  stable: boolean;
}

async function screenshot(tab: Tab, fullPage: boolean): Promise<Buffer> {
  return Buffer.from(await tab.screenshotBase64(undefined, fullPage ? 'document' : 'viewport'), 'base64');
}

/** A mask that matches nothing covers nothing: the selector is wrong or the page is not the one meant. */
function assertMasksFound(missing: string[]): void {
  if (missing.length) throw new Error(`mask ${missing.map((m) => JSON.stringify(m)).join(', ')} matched nothing on the page: fix the selector, or drop it from the config.`);
}

/** An HTTP error page is not the page the suite meant, unless the config says that status is expected. */
function assertStatus(tab: Tab, expected: number[] | undefined): void {
  const document = tab.network.ring.entries().filter((entry) => entry.type === 'document' && entry.status !== undefined).pop();
  const status = document?.status;
  if (status === undefined) return; // file:, data: and about: pages have no HTTP status
  if (expected ? !expected.includes(status) : status >= 400) {
    const want = expected ? `expected ${expected.join(' or ')}` : `say expected_status: ${status} in the config if this page is meant to be an error page`;
    throw new Error(`the page answered HTTP ${status} (${want}).`);
  }
}

/**
 * Opens the capture's tab, selected in the lane's window, in a BiDi user context of its own (cookies, storage and
 * cache start empty, whatever ran before or runs beside it), loads the page and runs its steps. On failure the
 * group is disposed and the error thrown.
 */
export async function loadCapture(
  manager: BrowserManager,
  anchors: TabGroup,
  lane: Lane,
  capture: Capture,
  tools: Tool[],
  options: ServerOptions,
  phases: Phases,
  localFiles: LocalFiles | null = null,
): Promise<Loaded> {
  const group = new TabGroup(manager, { ownStorage: true });
  try {
    const browser = await group.browser();
    if (!lane.anchor || lane.anchor.isClosed) lane.anchor = await anchors.openTabIn(browser, { foreground: lane.foreground });
    const tab = await group.openTabIn(browser, { viewport: capture.viewport, foreground: 'tab', beside: lane.anchor }).finally(() => retire(lane));
    phases.mark('tab');
    // The config's own pages (file: ones included) are the user's, not a page's or an agent's.
    if (capture.page.url) {
      // A local page is served from its folder over loopback HTTP (local-files.ts): it cannot frame other local files.
      const local = localFiles && !options.allowUnrestrictedFileAccess && /^file:/i.test(capture.page.url);
      const url = local ? await localFiles.urlFor(capture.page.url) : capture.page.url;
      await navigateTab(tab, url, { ...options, scriptFiles: [capture.page.url] });
      assertStatus(tab, capture.page.expectedStatus);
    }
    phases.mark('load');
    if (capture.page.steps.length) {
      const runner = new ScriptRunner(group, tools, options, `${capture.id}-step`);
      runner.localFiles = localFiles;
      let failure: string | null = null;
      await runner.runAll(capture.page.steps, (outcome) => {
        if (!outcome.ok && !outcome.skipped && !failure) failure = `step ${outcome.step} (line ${outcome.line}, ${outcome.tool}) failed: ${JSON.stringify(outcome.error)}`;
      });
      if (failure) throw new Error(failure);
    }
    if (capture.page.waitFor) await waitFor(tab, capture.page.waitFor, options.timeoutAction);
    if (capture.page.steps.length || capture.page.waitFor) phases.mark('steps');
    return { group, tab };
  } catch (error) {
    await group.dispose();
    throw error;
  }
}

/**
 * Makes the loaded page still and captures until two consecutive screenshots are the same bytes. The tab's window
 * is made the active one first, as it is when a worker loads one page at a time.
 */
export async function shootCapture(loaded: Loaded, network: NetworkWatch, capture: Capture, timeout: number, phases: Phases): Promise<Shot> {
  const { tab } = loaded;
  await tab.bringToFront();
  let missing = await makeStill(tab, network, capture.page.mask, timeout);
  phases.mark('still');
  let previous = await screenshot(tab, capture.page.fullPage);
  for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
    // Settle again before every capture: masks are measured anew (a masked clock may have just got its text, or
    // a script may have started an animation), so two equal captures mean the masked page, not stale boxes. Two
    // frames pass first: shots ~14 ms apart could both fall between two updates of a page that animates.
    missing = await makeStill(tab, network, capture.page.mask, timeout, SHOT_GAP_FRAMES);
    const current = await screenshot(tab, capture.page.fullPage);
    if (current.equals(previous)) {
      phases.mark('shots', `x${attempt + 1}`);
      assertMasksFound(missing);
      return { png: current, stable: true };
    }
    previous = current;
  }
  phases.mark('shots', `x${MAX_ATTEMPTS}`);
  assertMasksFound(missing);
  return { png: previous, stable: false };
}
