import { ToolError } from '../errors.js';

/** Compiles an agent's regex (case-insensitive), or invalid_arguments naming the field. */
export function compilePattern(source: string | undefined, field: string): RegExp | null {
  if (source === undefined || source === '') return null;
  try {
    return new RegExp(source, 'i');
  } catch (error) {
    throw new ToolError('invalid_arguments', `${field}: not a valid regular expression: ${(error as Error).message}`, { field });
  }
}

/** The newest `limit` of `items`, and how many older matches were left out. */
export function newest<T>(items: T[], limit: number): { shown: T[]; omitted: number } {
  const omitted = Math.max(0, items.length - limit);
  return { shown: items.slice(omitted), omitted };
}

export function clock(timestamp: number): string {
  return new Date(timestamp).toISOString().slice(11, 23);
}
