// What a tool may hold of a tab: reading its state and logs, asking it for a page's facts, screenshots, answering a
// dialog. The browser's own mutators (markClosed, setDialog, raw performActions, callPage by name) stay on Tab,
// reached only inside src/browser: a function there that needs the whole tab narrows the handle with `tabOf`.
import type { BrowsingContext, Script } from 'webdriver-bidi-protocol';
import type { DeltaHandle } from '../observe/delta.js';
import type { ConsoleLog } from './console-log.js';
import type { NetworkLog } from './network-log.js';
import type { ContextTree } from './context-tree.js';
import type { AuthAnswer } from './http-auth.js';
import type { RefRegistry } from './refs.js';
import type { ImageFormat, OpenDialog, Tab, TabTimeouts } from './tab.js';
import type { PersonInput } from './person-input.js';

export interface TabHandle {
  readonly id: number;
  /** The tab's top-level browsing context. */
  readonly context: string;
  readonly timeouts: TabTimeouts;
  readonly deviceScaleFactor: number;
  readonly viewport: { width: number; height: number };
  readonly dialog: OpenDialog | null;
  /** The watch of the action that opened the dialog now open, kept for firefox_dialog's answer. */
  dialogWatch: { watch: DeltaHandle; targetRef?: string } | null;
  readonly isClosed: boolean;
  readonly closeRequested: boolean;
  readonly untouchedBlank: boolean;
  readonly lastTitle: string;
  readonly lastUrl: string;
  readonly console: ConsoleLog;
  readonly network: NetworkLog;
  readonly refs: RefRegistry;
  readonly contexts: ContextTree;
  /** Runs `work` after the tab's earlier calls, before its later ones. */
  serialize<T>(work: () => Promise<T>): Promise<T>;
  /** `work`, unless a dialog opens or the tab goes away first. */
  race<T>(work: Promise<T>): Promise<T>;
  isFatal(error: unknown, context?: string): boolean;
  waitClosed(timeoutMs: number): Promise<boolean>;
  takeAuthAnswers(): AuthAnswer[];
  currentUrl(timeout: number): Promise<string>;
  evaluateInPage(expression: string): Promise<Script.EvaluateResult>;
  elementReference(frameContext: string, docId: string, localId: number): Promise<Script.SharedReference>;
  setFiles(frameContext: string, docId: string, localId: number, files: string[]): Promise<void>;
  answerDialog(accept: boolean, text?: string): Promise<void>;
  setViewport(width: number, height: number, devicePixelRatio?: number): Promise<void>;
  screenshot(clip?: BrowsingContext.ClipRectangle): Promise<Buffer>;
  screenshotBase64(clip?: BrowsingContext.ClipRectangle, origin?: 'viewport' | 'document', format?: ImageFormat, context?: string): Promise<string>;
  printPdf(): Promise<string>;
  /** The person's input during a hand-off (request_human), at a point of the live view's frame; false: a key with no value. */
  personInput(input: PersonInput): Promise<boolean>;
  /** URL and title for the live view, read without touching the page's own realm. */
  liveLook(timeout: number): Promise<{ url: string; title: string }>;
}

/**
 * The Tab behind a handle, for the browser layer's own functions. Tab is the handle's one implementation, so this
 * narrows the type only: no runtime check (unit tests hand in stand-ins that carry what a function reads).
 */
export function tabOf(handle: TabHandle): Tab {
  return handle as Tab;
}
