// Shapes of what the page scripts (src/page) return, as the server reads them.
export interface PageInfo {
  /** The registry's id of this document (a new one after each navigation). */
  docId?: string;
  url: string;
  title: string;
  readyState: string;
  viewport: { width: number; height: number };
  scroll: { x: number; y: number };
}

/** What form_input set, as the field now holds it. */
export interface FieldResult {
  /** input[type=…], select, textarea or contenteditable. */
  field: string;
  /** Text, the checked state, or the selected option label(s). Left out for passwords. */
  value?: string | boolean | string[];
  /** A password: its value is never sent back, only its length. */
  masked?: boolean;
  length?: number;
  valid?: boolean;
  validationMessage?: string;
  note?: string;
}

export interface FileInputInfo {
  docId: string;
  localId: number;
  name: string;
  multiple: boolean;
  accept: string;
  disabled: boolean;
  /** Names of the files it holds now. */
  files: string[];
}

/** One document's readable text, whole; each frame's text belongs on its FRAME_MARK line (`\u0001frame:ID\u0001`). */
export interface PageText {
  url: string;
  title: string;
  docId: string;
  text: string;
  /** Local ids of the frame elements whose marks are in the text. */
  frames: number[];
}

/** An element handed to the page: its identity for refs and a short tag for display. */
export interface NodeIdentity {
  docId: string;
  localId: number;
}

/** An action's target as results name it. */
export interface TargetSummary {
  role: string;
  name: string;
  /** tag#id.class */
  selector: string;
  /** Share of the viewport (percent) the element covers, when it is most of it (coordinate aims only). */
  covers?: number;
  /** It is positioned (fixed or absolute) over the page: a mask, a modal backdrop, a transparent layer. */
  overlay?: boolean;
}

/** A ref's element inside its document. */
export interface GuardArgs {
  docId: string;
  localId: number;
  /** Scroll it to the middle of the viewport when it is not fully inside. */
  center?: boolean;
}

export interface PointArgs {
  x: number;
  y: number;
}

/** Where to put the pointer (frame-local viewport pixels) and what is there. */
export interface AimResult {
  point: { x: number; y: number };
  target?: TargetSummary;
  /** The point lands on an iframe (its page-local id and content-box origin): events go to the frame's own document. */
  frame?: { id: number; origin: PointArgs };
  docId: string;
  /**
   * The point is under a tooltip (shown for where the pointer rests now, which leaves with the pointer): the press
   * waits, after the pointer's arrival, for it to go.
   */
  throughTooltip?: true;
}

/** Checks, in a frame's parent, that the iframe shows the frame-local `point` unobstructed in this viewport. */
export interface GateArgs {
  frame: GuardArgs;
  point: PointArgs;
}

export interface GateResult {
  /** The iframe content box's origin in this viewport. */
  origin: PointArgs;
  /** `point` in this viewport. */
  point: PointArgs;
}

/** What deltaFinish takes (see src/page/delta.ts). */
export interface DeltaFinishRequest {
  token: string;
  target?: { docId: string; id: number };
  maxChars: number;
  settleMs: number;
  /** Longest wait for transitions the action set off, ms. */
  animationMs?: number;
  /** Wait this long for a first change (hover: a tooltip's show delay), ms. */
  lingerMs?: number;
  /** A second read once the action's requests answered (the watch kept recording since the first). */
  again?: boolean;
  /** Keyboard input: show the focused field's line (its value changed as a property, unseen by mutations). */
  focusedField?: boolean;
}

export interface DeliveryArgs {
  token: string;
  types: string[];
  ref?: GuardArgs;
  point?: PointArgs;
  /**
   * Typing: the keys must all reach one element, `ref`'s (or, without one, whatever held focus at the first
   * key). Focus moved by the page mid-text is reported; a move right after a Tab or Enter key is the keys' own.
   */
  pin?: boolean;
}

export interface DeliveryReport {
  url: string;
  title: string;
  docId: string;
  /** False when this document never armed the token (the action loaded a new document). */
  found: boolean;
  delivered: boolean;
  seen: string[];
  stray?: string[];
  /** Delivered, but the later events went elsewhere because the page reacted to the first: what happened. */
  after?: string;
  /** Not delivered: where the missing events landed instead (`pointerdown went to generic (div#mask)`). */
  landed?: string;
  /** For key actions: the element that held focus. */
  focus?: TargetSummary;
  /**
   * The document scrolled since the action began (a fragment link, a "back to top" button): by how much, and the
   * element the URL's fragment now points at when that changed too.
   */
  scrolled?: { dx: number; dy: number; to?: string };
}

export interface ScrollReport {
  found: boolean;
  dx: number;
  dy: number;
  /** The box that moved most: "the page" or a description. */
  box?: string;
  page?: boolean;
}

export interface DragReport {
  html5: 'none' | 'dropped' | 'completed' | 'refused';
  dropTarget?: string;
}

export interface PrepareArgs {
  token: string;
  ref?: GuardArgs;
  point?: PointArgs;
  /** Event types to watch for delivery at the aim. */
  watch?: string[];
  /** Event types to watch at whatever holds focus when they arrive (keys). */
  focusWatch?: string[];
  /** Typing: the keys must all reach the ref's element, or the element focused at the first key (DeliveryArgs.pin). */
  focusPin?: boolean;
  /** Event types to watch at the element under a second point (where a drag starts). */
  startWatch?: { point: PointArgs; types: string[] };
  scrollProbe?: boolean;
  dragWatch?: boolean;
  /** This document holds the target's iframe: check it shows the target (frame-local point) unobstructed. */
  gate?: GateArgs;
  /** Start the snapshot delta's watch in this document, in the same call. */
  delta?: { token: string };
}

export interface ActionPreparation {
  aim?: AimResult;
  gate?: GateResult;
  url: string;
  title: string;
  /** The document is hidden (a background tab): wheel input does not scroll it and frames do not run. */
  hidden?: true;
  /** The delta's watch started (deltaStart's answer). */
  delta?: { docId: string };
  /** Focus is on an iframe (this document's id for it): key events go to the frame's document. */
  focusFrame?: { docId: string; id: number };
  /** The drag's start point lies on an iframe or outside this viewport: its press is not watched here. */
  startOnFrame?: true;
  /** Typing or pasting by ref (a ref with focusWatch): the field's focus and caret. */
  typing?: TypingTarget;
  /** Keys without a ref: what held focus before them (named when the keys load a new page, which has no read-back). */
  focused?: TargetSummary;
}

export interface ConcludeArgs {
  token: string;
  need: string[];
  /** Events that must have reached the focused element (see PrepareArgs.focusWatch). */
  focusNeed?: string[];
  /** Events that must have reached the element under the drag's start (see PrepareArgs.startWatch). */
  startNeed?: string[];
  /** Wheel distance asked for, px (the scroll probe stops waiting once all of it has landed). */
  scrollProbe?: { expected: number };
  dragEnd?: PointArgs;
  /** Finish the snapshot delta's watch in this document, in the same call. */
  delta?: DeltaFinishRequest;
  /**
   * Longest wait (ms) for the needed events to arrive first. Input aimed into an out-of-process frame is routed
   * through the parent process and may land after the input command has returned.
   */
  waitMs?: number;
  /**
   * Keys that may scroll the document (Home, End, the page keys, space, arrows): Firefox scrolls after the key
   * events have returned, through the parent process. Wait this long at most (ms) for the document to move, unless
   * a field has focus; a page already at its end costs the whole wait.
   */
  scrollWaitMs?: number;
}

export interface ActionConclusion {
  delivery: DeliveryReport;
  focusDelivery?: DeliveryReport;
  startDelivery?: DeliveryReport;
  scroll?: ScrollReport;
  drag?: DragReport;
  /** The delta's answer; null when this is not the document the watch started in (a new one loaded). */
  delta?: PageDelta | null;
  /** The action started a navigation away from this (top-level) document that had not happened yet. */
  leaving?: true;
}

/** Before the press of a click by ref, once the pointer is over `point` (frame-local): is the target still there? */
export interface PressCheckArgs {
  ref: GuardArgs;
  point: PointArgs;
  /** What the aim found there. */
  was: { role: string; name: string };
  /** How long to wait for something over the point to go (a tooltip leaving with the pointer), ms. */
  waitMs?: number;
}

export interface PressCheck {
  ok: boolean;
  /** What the page changed when the pointer arrived (not ok). */
  changed?: string;
}

/** A `type` by ref's field, read when it is aimed at. */
export interface TypingTarget {
  /** It holds focus already (and its document has it): the keys go in at its caret, with no click. */
  focused?: true;
  /** How the caret goes after its text once a click has focused it (none: an empty field, an editor, not a text field). */
  append?: 'selection' | 'endKey';
}

export interface FocusCheck {
  /** Focus is on the target (or inside it, or on the control it labels). */
  focused: boolean;
  focus?: TargetSummary;
}

/** A subtree the snapshot budget cut, worth asking for with `read_page ref_id`. */
export interface SnapshotHint {
  /** Page-local id (the server turns it into a ref). */
  id: number;
  role: string;
  name: string;
  /** True for a collection item: reading it by ref continues with the items after it. */
  continues: boolean;
}

/** One frame document's snapshot, lines carrying `[ref=#N]` placeholders with page-local ids. */
export interface PageSnapshot {
  docId: string;
  url: string;
  title: string;
  lines: string[];
  /** Iframes in the lines: the child frame's lines go after line `line`, indented to `depth`. */
  frames: { line: number; id: number; depth: number }[];
  /** True when the budget cut the walk. */
  truncated: boolean;
  /** Lines left out by the budget. */
  omitted: number;
  /** Lines left out because they lie above / below the viewport (visible-only mode). */
  above: number;
  below: number;
  /** Lines left out by `depth`. */
  deeper: number;
  hints: SnapshotHint[];
  /** Lines whose name, value or text was shortened (marked `[cut]`). */
  cut: number;
}

/** What `describeRef` says of a live element. */
export interface ElementSummary {
  role: string;
  name: string;
}

/** One `find` match in one frame document. */
export interface PageFindMatch {
  id: number;
  role: string;
  name: string;
  score: number;
  visible: boolean;
  /** Bounding box in this frame's viewport CSS pixels, cut to the scroll containers around it. */
  box: { x: number; y: number; width: number; height: number };
  /** Its scroll containers show none of it. */
  clipped?: boolean;
  /** What is drawn over its centre (then visible is false). */
  coveredBy?: string;
  /** Query words this element does not hold (a partial match). */
  missing?: string[];
  /** Where the words are in its text, when its name does not show them. */
  excerpt?: string;
}

export interface PageFindResult {
  docId: string;
  matches: PageFindMatch[];
  /** Why a number may have no match (a virtualized grid that does not render that row). */
  note?: string;
  /** Candidates scanned, for the record. */
  scanned: number;
}

/** A popup an action opened, with page-local ids. */
export interface PagePopup {
  id: number;
  role: string;
  name: string;
  openedBy?: number;
  items: number[];
  /** The items' snapshot lines (`[ref=#N]` placeholders), for those the delta's lines lack. */
  itemLines: string[];
}

/** The page's answer when a delta is finished. */
export interface PageDelta {
  docId: string;
  lines: string[];
  popup?: PagePopup;
  /** How many mutation records were seen (0: the action changed nothing in the DOM). */
  records: number;
  truncated: boolean;
  /** What was still moving when the settle bound ran out. */
  unsettled?: string;
}

export interface QuietArgs {
  /** The DOM must stay unchanged this long, ms, once scripts have changed it after parsing. */
  quietMs: number;
  /** The shorter window for a document no script has changed since it was parsed, ms. */
  parsedQuietMs: number;
  /** Longest wait, ms. */
  maxMs: number;
}

export interface QuietReport {
  quiet: boolean;
  waitedMs: number;
  /** What still moved when maxMs ran out; loading: a loading indicator was still shown. */
  busy?: 'dom' | 'animations' | 'loading';
  /** The loading indicator still shown (tag#id.class), with busy 'loading'. */
  indicator?: string;
}

export interface WaitForArgs {
  text?: string;
  ref?: { docId: string; id: number };
  /** Wait for the text or element to go away instead of to appear. */
  gone: boolean;
  timeoutMs: number;
}

export interface WaitForReport {
  met: boolean;
  waitedMs: number;
  /** The element that shows the text, when it appeared. */
  element?: { docId: string; id: number };
}

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
  find: { args: { query: string; maxResults: number }; result: PageFindResult };
  listFrames: { args: Record<string, never>; result: { docId: string; ids: number[] } };
  frameOrigin: { args: DocElement; result: { x: number; y: number } };
  deltaStart: { args: { token: string }; result: { docId: string } };
  deltaFinish: { args: DeltaFinishRequest; result: PageDelta };
  pageText: { args: { root?: DocElement }; result: PageText };
  /** The elements come as BiDi shared references (PageCallOptions.nodes), not in the JSON argument. */
  identify: { args: Record<string, never>; result: Array<NodeIdentity | null> };
  setFieldValue: { args: { docId: string; localId: number; value: string | number | boolean | string[] }; result: FieldResult };
  fileInputs: { args: Record<string, never>; result: FileInputInfo[] };
  fileInput: { args: { docId: string; localId: number }; result: FileInputInfo };
  prepareAction: { args: PrepareArgs; result: ActionPreparation };
  concludeAction: { args: ConcludeArgs; result: ActionConclusion };
  focusCheck: { args: { ref: GuardArgs; waitMs?: number; caretToEnd?: boolean }; result: FocusCheck };
  pressCheck: { args: PressCheckArgs; result: PressCheck };
  scrollRefIntoView: { args: GuardArgs; result: AimResult };
  waitQuiet: { args: QuietArgs; result: QuietReport };
  waitFor: { args: WaitForArgs; result: WaitForReport };
  /** Test and bench helpers (the test_* tools). */
  localIdForSelector: { args: { selector: string }; result: { docId: string; localId: number } | null };
  textOfSelector: { args: { selector: string }; result: string | null };
}

export type PageOperationName = keyof PageOperations;
export type PageArgs<Op extends PageOperationName> = PageOperations[Op]['args'];
export type PageResult<Op extends PageOperationName> = PageOperations[Op]['result'];
