/**
 * How deep a tool call's arguments may nest. No tool takes more than a few levels; 10,000 levels overflowed the stack
 * of everything that walks them recursively afterwards (the recorder's JSON, the export), for the rest of the session.
 */
export const MAX_ARGUMENT_DEPTH = 32;

/**
 * The top-level field whose value nests deeper than `limit` levels (the arguments object is level 1), `(arguments)`
 * when the arguments themselves are not an object, or null when they are within the limit. Iterative: a recursive
 * walk is what such arguments break.
 */
export function tooDeepField(args: unknown, limit = MAX_ARGUMENT_DEPTH): string | null {
  if (!args || typeof args !== 'object') return null;
  const stack: { value: object; depth: number; field: string }[] = [];
  if (Array.isArray(args)) stack.push({ value: args, depth: 1, field: '(arguments)' });
  else for (const [key, value] of Object.entries(args)) if (value && typeof value === 'object') stack.push({ value: value as object, depth: 2, field: key });
  while (stack.length) {
    const { value, depth, field } = stack.pop()!;
    if (depth > limit) return field;
    for (const item of Object.values(value)) if (item && typeof item === 'object') stack.push({ value: item as object, depth: depth + 1, field });
  }
  return null;
}
