// Post-action deltas on the server side. A DeltaWatch starts a MutationObserver in the page before an action;
// finish() renders only what the action changed (the target, what appeared, `- removed: …` lines) and names a
// menu, listbox or dialog it opened. When the action loaded another document, finish() returns a capped full
// snapshot instead.
import { isToolError } from '../../errors.js';
import type { DeltaFinishRequest, FieldResult, PageDelta } from '../../contract/index.js';
import { untilPage } from '../tab/navigation.js';
import { SETTLE_MAX_MS, settleTab } from './settle.js';
import { DEFAULT_MAX_CHARS, globalizeRefs, snapshotTab } from './snapshot.js';
import type { Tab } from '../tab/tab.js';
import { tabOf, type TabHandle } from '../tab/handle.js';
import { lookupRef, staleRef } from '../tab/resolve.js';
import { setFieldValue } from '../tab/page-queries.js';

export interface OpenedPopup {
  ref: string;
  role: string;
  name: string;
  /** The control that opened it (aria-expanded/aria-controls, else the action's target). */
  opened_by?: string;
  /** Refs of its items (menu items, options), at most 30. */
  items: string[];
  /** The items' snapshot lines (with refs), for the reply when the delta's lines lack them. */
  item_lines: string[];
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
  /** What was still moving when the wait for the page to settle ran out. */
  unsettled?: string;
}

export interface DeltaFinishOptions {
  /** The action's target, rendered first (with its new state). */
  targetRef?: string;
  maxChars?: number;
  /** Longest wait for the page to go quiet, ms (default 100). */
  settleMs?: number;
  /** Wait this long for a first change when the action made none (hover: a tooltip's show delay), ms. */
  lingerMs?: number;
  /**
   * Read a watch that may have been read already (by a read-back that ran late): everything since the action began,
   * and the watch ends.
   */
  again?: boolean;
  /**
   * Answers of deltaFinish that other page calls bring back, by context (null: that document was not the
   * watched one any more; undefined: no answer). Those contexts are not called again.
   */
  joined?: Map<string, Promise<PageDelta | null | undefined>>;
}

export interface DeltaHandle {
  finish(options?: DeltaFinishOptions): Promise<DeltaOutcome>;
  /**
   * The outcome when the action's navigation began only after finish() had read the old document (a form
   * submission): waits for the new document, then a capped full snapshot.
   */
  afterNavigation(options?: Pick<DeltaFinishOptions, 'maxChars'>): Promise<DeltaOutcome>;
}

let tokens = 0;

/** Child frames watched for an action in the top document, at most. */
const SIDE_FRAMES_MAX = 4;

function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' || parsed.protocol === 'file:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/** Longest wait for an action's transitions and animations to end before its delta is read, ms. */
const ANIMATION_MAX_MS = 2_000;
/** Characters kept for the line that says the delta was cut. */
const CUT_ROOM = 80;
/** Longest wait for the requests an action started to answer before its delta is read again, ms. */
const NETWORK_MAX_MS = 3_000;
/** How long a second read waits for the page to show a request's answer once the network has it. */
const ANSWER_LINGER_MS = 200;

/**
 * One action's watch over the tab's top-level document and, when the action aims into a frame, that frame's.
 * Its start and finish can ride on other page calls to the same documents (`startArgs`, `finishArgs`), so an
 * action costs no extra round trip for its delta; contexts not joined that way are called on their own.
 */
export class DeltaWatch implements DeltaHandle {
  readonly token = `d${++tokens}-${Date.now().toString(36)}`;
  /** When the watch was made, just before the action: requests started since then are the action's. */
  readonly startedAt = Date.now();
  /** context → the watched document (null: the watch could not start there). */
  private readonly started = new Map<string, string | null>();

  /** keys: the action is keyboard input, so the focused field's value is shown (it changes as a property). */
  constructor(
    private readonly tab: Tab,
    private readonly kind: { keys?: boolean } = {},
  ) {
    // A new watch replaces the page's: one kept for a dialog's answer could no longer be read.
    tab.dialogWatch = null;
  }

  get startArgs(): { token: string } {
    return { token: this.token };
  }

  /**
   * Frames watched for an action in their parent, by context: the name their lines go under. The action's own
   * frame is not one of them (its lines are the action's).
   */
  readonly sideFrames = new Map<string, string>();

  /** Records that another page call started the watch in `context` (its answer's `delta`). */
  joinedStart(context: string, started: { docId: string } | undefined): void {
    this.started.set(context, started?.docId ?? null);
    this.sideFrames.delete(context);
  }

  /**
   * Starts the watch in the tab's same-origin child frames that are in view (a toolbar click in the top document
   * changes an editor's frame), sent alongside the aim's own call: one call per such frame, none on a page without.
   * Cross-origin frames are left out: a page cannot change them by a click of its own.
   */
  async watchFrames(): Promise<void> {
    const origin = originOf(this.tab.lastUrl);
    if (!origin) return;
    const frames = this.tab.contexts.children(this.tab.context).filter((node) => node.url === 'about:blank' || node.url === 'about:srcdoc' || originOf(node.url) === origin);
    await Promise.all(
      frames.slice(0, SIDE_FRAMES_MAX).map(async ({ id: context }) => {
        const value = await this.tab.callPage('deltaStartFrame', this.startArgs, { context }).catch((error: unknown) => {
          if (this.tab.isFatal(error, context)) throw error;
          return null;
        });
        // The aim's own call in this frame started it meanwhile: that one holds.
        if (!value || this.started.get(context)) return;
        this.started.set(context, value.docId);
        this.sideFrames.set(context, value.name);
      }),
    );
  }

  /** Starts the watch in each of `contexts` that no other call covered. */
  async startIn(contexts: string[]): Promise<void> {
    await Promise.all(
      contexts
        .filter((context) => !this.started.has(context))
        .map(async (context) => {
          this.started.set(context, null);
          const value = await this.tab.callPage('deltaStart', this.startArgs, { context }).catch((error: unknown) => {
            if (this.tab.isFatal(error, context)) throw error;
            return null;
          });
          this.started.set(context, value?.docId ?? null);
        }),
    );
  }

  /** The deltaFinish request for `context`, for a page call there to carry (ConcludeArgs.delta). */
  finishArgs(context: string, options: DeltaFinishOptions = {}): DeltaFinishRequest | undefined {
    if (!this.started.get(context)) return undefined;
    const target = targetIn(this.tab, options.targetRef);
    const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
    return {
      token: this.token,
      ...(target && target.context === context ? { target: { docId: target.docId, id: target.id } } : {}),
      maxChars,
      settleMs: options.settleMs ?? 100,
      // Transitions the action set off (a dialog closing, rows sliding into place) are waited for, within bounds.
      animationMs: Math.min(ANIMATION_MAX_MS, Math.floor(this.tab.timeouts.action / 2)),
      ...(options.lingerMs ? { lingerMs: options.lingerMs } : {}),
      ...(this.kind.keys ? { focusedField: true } : {}),
      ...(options.again ? { again: true } : {}),
    };
  }

  finish(options: DeltaFinishOptions = {}): Promise<DeltaOutcome> {
    return finishDelta(this.tab, this, options);
  }

  afterNavigation(options: Pick<DeltaFinishOptions, 'maxChars'> = {}): Promise<DeltaOutcome> {
    return fullSnapshot(this.tab, options.maxChars ?? DEFAULT_MAX_CHARS, this.started.get(this.tab.context) ?? undefined);
  }

  /** Watched contexts, the top-level one first. */
  entries(): Array<{ context: string; docId: string | null }> {
    const top = this.tab.context;
    return [...this.started].map(([context, docId]) => ({ context, docId })).sort((a, b) => (a.context === top ? -1 : b.context === top ? 1 : 0));
  }
}

function targetIn(tab: Tab, targetRef: string | undefined): { context: string; docId: string; id: number } | undefined {
  if (!targetRef || !tab.refs.has(targetRef, tab.id)) return undefined;
  try {
    const found = tab.refs.lookup(targetRef, tab.id);
    return { context: found.frameContext, docId: found.docId, id: found.localId };
  } catch {
    return undefined;
  }
}

async function finishDelta(tab: Tab, watch: DeltaWatch, options: DeltaFinishOptions): Promise<DeltaOutcome> {
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  const askedAt = Date.now();
  const entries = watch.entries().filter((entry) => entry.docId !== null);
  if (entries[0]?.context !== tab.context) return fullSnapshot(tab, maxChars);
  // Every document answers at once; a frame that fails is left out, the top-level document's failure is the call's.
  const answers = entries.map((entry) => {
    const joined = options.joined?.get(entry.context);
    if (joined) return joined;
    // Every entry left started its watch, so it has a finish request.
    return tab.callPage('deltaFinish', watch.finishArgs(entry.context, options)!, { context: entry.context }).catch((error: unknown) => {
      if (isToolError(error) && (error.code as string) === 'delta_lost') return null;
      if (entry.context !== tab.context) return undefined;
      throw error;
    });
  });
  for (const answer of answers) answer.catch(() => undefined);
  const pages: Array<{ context: string; page: PageDelta | null | undefined }> = [];
  for (const [index, entry] of entries.entries()) pages.push({ context: entry.context, page: await answers[index] });
  // The watched document is gone: a new one is coming (or came); the old docId tells them apart.
  if (pages[0]!.page === null) return fullSnapshot(tab, maxChars, entries[0]?.docId ?? undefined);
  const outcome = assemble(tab, pages, maxChars, watch.sideFrames);
  // Requests the action started (a form's fetch, Swagger's Execute): their answers change the page after the
  // first read. Wait for them, within bounds, and read the page again.
  const started = tab.network.startedSince(watch.startedAt, askedAt);
  if (started.loading + started.answered === 0) return outcome;
  const bound = Math.min(NETWORK_MAX_MS, Math.floor(tab.timeouts.action / 2));
  const deadline = Date.now() + bound;
  while (tab.network.startedSince(watch.startedAt, askedAt).loading > 0 && Date.now() < deadline) await sleep(25);
  const loading = tab.network.startedSince(watch.startedAt, askedAt).loading;
  // An answered request reaches the page's script a little after the network says so (more so under load): the
  // second read lingers, bounded, for a change beyond the first read's.
  const againCall = tab
    .callPage('deltaFinish', { ...watch.finishArgs(tab.context, options)!, again: true, lingerMs: loading > 0 ? 0 : ANSWER_LINGER_MS }, { context: tab.context })
    .catch((error: unknown) => {
      if (tab.isFatal(error)) throw error;
      return null;
    });
  const again = await tab.orWhenReplaced(againCall, null);
  // The document went away meanwhile (a navigation the answer caused), or the watch ended: keep the first read.
  if (!again) return outcome;
  pages[0] = { context: tab.context, page: again };
  const reread = assemble(tab, pages, maxChars, watch.sideFrames);
  if (loading > 0) {
    const still = `${loading} request${loading === 1 ? '' : 's'} the action started ${loading === 1 ? 'was' : 'were'} still loading after ${(bound / 1000).toFixed(1)} s`;
    reread.unsettled = reread.unsettled ? `${reread.unsettled}; ${still}` : still;
  }
  return reread;
}

/** The outcome from the documents' answers, the top-level document first, cut at maxChars. */
function assemble(tab: Tab, pages: Array<{ context: string; page: PageDelta | null | undefined }>, maxChars: number, sideFrames: Map<string, string>): DeltaOutcome {
  const lines: string[] = [];
  let popup: OpenedPopup | undefined;
  let truncated = false;
  let cutHere = false;
  let unsettled: string | undefined;
  let chars = 0;
  for (const { context, page } of pages) {
    if (!page) continue;
    // A frame's changes by an action in its parent go under a line that says which frame.
    const frame = sideFrames.get(context);
    const own = frame !== undefined && page.lines.length ? [`- in iframe${frame ? ` ${JSON.stringify(frame)}` : ''}:`, ...page.lines.map((line) => `  ${line}`)] : page.lines;
    for (const line of own) {
      const text = globalizeRefs(tab, context, page.docId, line);
      if (chars + text.length + 1 > maxChars - CUT_ROOM) {
        truncated = true;
        cutHere = true;
        break;
      }
      lines.push(text);
      chars += text.length + 1;
    }
    truncated ||= page.truncated;
    unsettled ??= page.unsettled;
    if (page.popup && !popup) {
      const refFor = (id: number) => tab.refs.refFor(tab.id, context, page.docId, id);
      popup = {
        ref: refFor(page.popup.id),
        role: page.popup.role,
        name: page.popup.name,
        ...(page.popup.openedBy !== undefined ? { opened_by: refFor(page.popup.openedBy) } : {}),
        items: page.popup.items.map(refFor),
        item_lines: page.popup.itemLines.map((line) => globalizeRefs(tab, context, page.docId, line)),
      };
    }
  }
  // A cut the page did not already announce (the documents' lines together ran over): say so.
  if (cutHere && !lines.some((line) => line.startsWith('- (delta cut'))) lines.push(`- (delta cut at ${maxChars} chars; read_page shows the rest)`);
  return { delta: lines.join('\n'), navigated: false, truncated, ...(popup ? { opened_popup: popup } : {}), ...(unsettled ? { unsettled } : {}) };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * After a navigation: the new document (another docId than `oldDocId`, when given) is read as navigate reads one,
 * once loaded (deferred scripts run after parsing: Sphinx's search page loads its index that way and renders the
 * results) and settled, within bounds, said when hit; then a capped full snapshot.
 */
async function fullSnapshot(tab: Tab, maxChars: number, oldDocId?: string): Promise<DeltaOutcome> {
  const deadline = Date.now() + SETTLE_MAX_MS;
  // Looked at again on the tab's navigation events (the new document's load), not on a timer. A page busy in its
  // own script answers no call: the wait for it to load stays within its bound.
  const { done: loaded } = await untilPage(
    tab,
    deadline,
    (info) => info.readyState === 'complete' && (oldDocId === undefined || info.docId !== oldDocId),
    () => Math.max(250, deadline - Date.now()),
  );
  const settle = loaded ? await settleTab(tab, Math.min(SETTLE_MAX_MS, tab.timeouts.navigation)) : { settled: false, waitedMs: SETTLE_MAX_MS, busy: 'the page was still loading' };
  const unsettled = settle.settled ? undefined : `${settle.busy} after ${(settle.waitedMs / 1000).toFixed(1)} s`;
  const askedAt = Date.now();
  try {
    const snap = await snapshotTab(tab, { maxChars });
    // Cut to the reply's room: said as navigate says it, with where to read on.
    const delta = snap.truncated && snap.hint ? `${snap.snapshot}\ntruncated: ${snap.hint}` : snap.snapshot;
    return { delta, navigated: true, truncated: snap.truncated, url: snap.url, title: snap.title, ...(unsettled ? { unsettled } : {}) };
  } catch (error) {
    if (!isToolError(error, 'timeout')) throw error;
    // The action is done and a new page is there, but its own script holds it (a search over a large index, under
    // load): say so and where the tab is, rather than fail an action whose effect is known.
    const url = await tab.currentUrl(1_000).catch(() => undefined);
    const waited = ((Date.now() - askedAt) / 1000).toFixed(1);
    return {
      delta: `- (the new page did not answer for ${waited} s: its own script kept it busy. Take a screenshot, or read_page once it is done.)`,
      navigated: true,
      truncated: false,
      ...(url !== undefined ? { url, title: '' } : {}),
    };
  }
}

/**
 * Runs a write that is not input (form_input sets a value by script) under a watch of the tab's document and
 * `frame`'s, and says what the page did in answer: its heading, title, an enabled button.
 */
export async function watchWhile<T>(handle: TabHandle, frame: string, write: () => Promise<T>, options: DeltaFinishOptions = {}): Promise<{ value: T; outcome: DeltaOutcome | null }> {
  const tab = tabOf(handle);
  const watch = new DeltaWatch(tab);
  await watch.startIn([...new Set([tab.context, frame])]);
  const value = await write();
  // The write happened: a delta that cannot be read (a frame gone) must not turn it into a failure.
  const outcome = await watch.finish(options).catch((error: unknown) => {
    if (tab.isFatal(error)) throw error;
    return null;
  });
  return { value, outcome };
}

/**
 * form_input's write with its delta. In the top-level document it is one page call (the watch started, the field
 * set, the page's answer read: three round trips were most of the tool's time); in a frame, watchWhile watches the
 * top document too. A ref the page finds stale comes back as ref_stale with its reason, as resolveRef words it.
 */
export async function setFieldWatched(
  handle: TabHandle,
  ref: string,
  value: string | number | boolean | string[],
): Promise<{ value: FieldResult; outcome: DeltaOutcome | null }> {
  const tab = tabOf(handle);
  const target = lookupRef(handle, ref);
  const field = { docId: target.docId, localId: target.localId, value };
  if (target.frameContext !== tab.context) {
    return watchWhile(handle, target.frameContext, () => setFieldValue(handle, target, value).catch((error: unknown) => Promise.reject(staleRef(handle, ref, error))));
  }
  const watch = new DeltaWatch(tab);
  watch.joinedStart(tab.context, { docId: target.docId });
  const answer = await tab
    .callPage('setFieldValueWatched', { field, start: watch.startArgs, finish: watch.finishArgs(tab.context)! }, { context: tab.context, write: true })
    .catch((error: unknown) => Promise.reject(staleRef(handle, ref, error)));
  // The write happened: a delta that cannot be read must not turn it into a failure.
  const outcome = await watch.finish({ joined: new Map([[tab.context, Promise.resolve(answer.delta)]]) }).catch((error: unknown) => {
    if (tab.isFatal(error)) throw error;
    return null;
  });
  return { value: answer.field, outcome };
}
