// The action section: what was done to what ("left_click ref_3", "left_click on button "Save" at (5, 6)") and the
// engine's verdict on it (delivered, NOT delivered, NOT pressed), with the tool's own detail lines under it.
import { z } from 'zod';
import type { PressStop, TargetSummary } from '../../contract/index.js';
import type { ActionReport, Verdict } from '../../browser/engine/index.js';
import { ToolError, type ErrorCode } from '../../errors.js';
import type { Section } from './reply.js';

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

export interface ActionInput {
  action: string;
  report: ActionReport;
  /** The tool's own sentences under the head (how far a scroll moved, the keys held). */
  details?: string[];
}

const schema = {
  target: z
    .object({
      ref: z.string().optional(),
      role: z.string().optional(),
      name: z.string().optional(),
      /** tag#id.class of what a coordinate hit. */
      selector: z.string().optional(),
      /** Percent of the viewport it covers, when most; overlay: laid over the page (a mask or backdrop). */
      covers: z.number().optional(),
      overlay: z.boolean().optional(),
    })
    .optional(),
  delivered: z.boolean().optional(),
  /** Where the pointer went (top-level viewport CSS pixels); the text says it only for coordinate actions. */
  point: z.object({ x: z.number(), y: z.number() }).optional(),
  /** A tooltip lay over the ref's element when it was aimed at (a click's press waited for it to go). */
  through_tooltip: z.boolean().optional(),
};

/**
 * Writes the head and the details. A press held back or stopped throws at once (an error, never success prose); a
 * verdict that failed is returned as the error code the whole reply is thrown with, once its other sections are written.
 */
export const actionSection: Section<typeof schema, ActionInput, { failure?: ErrorCode }> = {
  schema,
  render(reply, { action, report, details = [] }) {
    const { ref, hit, point } = report.target;
    if (ref || hit) {
      reply.set('target', {
        ...(ref ? { ref } : {}),
        ...(hit ? { role: hit.role, name: hit.name } : {}),
        ...(hit && !ref ? { selector: hit.selector, ...(hit.covers ? { covers: hit.covers } : {}), ...(hit.overlay ? { overlay: true } : {}) } : {}),
      });
    }
    const rounded = point && { x: Math.round(point.x), y: Math.round(point.y) };
    if (rounded) reply.set('point', rounded);
    // Every character here is read by the model. A ref action names only the ref: the agent took it from a line
    // that said what it is, and structuredContent.target and .point still carry role, name and point.
    const at = rounded && !ref ? ` at (${rounded.x}, ${rounded.y})` : '';
    let head = `${action}${ref ? ` ${ref}` : ` on ${hitText(hit)}${at}${coverText(hit)}`}`;
    if (report.refused || report.stopped) {
      const why = report.refused ? `when the pointer reached it, ${report.refused}. Nothing was pressed; the pointer is over it now.` : stoppedText(report.stopped!);
      throw new ToolError('target_occluded', [`${head}: NOT pressed: ${why}`, ...details].join('\n'), { ...(ref ? { ref } : {}), delivered: false });
    }
    const known = report.verdicts.filter((verdict) => verdict.report?.found);
    let failure: ErrorCode | undefined;
    if (known.length && known.length === report.verdicts.length) {
      const failed = known.filter((verdict) => !verdict.report!.delivered);
      reply.set('delivered', failed.length === 0);
      const after = known.map((verdict) => verdict.report!.after).filter(Boolean);
      head += failed.length === 0 ? `: delivered${after.length ? ` (${after.join('; ')})` : ''}.` : `: NOT delivered to the target (${failed.map(missed).join('; ')}).`;
      if (failed[0]) failure = failed[0].code ?? 'target_occluded';
    } else {
      head += '.';
    }
    reply.line(head);
    if (report.target.throughTooltip) {
      reply.set('through_tooltip', true);
      reply.line('A tooltip lay over it when aimed at.');
    }
    reply.line(...details);
    return failure ? { failure } : {};
  },
};
