// The page contract: shapes both the page scripts (src/page) and the server (src/browser) use. Documents,
// fields and the identity of an element.
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
  /** The field as a snapshot line names it: role and name (`checkbox "I agree"`). */
  described?: string;
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

/** One origin's localStorage, in Playwright's storage-state shape. */
export interface OriginStorage {
  origin: string;
  localStorage: Array<{ name: string; value: string }>;
}

/** regress's stillness before a capture: the selectors to mask, and how many animation frames to let pass. */
export interface StillArgs {
  masks: string[];
  /** Animation frames to wait for afterwards (at most 100 ms), so the page has drawn anew since the last capture. */
  frames: number;
}
