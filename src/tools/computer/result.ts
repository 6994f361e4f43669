// The few hundred characters an action answers with: what was done to what, whether it arrived, what changed.
import type { ActionPreparation, DeliveryReport, PressStop, TargetSummary } from '../../contract/index.js';
import type { Point } from '../../browser/engine/index.js';
import type { ComputerResult } from '../computer.js';
import type { ToolResponse } from '../tool.js';
import type { Dispatched } from '../../browser/engine/index.js';
import { describeDownloads } from '../../browser/group/index.js';
import { ToolError, type ErrorCode } from '../../errors.js';

export function summaryText(summary: TargetSummary | undefined): string {
  if (!summary) return 'nothing';
  return `${summary.role}${summary.name ? ` "${summary.name}"` : ''}`;
}

/** What a coordinate hit, as precisely as a refusal names it: role and name, else role (tag#id.class). */
export function hitText(summary: TargetSummary | undefined): string {
  if (!summary) return 'nothing';
  return summary.name ? summaryText(summary) : `${summary.role} (${summary.selector})`;
}

/** ` (an overlay covering 100% of the viewport)` when the hit element is most of the viewport, else ''. */
function coverText(summary: TargetSummary | undefined): string {
  if (!summary?.covers) return '';
  return ` (${summary.overlay ? 'an overlay ' : ''}covering ${summary.covers}% of the viewport)`;
}

/** One delivery probe's verdict, named for the text ("the press", "the keys"). */
export interface Verdict {
  what: string;
  report: DeliveryReport | undefined;
  /** The error code when it was not delivered: pointer input that landed elsewhere is target_occluded. */
  code?: ErrorCode;
}

export interface Outcome {
  action: string;
  ref?: string;
  target?: TargetSummary;
  point?: Point;
  preparation: ActionPreparation;
  dispatched: Dispatched;
  /** The probes whose reports decide `delivered` (all must hold); none: delivery is not known. */
  verdicts?: Verdict[];
  /** Extra sentence(s) for the text, e.g. how far a scroll moved. */
  details?: string[];
  extra?: Partial<ComputerResult>;
  /** A press held back because the page changed the target when the pointer reached it: what it changed. */
  refused?: string;
  /** Press events the page's press gate stopped (they would have reached another control). */
  stopped?: PressStop;
  /** The document acted in is a frame's: its URL and title are the frame's, not the tab's. */
  inFrame?: boolean;
}

/** Why a press was stopped in the page, for the reply. */
function stoppedText(stop: PressStop): string {
  const types = stop.types.join(', ');
  return stop.afterPress
    ? `the button went down on it, then ${stop.reason}; the rest of the press (${types}) was stopped before the page saw it, so it was not clicked.`
    : `as the button went down, ${stop.reason}; the press (${types}) was stopped before the page saw it. Nothing was pressed.`;
}

function missed(verdict: Verdict): string {
  const report = verdict.report!;
  const elsewhere = report.landed ?? (report.stray?.length ? `${report.stray.join(', ')} elsewhere` : '');
  return `${verdict.what} saw ${report.seen.join(', ') || 'nothing'} at the target${elsewhere ? ` (${elsewhere})` : ''}`;
}

export function actionResult(outcome: Outcome): ToolResponse<ComputerResult> {
  const { dispatched, preparation } = outcome;
  const verdicts = (outcome.verdicts ?? []).filter((verdict) => verdict.report?.found);
  // The document the action was aimed at: it answers for the URL and title.
  const report = (outcome.verdicts ?? []).find((verdict) => verdict.report)?.report;
  const result: ComputerResult = { action: outcome.action, ok: true, ...outcome.extra };
  if (outcome.ref || outcome.target) {
    const hit = outcome.target;
    result.target = {
      ...(outcome.ref ? { ref: outcome.ref } : {}),
      ...(hit ? { role: hit.role, name: hit.name } : {}),
      ...(hit && !outcome.ref ? { selector: hit.selector, ...(hit.covers ? { covers: hit.covers } : {}), ...(hit.overlay ? { overlay: true } : {}) } : {}),
    };
  }
  const lines: string[] = [];
  if (outcome.point) result.point = { x: Math.round(outcome.point.x), y: Math.round(outcome.point.y) };
  // Every character here is read by the model. A ref action names only the ref: the agent took it from a line
  // that said what it is, and structuredContent.target and .point still carry role, name and point.
  const at = outcome.point && !outcome.ref ? ` at (${result.point!.x}, ${result.point!.y})` : '';
  const delta = dispatched.delta;
  let head = `${outcome.action}${outcome.ref ? ` ${outcome.ref}` : ` on ${hitText(outcome.target)}${at}${coverText(outcome.target)}`}`;
  const navigated = report ? !report.found : dispatched.conclusion === null && !dispatched.dialog;
  if (outcome.refused || outcome.stopped) {
    // Refused before the button went down, or stopped in the page as it went down: an error, never success prose.
    const why = outcome.refused ? `when the pointer reached it, ${outcome.refused}. Nothing was pressed; the pointer is over it now.` : stoppedText(outcome.stopped!);
    const message = [`${head}: NOT pressed: ${why}`, ...(outcome.details ?? [])].join('\n');
    throw new ToolError('target_occluded', message, { ...(outcome.ref ? { ref: outcome.ref } : {}), delivered: false });
  }
  let failure: { code: ErrorCode } | undefined;
  if (verdicts.length && verdicts.length === (outcome.verdicts ?? []).length) {
    const failed = verdicts.filter((verdict) => !verdict.report!.delivered);
    result.delivered = failed.length === 0;
    const after = verdicts.map((verdict) => verdict.report!.after).filter(Boolean);
    head += failed.length === 0 ? `: delivered${after.length ? ` (${after.join('; ')})` : ''}.` : `: NOT delivered to the target (${failed.map(missed).join('; ')}).`;
    const first = failed[0];
    if (first) failure = { code: first.code ?? 'target_occluded' };
  } else {
    head += '.';
  }
  lines.push(head);
  lines.push(...(outcome.details ?? []));
  if (dispatched.dialog) {
    result.note = dispatched.dialog;
    lines.push(`Then ${dispatched.dialog}.`);
  }
  if (dispatched.downloads?.length) {
    result.downloads = dispatched.downloads.map((d) => ({ url: d.url, file: d.suggestedFilename, status: d.status, ...(d.path ? { path: d.path } : {}) }));
    lines.push(describeDownloads(dispatched.downloads));
  }
  if (report && report.url !== preparation.url && !dispatched.delta?.navigated) {
    // A frame that navigated (a search inside an embedded widget) is not the tab leaving its page.
    if (outcome.inFrame) {
      result.frame_url = report.url;
      lines.push(`The frame acted in is now at ${report.url} (the tab's page stays).`);
    } else {
      result.url = report.url;
      lines.push(`URL now ${report.url}`);
    }
  }
  if (report && report.title !== preparation.title && !dispatched.delta?.navigated && !outcome.inFrame) {
    result.title = report.title;
    lines.push(`Title now "${report.title}"`);
  }
  // A scroll action says how far it went itself.
  const scrolled = !dispatched.delta?.navigated && outcome.action !== 'scroll' ? report?.scrolled : undefined;
  if (scrolled) {
    const { dx, dy, to } = scrolled;
    const by = [dy ? `${dy > 0 ? 'down' : 'up'} ${Math.abs(dy)} px` : '', dx ? `${dx > 0 ? 'right' : 'left'} ${Math.abs(dx)} px` : ''].filter(Boolean).join(' and ');
    result.page_scrolled = scrolled;
    const alone = delta && !delta.delta && !delta.navigated;
    lines.push(`The page scrolled ${by}${to ? `, to ${to}` : ''}${alone ? '; nothing else changed' : ''}.`);
  }
  if (delta?.opened_popup) {
    const popup = delta.opened_popup;
    result.opened_popup = popup;
    lines.push(`Opened ${popup.role}${popup.name ? ` "${popup.name}"` : ''} [ref=${popup.ref}]${popup.items.length ? ` with ${popup.items.length} items` : ''}.`);
    // Its items with their refs, when the delta below does not list them already.
    const shown = delta.delta ?? '';
    const missing = popup.item_lines.filter((line, index) => !shown.includes(`[ref=${popup.items[index]}]`));
    if (missing.length) lines.push(...missing.map((line) => `  ${line}`));
  }
  if (delta?.unsettled) lines.push(`(The page had not settled: ${delta.unsettled}; this is what it showed then.)`);
  if (delta?.delta) {
    result.delta = delta.delta;
    if (delta.navigated && delta.url !== undefined) {
      result.url = delta.url;
      result.title = delta.title ?? '';
    }
    const where = delta.url !== undefined ? `: ${delta.title || '(untitled)'} — ${delta.url}` : '';
    // Snapshot lines ("- …") follow the head as they are; a navigation says where it went first.
    if (delta.navigated) lines.push(`New page${where}`);
    lines.push(delta.delta);
  } else if (delta && !delta.navigated) {
    if (!scrolled) lines.push('No change on the page.');
  } else if (navigated && report) {
    lines.push('A new document loaded; earlier refs of this page are stale.');
  }
  // Input that did not reach its target is an error, with what it did meanwhile (the page's change) in its text.
  if (failure) throw new ToolError(failure.code, lines.join('\n'), { ...(outcome.ref ? { ref: outcome.ref } : {}), delivered: false });
  return { structured: result, text: lines.join('\n') };
}
