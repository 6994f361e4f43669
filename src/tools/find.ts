import { z } from 'zod';
import { findElements } from '../browser/engine/index.js';
import { defineTool, tabIdField, type TabToolContext } from './tool.js';

const matchSchema = z.object({
  ref: z.string(),
  role: z.string(),
  name: z.string(),
  box: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
  visible: z.boolean(),
  clipped: z.boolean().optional(),
  covered_by: z.string().optional(),
  missing: z.array(z.string()).optional(),
  excerpt: z.string().optional(),
  value: z.string().optional().describe("A field's current value, as its snapshot line shows it."),
  cut: z.boolean().optional().describe('Its name or value was shortened: read_page with this ref as ref_id gives it whole.'),
});

/** A page string in quotes on one line, as the snapshot quotes it. */
function quoted(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/** Why a match is not visible: cut off by its scroll box, covered, or hidden. */
function whereNote(match: z.infer<typeof matchSchema>): string {
  if (match.visible) return '';
  if (match.clipped) return ' [hidden: scrolled out of its container]';
  if (match.covered_by) return ` [hidden: covered by ${match.covered_by}]`;
  return ' [hidden]';
}

/**
 * The matches `find` answers a query with, best first, and the notes of their frames. Exported for the recorder's
 * ref pinning (`RefLocator`, handed in by src/mcp/dispatch.ts): the same ranking a replay's find will use.
 */
export async function findMatches(context: TabToolContext, query: string, maxResults: number): Promise<{ matches: z.infer<typeof matchSchema>[]; notes: Set<string> }> {
  const { found, notes } = await findElements(context, query, maxResults);
  const perFrame = found.map((match) => ({
    score: match.score,
    match: {
      ref: match.ref,
      role: match.role,
      name: match.name,
      box: match.box,
      visible: match.visible,
      ...(match.clipped ? { clipped: true } : {}),
      ...(match.coveredBy ? { covered_by: match.coveredBy } : {}),
      ...(match.missing ? { missing: match.missing } : {}),
      ...(match.excerpt ? { excerpt: match.excerpt } : {}),
      ...(match.value !== undefined ? { value: match.value } : {}),
      ...(match.cut ? { cut: true } : {}),
    },
  }));
  const ranked = perFrame.sort((a, b) => b.score - a.score);
  // Once some element holds every word, elements holding only some of them are noise.
  const complete = ranked.filter((entry) => !entry.match.missing);
  const matches = (complete.length ? complete : ranked).slice(0, maxResults).map((entry) => entry.match);
  return { matches, notes };
}

export const findTool = defineTool({
  name: 'find',
  title: 'Find elements',
  description: 'Finds elements by words (role, name, label, text), best first, with ref, role, name and box. E.g. "button sign in".',
  details:
    'Finds elements by words matched against role, accessible name, label, placeholder, value and visible text, across frames and ' +
    'shadow roots. Best match first: an exact name beats a partial one, shown beats hidden, controls beat static text. Each match ' +
    'has its ref (for computer, form_input, read_page ref_id), role, name and bounding box in viewport CSS pixels. Example query: ' +
    '"button sign in" or "email".',
  scope: 'tab',
  errors: [],
  input: z.strictObject({
    tabId: tabIdField,
    query: z.string().trim().min(1).max(200).describe('A role and/or words of the name, label or text.'),
    max_results: z.number().int().min(1).max(100).optional().describe('Default 10.'),
  }),
  output: z.object({ query: z.string(), matches: z.array(matchSchema), note: z.string().optional() }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  script: 'looks',
  async handler(context, args) {
    const { matches, notes } = await findMatches(context, args.query, args.max_results ?? 10);
    // As a snapshot line says them: the value after the ref, [cut] when the name or value was shortened.
    const lines = matches.map((m) => `- ${m.role}${m.name ? ` ${quoted(m.name)}` : ''} [ref=${m.ref}]${m.value ? ` [value=${quoted(m.value)}]` : ''} [box=${m.box.x},${m.box.y},${m.box.width}x${m.box.height}]${whereNote(m)}${m.cut ? ' [cut]' : ''}${m.missing ? ` [partial: no ${m.missing.map((w) => `"${w}"`).join(', ')}]` : ''}${m.excerpt ? ` text: ${quoted(m.excerpt)}` : ''}`);
    const head = matches.length ? `${matches.length} match${matches.length === 1 ? '' : 'es'} for "${args.query}"` : `No element matches "${args.query}".`;
    const out = [matches.length ? `${head}${matches[0]!.missing ? ' (none holds every word: the best is partial)' : ''}:` : head, ...lines];
    for (const note of notes) out.push(`Note: ${note}`);
    const text = out.join('\n');
    const structured = { query: args.query, matches, ...(notes.size ? { note: [...notes].join(' ') } : {}) };
    return { structured, text };
  },
});
