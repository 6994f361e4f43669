// The page-answer section of a tool that is not input (form_input): the lines of the delta watched around it.
import { z } from 'zod';
import type { DeltaOutcome } from '../../browser/observe/index.js';
import { answerLines } from '../page-answer.js';
import type { Section } from './reply.js';

export interface AnswerInput {
  outcome: DeltaOutcome | null | undefined;
  /** A line the tool says itself (the field it set). */
  skipRef?: string;
}

const schema = {
  /** What else the page changed in answer (snapshot lines with refs). */
  delta: z.string().optional(),
};

export const pageAnswerSection: Section<typeof schema, AnswerInput> = {
  schema,
  render(reply, { outcome, skipRef }) {
    const answered = answerLines(outcome, skipRef);
    if (!answered.length) return;
    reply.line(...answered);
    reply.set('delta', answered.join('\n'));
  },
};
