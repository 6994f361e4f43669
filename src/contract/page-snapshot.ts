// The page contract for reading a page: snapshots, find, popups, deltas and waits.
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

/**
 * What an action is about to act on, read without touching it (--confirm-actions): the control a click would
 * activate (the element hit, or the button or link around it), or the element keys would go to.
 */
export interface ActionTarget {
  role: string;
  name: string;
  /** A click on it submits a form (a submit button or image input with a form). */
  submits: boolean;
  /** Enter pressed in it submits a form: a text-like input in a form, or a submit button. */
  enterSubmits: boolean;
  /** Where Enter submits: the name of the form's submit button (what a purchase policy reads), when it has one. */
  submitter?: string;
  /** A link's absolute URL. */
  href?: string;
  /** A link with a `download` attribute. */
  download: boolean;
  /** It is a frame: what is inside was not read (another document, perhaps another origin). */
  frame: boolean;
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
  /** A field's current value (textbox, spinbutton, slider, combobox…), cut as in a snapshot line. */
  value?: string;
  /** Its name or value was shortened: read_page with its ref as ref_id gives it whole. */
  cut?: boolean;
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
  /** Count the quiet from this call too (the network just went idle: its response may still be rendered). */
  fromNow?: boolean;
  /** The shorter window for a document no script has changed since it was parsed, ms. */
  parsedQuietMs: number;
  /** The window for a page with nothing scheduled (no timer due within quietMs, no frame, idle or fetch pending), ms. */
  fastQuietMs?: number;
  /** Longest wait, ms. */
  maxMs: number;
}

export interface QuietReport {
  quiet: boolean;
  waitedMs: number;
  /** What still moved when maxMs ran out; loading: a loading indicator was still shown. */
  busy?: 'dom' | 'animations' | 'loading' | 'fonts';
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
