// Shapes of what the page scripts (src/page) return, as the server reads them.
export interface PageInfo {
  url: string;
  title: string;
  readyState: string;
  viewport: { width: number; height: number };
  scroll: { x: number; y: number };
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
  /** Bounding box in this frame's viewport CSS pixels. */
  box: { x: number; y: number; width: number; height: number };
}

export interface PageFindResult {
  docId: string;
  matches: PageFindMatch[];
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
}

/** The page's answer when a delta is finished. */
export interface PageDelta {
  docId: string;
  lines: string[];
  popup?: PagePopup;
  /** How many mutation records were seen (0: the action changed nothing in the DOM). */
  records: number;
  truncated: boolean;
}
