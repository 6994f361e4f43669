// The page contract for actions: aiming, the guard, delivery checks, press checks and typing targets.
import type { TargetSummary, GuardArgs, PointArgs } from './page-common.js';
import type { PageDelta } from './page-snapshot.js';

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
  /**
   * Typing sent with this call instead of after its answer (the field held focus at the end of the last action):
   * when the ref's field no longer holds focus, or the guard refuses, close the key gate for the keys' this many
   * keyups, so that none of them reaches the page. Only where `gateFirst` was answered before.
   */
  gateKeys?: number;
  /**
   * A click by ref: arm the press gate (src/page/press-gate.ts) at the ref's element, or in a frame's parent (with
   * `gate`) at the iframe, so that press events reaching another control are stopped before the page sees them.
   */
  pressGate?: true;
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
  /** This document's key gate listens before any script of the page (its page scripts came with the preload). */
  gateFirst?: true;
  /** The gate was closed for the keys sent with this call (PrepareArgs.gateKeys): none of them reaches the page. */
  gated?: true;
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
  /**
   * Typing: this call was sent together with the keys, not after them. Wait until the typing watch has seen this
   * many trusted keyups in the document (or until `releaseKeys` says the rest went elsewhere) before reading back.
   */
  afterKeyUps?: number;
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
  /** Read with the keys (afterKeyUps): every keyup the keys bring was seen in this document before reading. */
  keysAllUp?: true;
  /** The keys sent with the action's preparation met a closed gate: the page saw none of them. */
  gated?: true;
  /** The press gate stopped press events that would have reached another control: which, and why. */
  pressStopped?: PressStop;
  /** The press reached the target; its release, landing on another control the page drew there, was stopped. */
  releaseKept?: PressStop;
}

/** Press events the press gate stopped before the page saw them (src/page/press-gate.ts). */
export interface PressStop {
  /** The stopped event types, in order. */
  types: string[];
  /** What the page did: `the page put button "Delete account" (button#delete) under the pointer`. */
  reason: string;
  /** The button had gone down on the target (the page swapped it in its answer to that). */
  afterPress: boolean;
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
  /** The click before the keys was stopped by the press gate (focusCheck with the action's token): no key goes out. */
  pressStopped?: PressStop;
}

/** A type into a field that holds focus: its check (with `gateKeys`) and its read-back, in one page call. */
export interface TypeAlongArgs {
  prepare: PrepareArgs;
  conclude: ConcludeArgs;
}

export interface TypeAlongResult {
  preparation: ActionPreparation;
  conclusion: ActionConclusion;
}
