// Post-action deltas on the server side. beginDelta starts a MutationObserver in the page before an action;
// finish() renders only what the action changed (the target, what appeared, `- removed: …` lines) and names a
// menu, listbox or dialog it opened. When the action loaded another document, finish() returns a capped full
// snapshot instead.
import { isToolError } from '../errors.js';
import { browserOf } from './frames.js';
import type { PageDelta, PageInfo } from './page-types.js';
import { DEFAULT_MAX_CHARS, globalizeRefs, snapshotTab } from './snapshot.js';
import type { Tab } from './tab.js';

export interface OpenedPopup {
  ref: string;
  role: string;
  name: string;
  /** The control that opened it (aria-expanded/aria-controls, else the action's target). */
  opened_by?: string;
  /** Refs of its items (menu items, options), at most 30. */
  items: string[];
}

export interface DeltaOutcome {
  /** Snapshot lines of what changed, capped at 4,000 characters ('' when nothing changed). */
  delta: string;
  opened_popup?: OpenedPopup;
  /** True when the action loaded another document: `delta` is then a full (capped) snapshot. */
  navigated: boolean;
  /** Where the new document is, when navigated. */
  url?: string;
  title?: string;
  truncated: boolean;
}

export interface DeltaFinishOptions {
  /** The action's target, rendered first (with its new state). */
  targetRef?: string;
  maxChars?: number;
  /** Longest wait for the page to go quiet, ms (default 100). */
  settleMs?: number;
}

export interface DeltaHandle {
  finish(options?: DeltaFinishOptions): Promise<DeltaOutcome>;
  /**
   * The outcome when the action's navigation began only after finish() had read the old document (a form
   * submission): waits for the new document, then a capped full snapshot.
   */
  afterNavigation(options?: Pick<DeltaFinishOptions, 'maxChars'>): Promise<DeltaOutcome>;
}

export interface BeginDeltaOptions {
  /** Also watch this frame (the target's frame) when it is not the top-level one. */
  frameContext?: string;
}

let tokens = 0;

/**
 * Starts watching the tab's top-level document (and `frameContext`, if given) for changes. Call it right before
 * an action and `finish()` right after; costs one page call each way. If it cannot start (the page is busy
 * loading), finish() still works and falls back to a full snapshot.
 */
export async function beginDelta(tab: Tab, options: BeginDeltaOptions = {}): Promise<DeltaHandle> {
  const token = `d${++tokens}-${Date.now().toString(36)}`;
  const contexts = [tab.context];
  if (options.frameContext && options.frameContext !== tab.context) contexts.push(options.frameContext);
  const started = await Promise.all(
    contexts.map((context) =>
      tab
        .callPage<{ docId: string }>('deltaStart', { token }, { context })
        .then((value) => ({ context, docId: value.docId }))
        .catch((error: unknown) => {
          if (isToolError(error, 'dialog_open') || isToolError(error, 'tab_closed') || isToolError(error, 'browser_crashed')) throw error;
          return null;
        }),
    ),
  );
  return {
    finish: (finishOptions) => finishDelta(tab, token, started, finishOptions ?? {}),
    afterNavigation: (finishOptions) => fullSnapshot(tab, finishOptions?.maxChars ?? DEFAULT_MAX_CHARS, started[0]?.docId),
  };
}

async function finishDelta(tab: Tab, token: string, started: ({ context: string; docId: string } | null)[], options: DeltaFinishOptions): Promise<DeltaOutcome> {
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  const browser = browserOf(tab);
  let target: { context: string; docId: string; id: number } | undefined;
  if (options.targetRef && browser.refs.has(options.targetRef)) {
    try {
      const found = browser.refs.lookup(options.targetRef, tab.id);
      target = { context: found.frameContext, docId: found.docId, id: found.localId };
    } catch {
      target = undefined;
    }
  }
  if (!started[0]) return fullSnapshot(tab, maxChars);
  const lines: string[] = [];
  let popup: OpenedPopup | undefined;
  let truncated = false;
  let chars = 0;
  for (const entry of started) {
    if (!entry) continue;
    let page: PageDelta;
    try {
      page = await tab.callPage<PageDelta>(
        'deltaFinish',
        {
          token,
          ...(target && target.context === entry.context ? { target: { docId: target.docId, id: target.id } } : {}),
          maxChars: Math.max(0, maxChars - chars),
          settleMs: options.settleMs ?? 100,
        },
        { context: entry.context },
      );
    } catch (error) {
      if (entry.context === tab.context && isToolError(error) && (error.code as string) === 'delta_lost') {
        return fullSnapshot(tab, maxChars);
      }
      if (entry.context !== tab.context) continue;
      throw error;
    }
    for (const line of page.lines) {
      const text = globalizeRefs(tab, entry.context, page.docId, line);
      if (chars + text.length + 1 > maxChars) {
        truncated = true;
        break;
      }
      lines.push(text);
      chars += text.length + 1;
    }
    truncated ||= page.truncated;
    if (page.popup && !popup) {
      const refFor = (id: number) => browser.refs.refFor(tab.id, entry.context, page.docId, id);
      popup = {
        ref: refFor(page.popup.id),
        role: page.popup.role,
        name: page.popup.name,
        ...(page.popup.openedBy !== undefined ? { opened_by: refFor(page.popup.openedBy) } : {}),
        items: page.popup.items.map(refFor),
      };
    }
  }
  return { delta: lines.join('\n'), navigated: false, truncated, ...(popup ? { opened_popup: popup } : {}) };
}

/**
 * After a navigation: wait (briefly) for the new document (another docId than `oldDocId`, when given) to be
 * parsed, then a capped full snapshot.
 */
async function fullSnapshot(tab: Tab, maxChars: number, oldDocId?: string): Promise<DeltaOutcome> {
  const deadline = Date.now() + 3_000;
  while (Date.now() < deadline) {
    const info = await tab.callPage<PageInfo>('pageInfo').catch((error: unknown) => {
      if (isToolError(error, 'dialog_open') || isToolError(error, 'tab_closed') || isToolError(error, 'browser_crashed')) throw error;
      return null;
    });
    if (info && info.readyState !== 'loading' && (oldDocId === undefined || info.docId !== oldDocId)) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const snap = await snapshotTab(tab, { maxChars });
  return { delta: snap.snapshot, navigated: true, truncated: snap.truncated, url: snap.url, title: snap.title };
}
