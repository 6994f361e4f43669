// How the page answered a tool that is not input (form_input, scroll_to, file_upload, a dialog's answer): the
// lines of the delta watched around it (watchWhile), as the reply shows them.
import type { DeltaOutcome } from '../browser/observe/index.js';

/** The reply's lines for a watch's outcome; `skipRef`: a line the tool says itself (the field it set). */
export function answerLines(outcome: DeltaOutcome | null | undefined, skipRef?: string): string[] {
  if (!outcome) return [];
  const lines: string[] = [];
  if (outcome.unsettled) lines.push(`(The page had not settled: ${outcome.unsettled}; this is what it showed then.)`);
  if (outcome.navigated) {
    if (outcome.url !== undefined) lines.push(`New page: ${outcome.title || '(untitled)'} — ${outcome.url}`);
    if (outcome.delta) lines.push(outcome.delta);
    return lines;
  }
  const own = skipRef ? `[ref=${skipRef}]` : null;
  lines.push(...outcome.delta.split('\n').filter((line) => line.trim() && !(own && line.includes(own))));
  return lines;
}
