/**
 * The text a model reads for a structured result: `key: value` lines, multi-line strings (snapshots) as indented
 * blocks. Far fewer characters than pretty JSON, and nothing is lost.
 */
export function renderText(structured: Record<string, unknown>): string {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(structured)) {
    if (value === undefined) continue;
    if (typeof value === 'string' && value.includes('\n')) {
      lines.push(`${key}:`);
      for (const line of value.split('\n')) lines.push(`  ${line}`);
    } else if (typeof value === 'string') {
      lines.push(`${key}: ${value}`);
    } else {
      lines.push(`${key}: ${JSON.stringify(value)}`);
    }
  }
  return lines.join('\n');
}
