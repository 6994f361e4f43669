import type { DeltaHandle } from '../observe/delta.js';
import { EventEmitter } from 'node:events';
import type { BrowsingContext, Input, Script } from 'webdriver-bidi-protocol';
import type { BidiLink } from '../../bidi/connection.js';
import { ToolError, isToolError } from '../../errors.js';
import { isPaintRefused, mapBidiError } from '../bidi-errors.js';
import { ConsoleLog } from './console-log.js';
import type { ContextTree } from './context-tree.js';
import { DownloadLog } from '../group/downloads.js';
import { FrameLinks } from './frames.js';
import type { AuthAnswer } from './http-auth.js';
import { loadedUnanswered } from './navigate-unanswered.js';
import { NetworkLog } from './network-log.js';
import type { RefRegistry } from './refs.js';
import type { TabHandle } from './handle.js';
import { PageScripts, type PageCallArgs } from './page-calls.js';
import { frameToViewport, personActions, type PersonInput } from './person-input.js';
import type { ActionPreparation, PageOperationName, PageResult } from '../../contract/index.js';
import { pageUrl } from '../../text-safety.js';

const ACTIVATE_WAIT_MS = 500;

export interface OpenDialog {
  type: BrowsingContext.UserPromptType;
  message: string;
  defaultValue?: string;
  openedAt: number;
  /** The browsing context that raised it (the tab's, or a frame's): where handleUserPrompt must go. */
  context: string;
}

export interface TabTimeouts {
  action: number;
  navigation: number;
}

/** What a tab shares with the other tabs of its browser: the one ref namespace and the tree of contexts. */
export interface TabShared {
  refs: RefRegistry;
  contexts: ContextTree;
  /** --device-scale-factor: the devicePixelRatio the tab keeps (zoom re-renders at another for one capture). */
  deviceScaleFactor: number;
}

/**
 * A navigation of the tab's top-level context, as the Browser routes BiDi's navigation events to it: started,
 * committed (its document is the tab's now), load of that document, fragment (a same-document
 * navigation to an anchor), history (pushState / replaceState: no navigation id) and failed (ended without a
 * document of its own; Firefox ESR 153 has no navigationAborted event and reports an aborted one so).
 */
export type NavigationEvent = ['started' | 'committed' | 'load' | 'fragment' | 'history' | 'failed', BrowsingContext.NavigationInfo];

/** A screenshot's encoding: lossless PNG, or JPEG at a quality of 1-100. */
export type ImageFormat = { type: 'png' } | { type: 'jpeg'; quality: number };

/** Why a tab can no longer be used. */
export type ClosedReason = 'closed_by_tool' | 'closed_by_page' | 'browser_crashed' | 'session_ended';

/**
 * One top-level browsing context as the agent sees it: a small stable id, its dialog, its pointer.
 * Tools reach the page only through this class.
 */
/** A field a type by ref left focus in: its ref, and its aim's point and the page's answer then. */
export interface FocusLeft {
  ref: string;
  point: { x: number; y: number };
  preparation: ActionPreparation;
}

export class Tab extends EventEmitter<{ dialog: [OpenDialog]; closed: [ClosedReason]; navigation: NavigationEvent; blocked: [] }> implements TabHandle {
  private openDialog: OpenDialog | null = null;
  /**
   * The watch of the action that opened the dialog now open, and its target: it goes on recording through the
   * dialog, so firefox_dialog's answer can say what the page did once the dialog closed (a row deleted, "Cancelled").
   */
  dialogWatch: { watch: DeltaHandle; targetRef?: string } | null = null;
  private closed: ClosedReason | null = null;
  /** Where this tab's pointer last was, in viewport CSS pixels; drags without a start begin here. */
  private pointerAt = { x: 0, y: 0 };
  private size: { width: number; height: number };
  /** The last request of this tab that the origin rules refused, so navigate can say origin_blocked. */
  private blocked: { url: string; at: number } | null = null;
  /** tabs_close_mcp asked to close this tab and its beforeunload dialog is waiting for an answer. */
  private closeAsked = false;
  private title = '';
  private url = '';
  /** We opened it on about:blank and nothing has loaded or run in it since (see `untouchedBlank`). */
  private blankAsOpened = false;
  /** Counts what was done to or seen of the page (page calls, input, navigation, dialogs): see `activity`. */
  private touched = 0;
  /** The field the last type by ref left focus in, as of `activity` then (see `swapFocusLeft`). */
  private focusLeft: (FocusLeft & { activity: number }) | null = null;
  /** Queue so calls on one tab run in order while other tabs run in parallel. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly scripts: PageScripts;

  /** The tab's console messages, requests, downloads and iframe links, fed by the Browser. */
  readonly console = new ConsoleLog();
  readonly network = new NetworkLog();
  readonly downloads = new DownloadLog();
  readonly frameLinks = new FrameLinks();
  /** Element refs of every tab of the browser (one namespace), and its tree of contexts. */
  readonly refs: RefRegistry;
  readonly contexts: ContextTree;
  readonly deviceScaleFactor: number;

  constructor(
    readonly id: number,
    readonly context: string,
    private readonly bidi: BidiLink,
    readonly timeouts: TabTimeouts,
    viewport: { width: number; height: number },
    /** The group (MCP session) this tab belongs to. */
    public groupId: string | null,
    shared: TabShared,
  ) {
    super();
    this.size = { ...viewport };
    this.refs = shared.refs;
    this.contexts = shared.contexts;
    this.deviceScaleFactor = shared.deviceScaleFactor;
    this.scripts = new PageScripts(bidi, this);
    this.on('navigation', (kind: NavigationEvent[0], event: NavigationEvent[1]) => {
      this.touched++;
      if (kind === 'started') this.blankAsOpened = false;
      if (kind === 'committed') this.console.documentCommitted(event.url, event.timestamp);
    });
  }

  /** Changes whenever anything may have moved the page's focus since it was read: one number to compare. */
  get activity(): number {
    return this.touched;
  }

  /**
   * The tab is still the about:blank we opened (no opener, no navigation, no script of the agent's since): its URL
   * and title are known without asking the page, whose first call in a new process costs ~50 ms at a cold start.
   */
  /**
   * The engine's typing memory: the field the last type by ref left focus in, if nothing was done to or seen of the
   * page since (`activity`); `next` (the field that holds focus now, or null) is remembered in its place.
   */
  swapFocusLeft(next: FocusLeft | null): FocusLeft | null {
    const left = this.focusLeft;
    this.focusLeft = next && { ...next, activity: this.touched };
    if (!left || left.activity !== this.touched) return null;
    const { activity: _activity, ...field } = left;
    return field;
  }

  get untouchedBlank(): boolean {
    return this.blankAsOpened;
  }

  /** Browser.createTab: the tab was just opened on about:blank, and no init script runs in its documents. */
  noteOpenedBlank(): void {
    this.blankAsOpened = true;
  }

  get dialog(): OpenDialog | null {
    return this.openDialog;
  }

  get closedReason(): ClosedReason | null {
    return this.closed;
  }

  get pointer(): { x: number; y: number } {
    return { ...this.pointerAt };
  }

  /** Records where input left the pointer. */
  movePointer(point: { x: number; y: number }): void {
    this.pointerAt = { x: point.x, y: point.y };
  }

  get viewport(): { width: number; height: number } {
    return { ...this.size };
  }

  get lastBlocked(): { url: string; at: number } | null {
    return this.blocked;
  }

  /** Whether a close with beforeunload was asked and its dialog is still waiting for an answer. */
  get closeRequested(): boolean {
    return this.closeAsked;
  }

  /** The Browser's close sets this while a close waits on the page's beforeunload. */
  noteCloseRequest(asked: boolean): void {
    this.closeAsked = asked;
  }

  get isClosed(): boolean {
    return this.closedReason !== null;
  }

  /** Runs `work` after every earlier call on this tab has finished. */
  serialize<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  markClosed(reason: ClosedReason): void {
    if (this.closed) return;
    this.closed = reason;
    this.emit('closed', reason);
  }

  /** The HTTP authentication challenges of this tab's document loads not yet reported (http-auth.ts answered them). */
  private authAnswers: AuthAnswer[] = [];

  noteAuth(answer: AuthAnswer): void {
    this.authAnswers.push(answer);
    if (this.authAnswers.length > 20) this.authAnswers.shift();
  }

  /** The challenges noted since the last take (navigate reports the last one). */
  takeAuthAnswers(): AuthAnswer[] {
    return this.authAnswers.splice(0);
  }

  noteBlocked(url: string): void {
    this.blocked = { url, at: Date.now() };
    this.emit('blocked');
  }

  /** Resolves true once the tab is closed, false if it still is not after `timeoutMs`. */
  waitClosed(timeoutMs: number): Promise<boolean> {
    if (this.isClosed) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.off('closed', onClosed);
        resolve(false);
      }, timeoutMs);
      const onClosed = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.once('closed', onClosed);
    });
  }

  /**
   * The top document's title as last read by any page call: a page waiting on a dialog cannot be asked, and
   * tabs_context_mcp shows this instead of "(untitled)".
   */
  get lastTitle(): string {
    return this.title;
  }

  /** The URL that went with `lastTitle`. */
  get lastUrl(): string {
    return this.url;
  }

  setDialog(dialog: OpenDialog | null): void {
    this.openDialog = dialog;
    this.touched++;
    if (dialog) this.emit('dialog', dialog);
  }

  assertUsable(): void {
    if (this.closedReason === 'browser_crashed') {
      throw new ToolError('browser_crashed', `Tab ${this.id} was lost when Firefox stopped; open a new tab.`, { tabId: this.id });
    }
    if (this.closedReason) {
      const by = this.closedReason === 'closed_by_page' ? 'the page closed it' : 'it was closed';
      throw new ToolError('tab_closed', `Tab ${this.id} is gone: ${by}.`, { tabId: this.id, reason: this.closedReason });
    }
    if (this.dialog) throw dialogError(this.id, this.dialog);
  }

  /**
   * Whether a failed call in `context` (a frame of this tab, or the tab itself) ends what the caller was doing on
   * this tab: a dialog blocks it, Firefox is gone, or the tab is. A frame that vanished while the tab lives is not
   * fatal: callers leave that frame out and go on.
   */
  isFatal(error: unknown, context = this.context): boolean {
    if (isToolError(error, 'dialog_open') || isToolError(error, 'browser_crashed')) return true;
    return isToolError(error, 'tab_closed') && (this.isClosed || context === this.context);
  }

  /** Calls a page-script operation in the sandbox realm, installing the scripts first if this document lacks them. */
  async callPage<Op extends PageOperationName>(op: Op, ...[args, options = {}]: PageCallArgs<Op>): Promise<PageResult<Op>> {
    const context = options.context ?? this.context;
    this.touched++;
    const value = await this.scripts.call(op, args, options, context);
    const page = value as { title?: unknown; url?: unknown } | null;
    if (context === this.context && page && typeof page === 'object' && typeof page.title === 'string' && typeof page.url === 'string') {
      this.title = page.title;
      this.url = page.url;
    }
    return value;
  }

  /**
   * A BiDi shared reference to the element of a ref's (frame, document, local id), for commands that take an
   * element (input.setFiles). A document without page scripts cannot hold our ids: the ref is then stale.
   */
  elementReference(frameContext: string, docId: string, localId: number): Promise<Script.SharedReference> {
    return this.scripts.elementReference(frameContext, docId, localId);
  }

  /**
   * Resolves with `work`, unless a dialog opens or the tab goes away first: a frozen page must never hold a call
   * until its timeout.
   */
  race<T>(work: Promise<T>): Promise<T> {
    if (this.dialog) {
      work.catch(() => undefined);
      return Promise.reject(dialogError(this.id, this.dialog));
    }
    return new Promise<T>((resolve, reject) => {
      const onDialog = (dialog: OpenDialog) => reject(dialogError(this.id, dialog, true));
      const onClosed = () => {
        try {
          this.assertUsable();
        } catch (error) {
          reject(error);
        }
      };
      this.once('dialog', onDialog);
      this.once('closed', onClosed);
      work.then(resolve, (error: unknown) => reject(mapBidiError(error, this.id))).finally(() => {
        this.off('dialog', onDialog);
        this.off('closed', onClosed);
      });
    });
  }

  /**
   * Resolves with `work`, or with `replaced` once a new top-level document commits: Firefox never answers a call
   * whose document is unloaded while the call awaits (an action's read-back when the click loads a new page).
   */
  orWhenReplaced<T>(work: Promise<T>, replaced: T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const settle = (done: () => void) => {
        this.off('navigation', onNavigation);
        done();
      };
      const onNavigation = (kind: NavigationEvent[0]) => {
        if (kind === 'committed') settle(() => resolve(replaced));
      };
      this.on('navigation', onNavigation);
      work.then(
        (value) => settle(() => resolve(value)),
        (error: unknown) => settle(() => reject(error)),
      );
    });
  }

  /**
   * Makes the tab the active one. Tabs open in the background, and Firefox runs a hidden document's timers at
   * one per second, does not scroll it on wheel input and runs no animation frames; input itself arrives either
   * way. Firefox answers only once the tab it hides has said so: a hung tab in front would hold this call (and so
   * every other tab) for the whole timeout. Our tab is selected by then, so a slow answer is not waited for.
   */
  async bringToFront(): Promise<void> {
    await this.race(this.bidi.send('browsingContext.activate', { context: this.context }, { timeout: Math.min(this.timeouts.action, ACTIVATE_WAIT_MS) })).catch(
      (error: unknown) => {
        if (!isToolError(error, 'timeout')) throw error;
      },
    );
  }

  /** Answers the open dialog (it may be a frame's); no_dialog when it closed meanwhile. Not raced: the dialog is the point. */
  async answerDialog(accept: boolean, text?: string): Promise<void> {
    const dialog = this.dialog;
    if (!dialog) throw new ToolError('no_dialog', `No dialog is open on tab ${this.id}; nothing was done.`, { tabId: this.id });
    try {
      await this.bidi.send(
        'browsingContext.handleUserPrompt',
        { context: dialog.context, accept, ...(text !== undefined ? { userText: text } : {}) },
        { timeout: this.timeouts.action, write: true },
      );
    } catch (error) {
      const mapped = mapBidiError(error, this.id);
      // The dialog went away meanwhile (the page or a navigation closed it).
      if (isToolError(mapped, 'no_dialog')) this.setDialog(null);
      throw mapped;
    }
    if (this.dialog === dialog) this.setDialog(null);
    // A dismissed beforeunload keeps the tab: a close that waited on it is over.
    if (!accept) this.closeAsked = false;
  }

  /** Puts files into the file input of a (frame, document, local id), as a user's pick would. */
  async setFiles(frameContext: string, docId: string, localId: number, files: string[]): Promise<void> {
    const element = await this.elementReference(frameContext, docId, localId);
    this.touched++;
    await this.race(this.bidi.send('input.setFiles', { context: frameContext, element, files }, { timeout: this.timeouts.action, write: true }));
  }

  /** The URL as the browser has it: answers even while the page's main thread is frozen. */
  async currentUrl(timeout: number): Promise<string> {
    const tree = await this.bidi.send('browsingContext.getTree', { root: this.context, maxDepth: 0 }, { timeout });
    return pageUrl(tree.contexts[0]?.url ?? '');
  }

  /**
   * Evaluates code in the page's own realm (its globals, not the sandbox) with a user activation, awaiting a
   * promise; nodes come back as shared references (javascript_tool).
   */
  evaluateInPage(expression: string): Promise<Script.EvaluateResult> {
    this.blankAsOpened = false;
    this.touched++;
    return this.scripts.evaluateInPage(expression);
  }

  /** `context` may be a frame's: input then goes straight into its document, in its viewport's coordinates. */
  performActions(actions: Input.SourceActions[], context = this.context): Promise<void> {
    this.touched++;
    return this.race(this.bidi.send('input.performActions', { context, actions }, { timeout: this.timeouts.action, write: true })).then(() => undefined);
  }

  /**
   * A person's input from the live view (request_human): trusted input at a point of the frame they saw, mapped to
   * viewport CSS pixels. False when the key has no WebDriver value (nothing sent).
   */
  async personInput(input: PersonInput): Promise<boolean> {
    const point = 'at' in input ? frameToViewport(input.at, this.deviceScaleFactor, this.size) : null;
    const actions = personActions(input, point);
    if (!actions) return false;
    try {
      await this.performActions(actions);
    } catch (error) {
      // The person's click opened a dialog: the input went in; the live view shows the dialog for them to answer.
      if (!isToolError(error, 'dialog_open') || !this.dialog) throw error;
    }
    if (point) this.movePointer(point);
    return true;
  }

  /**
   * The URL and title for the live view, read without a page call of ours (the typing memory and `activity` stay as
   * they were): the URL from the browser, the title from a sandbox of its own.
   */
  async liveLook(timeout: number): Promise<{ url: string; title: string }> {
    const title = this.bidi
      .send('script.evaluate', { expression: 'document.title', target: { context: this.context, sandbox: 'firefox-use-live' }, awaitPromise: false }, { timeout })
      .then((result) => (result.type === 'success' && result.result.type === 'string' ? result.result.value : ''))
      .catch(() => this.title);
    const [url, read] = await Promise.all([this.currentUrl(timeout), title]);
    return { url, title: read };
  }

  async releaseActions(context = this.context): Promise<void> {
    await this.bidi.send('input.releaseActions', { context }, { timeout: this.timeouts.action, write: true }).catch(() => undefined);
  }

  /** The page as a PDF (browsingContext.print, backgrounds included), as Firefox sends it: base64. */
  async printPdf(): Promise<string> {
    const printed = await this.race(this.bidi.send('browsingContext.print', { context: this.context, background: true }, { timeout: this.timeouts.navigation }));
    return printed.data;
  }

  async screenshot(clip?: BrowsingContext.ClipRectangle): Promise<Buffer> {
    return Buffer.from(await this.screenshotBase64(clip), 'base64');
  }

  /**
   * The image as Firefox sends it (base64), for callers that pass it straight on; `document` takes the whole page.
   * PNG unless `format` asks for JPEG (quality 1-100). `context`: a frame's, for an element clip inside it.
   */
  async screenshotBase64(
    clip?: BrowsingContext.ClipRectangle,
    origin: 'viewport' | 'document' = 'viewport',
    format: ImageFormat = { type: 'png' },
    context = this.context,
  ): Promise<string> {
    const wire: BrowsingContext.ImageFormat = format.type === 'jpeg' ? { type: 'image/jpeg', quality: format.quality / 100 } : { type: 'image/png' };
    const capture = () =>
      this.race(
        this.bidi.send(
          'browsingContext.captureScreenshot',
          { context, origin, format: wire, ...(clip ? { clip } : {}) },
          { timeout: this.timeouts.action },
        ),
      );
    // Firefox cannot paint a tab whose document is being swapped; a screenshot is a read, so it is tried once more.
    const swapping = isPaintRefused;
    try {
      return (await capture()).data;
    } catch (error) {
      if (!swapping(error)) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    try {
      return (await capture()).data;
    } catch (error) {
      if (!swapping(error)) throw error;
      throw new ToolError('timeout', `Firefox could not paint tab ${this.id} twice in a row: its page was being replaced. Take the screenshot again.`, {
        tabId: this.id,
      });
    }
  }

  async setViewport(width: number, height: number, devicePixelRatio = this.deviceScaleFactor): Promise<void> {
    await this.race(
      this.bidi.send('browsingContext.setViewport', { context: this.context, viewport: { width, height }, devicePixelRatio }, { timeout: this.timeouts.action }),
    );
    this.size = { width, height };
  }

  /** Loads `url` in the tab (`wait`: until which readiness state BiDi answers). */
  async navigateTo(url: string, wait: BrowsingContext.ReadinessState, timeout: number): Promise<void> {
    const command = this.bidi.send('browsingContext.navigate', { context: this.context, url, wait }, { timeout, write: true });
    if (wait !== 'complete') {
      await this.race(command);
      return;
    }
    const unanswered = loadedUnanswered(this);
    // Left unanswered, the command still times out later: nobody is waiting for it then.
    command.catch(() => undefined);
    try {
      await this.race(Promise.race([command, unanswered.loaded]));
    } finally {
      unanswered.dispose();
    }
  }

  /** Goes back (-1) or forward (1) in the tab's history. */
  async traverseHistory(delta: -1 | 1, timeout: number): Promise<void> {
    await this.race(this.bidi.send('browsingContext.traverseHistory', { context: this.context, delta }, { timeout, write: true }));
  }

  /**
   * The child contexts that iframe elements (page-local ids in `docId` of `context`) show, null for one that shows
   * none: in the sandbox, each element's contentWindow comes back from BiDi as `{type: "window", value: {context}}`.
   */
  frameContextsOf(context: string, docId: string, ids: number[]): Promise<Array<string | null>> {
    return this.scripts.frameContextsOf(context, docId, ids);
  }
}

/** A dialog of this type as a reply names it: `an alert dialog`, `a "leave page?" (beforeunload) dialog`. */
export function dialogNoun(type: string): string {
  if (type === 'beforeunload') return 'a "leave page?" (beforeunload) dialog';
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type} dialog`;
}

export function dialogError(tabId: number, dialog: OpenDialog, duringCall = false): ToolError {
  const noun = dialogNoun(dialog.type);
  const what = `${noun[0]!.toUpperCase()}${noun.slice(1)}`;
  return new ToolError(
    'dialog_open',
    `${what} is open on tab ${tabId}${duringCall ? ' (it opened during this call)' : ''}: "${dialog.message}". ` +
      'Call firefox_dialog with action "accept" or "dismiss" before anything else on this tab.',
    {
      tabId,
      dialog: { type: dialog.type, message: dialog.message, ...(dialog.defaultValue !== undefined ? { defaultValue: dialog.defaultValue } : {}) },
    },
  );
}
