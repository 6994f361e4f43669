// Every page operation with its arguments and result: the one map both sides of a page call are typed by.
import type { PageInfo, FieldResult, FileInputInfo, PageText, NodeIdentity, GuardArgs, OriginStorage, StillArgs } from './page-common.js';
import type { AimResult, DeltaFinishRequest, PrepareArgs, ActionPreparation, ConcludeArgs, ActionConclusion, PressCheckArgs, PressCheck, FocusCheck, TypeAlongArgs, TypeAlongResult } from './page-action.js';
import type { PageSnapshot, ActionTarget, ElementSummary, PageFindResult, PageDelta, QuietArgs, QuietReport, WaitForArgs, WaitForReport } from './page-snapshot.js';

/** An element of a document by its page-local id (`id` and `localId` name the same thing in older operations). */
interface DocElement {
  docId: string;
  id: number;
}

/**
 * Every operation the server may call in the sandbox: its argument and its result, one map for both sides.
 * `Tab.callPage` takes only these names and types; src/page/operations.ts must implement exactly these (it is
 * checked against this map with `satisfies`). Arguments and results cross as JSON.
 */
export interface PageOperations {
  pageInfo: { args: Record<string, never>; result: PageInfo };
  snapshot: { args: { mode: 'visible' | 'all' | 'interactive'; depth?: number; maxChars: number; root?: DocElement }; result: PageSnapshot };
  describeRef: { args: DocElement; result: ElementSummary };
  /** --confirm-actions: what a click (ref or point) or a key (focused) would act on; null when nothing is there. */
  describeTarget: { args: { ref?: DocElement; point?: { x: number; y: number }; focused?: boolean }; result: ActionTarget | null };
  find: { args: { query: string; maxResults: number }; result: PageFindResult };
  listFrames: { args: Record<string, never>; result: { docId: string; ids: number[] } };
  frameOrigin: { args: DocElement; result: { x: number; y: number } };
  deltaStart: { args: { token: string }; result: { docId: string } };
  /**
   * deltaStart in a same-origin child frame for an action in its parent: only when the frame is in the parent's
   * viewport (null otherwise); `name` says which frame (its title, label, name or id).
   */
  deltaStartFrame: { args: { token: string }; result: { docId: string; name: string } | null };
  deltaFinish: { args: DeltaFinishRequest; result: PageDelta };
  pageText: { args: { root?: DocElement }; result: PageText };
  /** The elements come as BiDi shared references (PageCallOptions.nodes), not in the JSON argument. */
  identify: { args: Record<string, never>; result: Array<NodeIdentity | null> };
  setFieldValue: { args: { docId: string; localId: number; value: string | number | boolean | string[] }; result: FieldResult };
  /**
   * form_input in one call, for a field of the top-level document: the delta's watch started (as deltaStart), the
   * field set (as setFieldValue), and the page's answer read (as deltaFinish).
   */
  setFieldValueWatched: {
    args: { field: { docId: string; localId: number; value: string | number | boolean | string[] }; start: { token: string }; finish: DeltaFinishRequest };
    result: { field: FieldResult; docId: string; delta: PageDelta };
  };
  fileInputs: { args: Record<string, never>; result: FileInputInfo[] };
  fileInput: { args: { docId: string; localId: number }; result: FileInputInfo };
  prepareAction: { args: PrepareArgs; result: ActionPreparation };
  concludeAction: { args: ConcludeArgs; result: ActionConclusion };
  /** prepareAction then concludeAction in one call, sent just before the keys of a type into a focused field. */
  typeAlong: { args: TypeAlongArgs; result: TypeAlongResult };
  releaseKeys: { args: { token: string }; result: { released: boolean } };
  focusCheck: { args: { ref: GuardArgs; waitMs?: number; caretToEnd?: boolean; token?: string }; result: FocusCheck };
  pressCheck: { args: PressCheckArgs; result: PressCheck };
  scrollRefIntoView: { args: GuardArgs; result: AimResult };
  waitQuiet: { args: QuietArgs; result: QuietReport };
  waitFor: { args: WaitForArgs; result: WaitForReport };
  /** Ends the document's waitFor calls (not met): their MCP call was cancelled. */
  cancelWaits: { args: Record<string, never>; result: { cancelled: number } };
  /** Puts `text` on the clipboard through a copy command; needs a user activation (PageCallOptions.userActivation). */
  copyText: { args: { text: string }; result: { copied: boolean } };
  /** The document's origin and localStorage; null where storage is denied. */
  readLocalStorage: { args: Record<string, never>; result: OriginStorage | null };
  /** Writes the items into localStorage if the document is of that origin. */
  writeLocalStorage: { args: OriginStorage; result: { written: boolean } };
  /** regress: animations off, caret hidden, masks painted, scroll at the top, fonts loaded; the masks that matched nothing. */
  makeStill: { args: StillArgs; result: { missing: string[] } };
  /** regress's wait_for step: a selector with a box, or text in the body's innerText, within `timeout` ms. */
  appeared: { args: { selector?: string; text?: string; timeout: number }; result: { found: boolean } };
  /** Test and bench helpers (the test_* tools). */
  localIdForSelector: { args: { selector: string }; result: { docId: string; localId: number } | null };
  textOfSelector: { args: { selector: string }; result: string | null };
}

export type PageOperationName = keyof PageOperations;
export type PageArgs<Op extends PageOperationName> = PageOperations[Op]['args'];
export type PageResult<Op extends PageOperationName> = PageOperations[Op]['result'];
