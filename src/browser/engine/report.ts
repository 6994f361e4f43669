// What an action did, as the engine knows it: what it aimed at, the verdicts that decide "delivered" (chosen here,
// not by the tools), a press held back or stopped, the page's changes and the action's other effects. Replies are
// rendered from it (src/tools/reply/); a new fact of an action is declared and filled here once.
import type { ActionConclusion, ActionPreparation, DeliveryReport, FocusCheck, PressStop, TargetSummary } from '../../contract/index.js';
import type { ErrorCode } from '../../errors.js';
import type { Download } from '../group/downloads.js';
import type { DeltaOutcome } from '../observe/delta.js';
import type { Dispatched } from './action-engine.js';
import type { Point } from './input/pointer.js';

/** One delivery probe's verdict, named for the reply ("the press", "the keys"). */
export interface Verdict {
  what: string;
  report: DeliveryReport | undefined;
  /** The error code when it was not delivered: pointer input that landed elsewhere is target_occluded. */
  code?: ErrorCode;
}

export interface ActionTarget {
  ref?: string;
  /** What the page found there (for keys at focus: the focused element). */
  hit?: TargetSummary;
  /** Where the pointer went (top-level viewport). */
  point?: Point;
  /** The document acted in is a frame's: its URL and title are the frame's, not the tab's. */
  inFrame: boolean;
  /** A tooltip (left by the pointer's last stop) lay over the ref's element when it was aimed at. */
  throughTooltip?: true;
}

/** What the action did besides the page's own changes (the delta). */
export interface ActionEffects {
  /** A dialog the action opened (the action itself happened). */
  dialog?: string;
  /** Downloads the action started, finished (or said to be still running). */
  downloads?: Download[];
  /** The tab's document is at another URL (a fragment, pushState): not a new page. */
  url?: string;
  /** The frame acted in is at another URL (the tab's page stays). */
  frameUrl?: string;
  title?: string;
  /** The document scrolled during the action (a fragment link), by how much and to what. */
  scrolled?: { dx: number; dy: number; to?: string };
  /** The document acted in was replaced by a new one and no delta read it. */
  replaced?: true;
}

export interface ActionReport {
  target: ActionTarget;
  /** The probes whose reports decide `delivered` (all must hold); none: delivery is not known. */
  verdicts: Verdict[];
  /** The press was held back: what the page changed when the pointer reached the target. Nothing was pressed. */
  refused?: string;
  /** Press events the page's press gate stopped (they would have reached another control): the action did not happen. */
  stopped?: PressStop;
  /** Press events kept from another control after the button went down on the target: the action stands. */
  kept?: PressStop;
  /** A type by ref: where focus was after its click (not on the field: no key went out). */
  focus?: FocusCheck;
  /** A type by ref into a field that held focus already: no click. */
  noClick?: true;
  /** Where a drag started (top-level viewport). */
  start?: Point;
  /** The page's read-back (scroll distance, drag outcome); null when the action took the document away. */
  conclusion: ActionConclusion | null;
  /** What changed on the page (the delta). */
  changes?: DeltaOutcome;
  effects: ActionEffects;
}

/** The engine's raw facts of an action, from which its report is made. */
export interface ReportParts {
  target: Omit<ActionTarget, 'throughTooltip'>;
  preparation: ActionPreparation;
  dispatched: Dispatched;
  verdicts: Verdict[];
  /** False for a wheel: the distance it scrolled is its own answer, not a side effect. */
  pageScroll?: boolean;
}

export type ReportExtras = Pick<ActionReport, 'refused' | 'stopped' | 'kept' | 'focus' | 'noClick' | 'start'>;

export function actionReport(parts: ReportParts, extras: ReportExtras = {}): ActionReport {
  const { preparation, dispatched, verdicts } = parts;
  const throughTooltip = parts.target.ref !== undefined && preparation.aim?.throughTooltip === true;
  return {
    target: { ...parts.target, ...(throughTooltip ? { throughTooltip: true as const } : {}) },
    verdicts,
    ...definedOf(extras),
    conclusion: dispatched.conclusion,
    ...(dispatched.delta ? { changes: dispatched.delta } : {}),
    effects: effectsOf(parts),
  };
}

function definedOf(extras: ReportExtras): ReportExtras {
  return Object.fromEntries(Object.entries(extras).filter(([, value]) => value !== undefined)) as ReportExtras;
}

function effectsOf({ target, preparation, dispatched, verdicts, pageScroll = true }: ReportParts): ActionEffects {
  // The document the action was aimed at answers for the URL and title.
  const report = verdicts.find((verdict) => verdict.report)?.report;
  const navigated = dispatched.delta?.navigated === true;
  const effects: ActionEffects = {};
  if (dispatched.dialog) effects.dialog = dispatched.dialog;
  if (dispatched.downloads?.length) effects.downloads = dispatched.downloads;
  if (report && report.url !== preparation.url && !navigated) {
    // A frame that navigated (a search inside an embedded widget) is not the tab leaving its page.
    if (target.inFrame) effects.frameUrl = report.url;
    else effects.url = report.url;
  }
  if (report && report.title !== preparation.title && !navigated && !target.inFrame) effects.title = report.title;
  if (pageScroll && !navigated && report?.scrolled) effects.scrolled = report.scrolled;
  if (report && !report.found) effects.replaced = true;
  return effects;
}
