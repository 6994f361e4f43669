// Shapes of what the page scripts (src/page) return, as the server reads them.
export interface PageInfo {
  url: string;
  title: string;
  readyState: string;
  viewport: { width: number; height: number };
  scroll: { x: number; y: number };
}

/** An element as results name it. */
export interface ElementSummary {
  role: string;
  name: string;
  /** tag#id.class */
  selector: string;
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
  target?: ElementSummary;
  /** The point lands on an iframe: events go to the frame's own document. */
  frame?: true;
  docId: string;
}

export interface DeliveryArgs {
  token: string;
  types: string[];
  ref?: GuardArgs;
  point?: PointArgs;
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
  /** For key actions: the element that held focus. */
  focus?: ElementSummary;
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
  /** Event types to watch for delivery. */
  watch?: string[];
  scrollProbe?: boolean;
  dragWatch?: boolean;
}

export interface ActionPreparation {
  aim?: AimResult;
  url: string;
  title: string;
}

export interface ConcludeArgs {
  token: string;
  need: string[];
  scrollProbe?: boolean;
  dragEnd?: PointArgs;
}

export interface ActionConclusion {
  delivery: DeliveryReport;
  scroll?: ScrollReport;
  drag?: DragReport;
}
