import { EventEmitter } from 'node:events';
import type { BrowsingContext, Network } from 'webdriver-bidi-protocol';
import type { BidiLink } from '../../bidi/connection.js';
import type { RequestEnd } from '../tab/network-log.js';
import { makeOutputDir } from './output.js';
import type { NavigationEvent } from '../tab/tab.js';
import { tabOf, type TabHandle } from '../tab/handle.js';

export interface Download {
  /** BiDi download id. */
  id: string;
  url: string;
  suggestedFilename: string;
  /** refused: over the session's download quota (see `refused`); a file that was written anyway is deleted. */
  status: 'in_progress' | 'complete' | 'canceled' | 'refused';
  /** Why it was refused. */
  refused?: string;
  /** Absolute path in the output dir once complete. */
  path?: string;
  startedAt: number;
}

/**
 * The id that ties a download's end to its start. Firefox ESR 153 leaves out the spec's `download` id and sends the
 * navigation id, which the downloads of one click share (or null): the navigation, context and URL stand in for it.
 */
export function downloadIdOf(event: BrowsingContext.DownloadWillBeginParams | BrowsingContext.DownloadEndParams): string {
  const given = event as { download?: string; navigation: string | null };
  // One click's downloads can share a navigation id: the URL tells them apart.
  return given.download ?? `${given.navigation ?? ''} ${event.context} ${event.url}`;
}

/** A tab's downloads: the Browser hands it the begin and end of each download the tab started. */
export class DownloadLog extends EventEmitter<{ begin: [Download]; end: [Download] }> {
  began(event: BrowsingContext.DownloadWillBeginParams): Download {
    const download: Download = { id: downloadIdOf(event), url: event.url, suggestedFilename: event.suggestedFilename, status: 'in_progress', startedAt: event.timestamp };
    this.emit('begin', download);
    return download;
  }

  /** `refused`: why the download quota refused it (its file, if any, is already deleted). */
  ended(download: Download, status: 'complete' | 'canceled', path: string | undefined, refused: string | null): void {
    download.status = refused ? 'refused' : status;
    if (refused) download.refused = refused;
    else if (path) download.path = path;
    this.emit('end', download);
  }
}

/** Sends the downloads of these user contexts (of all, without) into `dir`, made private to this user first. */
export async function routeDownloads(bidi: BidiLink, dir: string, userContexts?: [string, ...string[]]): Promise<void> {
  await makeOutputDir(dir);
  await bidi.send('browser.setDownloadBehavior', { downloadBehavior: { type: 'allowed', destinationFolder: dir }, ...(userContexts ? { userContexts } : {}) });
}

export interface DownloadWatchOptions {
  /** How long to keep listening after `work` settles, for a download its response starts a little later. */
  settleMs?: number;
  /** How long to wait for downloads that began to finish (they are reported in progress after that). */
  finishMs?: number;
  /**
   * When `work` started a document load in the tab, how long to wait for that load to end or turn into a
   * download: a download link is a navigation whose response turns out to be a file.
   */
  navigationWaitMs?: number;
}

/**
 * Runs `work` (a click, a key press, a navigation) and reports the downloads the tab began meanwhile, after
 * waiting for them to finish: the action that triggered a download can then say where the file is.
 */
export async function downloadsDuring<T>(
  handle: TabHandle,
  work: () => Promise<T>,
  options: DownloadWatchOptions & {
    /** The work's result says it started a document load that may not have reached the network yet: wait for it. */
    expectsLoad?: (result: T) => boolean;
  } = {},
): Promise<{ result: T; downloads: Download[]; /** A document load in the tab ended with a page or a file it shows (with navigationWaitMs). */ pageLoaded: boolean }> {
  const tab = tabOf(handle);
  const { settleMs = 0, finishMs = 10_000, navigationWaitMs = 0 } = options;
  const state = tab.downloads;
  const begun: Download[] = [];
  const loads = new Set<string>();
  let loadsSeen = 0;
  let pageLoaded = false;
  /** A document load ended with a response that is not a page: an attachment, or a type Firefox may show or save. */
  let fileResponse: 'attachment' | 'other' | null = null;
  /** The tab committed a new document: a file it shows inline (text, an image, JSON) is not a download. */
  let committed = false;
  let wake: (() => void) | null = null;
  const onBegin = (download: Download) => {
    begun.push(download);
    wake?.();
  };
  const onNavigation = (kind: NavigationEvent[0]) => {
    if (kind !== 'committed') return;
    committed = true;
    wake?.();
  };
  // The download event follows the file's response by a moment (longer on a busy machine).
  const awaitsDownload = () => begun.length === 0 && (fileResponse === 'attachment' || (fileResponse === 'other' && !committed));
  const loadEnded = (event: RequestEnd) => {
    if (event.context !== tab.context || !loads.delete(event.request.request) || loads.size > 0) return;
    const response = 'response' in event ? event.response : undefined;
    const attachment = response?.headers.some((h) => h.name.toLowerCase() === 'content-disposition' && /attachment/i.test(h.value.type === 'string' ? h.value.value : ''));
    const page = response !== undefined && /^(text\/html|application\/xhtml)/.test(response.mimeType) && !attachment;
    if (page && response.status !== 204) pageLoaded = true;
    if (response && !page) fileResponse = attachment ? 'attachment' : 'other';
    // A page gets a short grace for a download it starts at once; a file is waited for below.
    if (page) setTimeout(() => wake?.(), 50);
    else wake?.();
  };
  const onStarted = (event: Network.BeforeRequestSentParameters) => {
    if (event.context !== tab.context || event.request.destination !== 'document') return;
    loads.add(event.request.request);
    loadsSeen++;
    committed = false;
    wake?.();
  };
  if (navigationWaitMs) {
    tab.network.on('started', onStarted);
    tab.network.on('ended', loadEnded);
    tab.on('navigation', onNavigation);
  }
  state.on('begin', onBegin);
  let result: T;
  try {
    result = await work();
    // A click's navigation starts a moment after the click returns: listen a little longer for one (or a download).
    if (settleMs > 0 && loads.size === 0 && begun.length === 0) await pause(settleMs, (wakeUp) => (wake = wakeUp));
    // The page saw the navigation start, but on a busy machine its request can reach the network after the work
    // returned: wait for it (or its download) so the answer is the new page, not "no change".
    if (loadsSeen === 0 && begun.length === 0 && navigationWaitMs && options.expectsLoad?.(result)) {
      await pause(navigationWaitMs, (wakeUp) => (wake = () => (loadsSeen > 0 || begun.length > 0 ? wakeUp() : undefined)));
    }
    if (loads.size > 0 && begun.length === 0) await pause(navigationWaitMs, (wakeUp) => (wake = () => loads.size === 0 || begun.length > 0 ? wakeUp() : undefined));
    // The file's load ended (maybe while the action ran): wait for its download to begin, unless the tab showed it.
    if (awaitsDownload()) await pause(5_000, (wakeUp) => (wake = () => (awaitsDownload() ? undefined : wakeUp())));
    wake = null;
  } finally {
    state.off('begin', onBegin);
    tab.network.off('started', onStarted);
    tab.network.off('ended', loadEnded);
    tab.off('navigation', onNavigation);
  }
  if (begun.length > 0) await finished(state, begun, finishMs);
  // A file the tab shows (an image, JSON, text) is a page too.
  const shown = fileResponse === 'other' && committed;
  return { result, downloads: begun.map((download) => ({ ...download })), pageLoaded: (pageLoaded || shown) && begun.length === 0 };
}

function pause(ms: number, setWake: (wakeUp: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    setWake(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function finished(state: DownloadLog, downloads: Download[], timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => downloads.every((download) => download.status !== 'in_progress');
    if (done()) return resolve();
    const timer = setTimeout(finish, timeoutMs);
    function onEnd() {
      if (done()) finish();
    }
    function finish() {
      clearTimeout(timer);
      state.off('end', onEnd);
      resolve();
    }
    state.on('end', onEnd);
  });
}

/** One line for an action's result: where each download went (or that it is still running / was canceled). */
export function describeDownloads(downloads: Download[]): string {
  return downloads
    .map((download) => {
      if (download.status === 'complete') return `Downloaded ${download.suggestedFilename} to ${download.path ?? '(path unknown)'}`;
      if (download.status === 'canceled') return `Download of ${download.suggestedFilename} was canceled`;
      if (download.status === 'refused') return `Download of ${download.suggestedFilename} refused: ${download.refused}`;
      return `Download of ${download.suggestedFilename} is still in progress`;
    })
    .join('\n');
}
