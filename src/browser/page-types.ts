// Shapes of what the page scripts (src/page) return, as the server reads them.
export interface PageInfo {
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

export interface PageText {
  url: string;
  title: string;
  text: string;
  totalChars: number;
  offset: number;
  /** Where the next call should start when the text was cut. */
  nextOffset?: number;
}

/** An element handed to the page: its identity for refs and a short tag for display. */
export interface NodeIdentity {
  docId: string;
  localId: number;
}
