// Reading refs out of each server's snapshot text, as an agent would: find the line with the wanted role and name.

const QUOTED = '"((?:[^"\\\\]|\\\\.)*)"';
const FORMATS = {
  // - button "Log in" [ref=ref_4]            (firefox-use)
  'firefox-use': new RegExp(`^\\s*-\\s+([\\w-]+)(?:\\s+${QUOTED})?[^\\n]*?\\[ref=(ref_\\d+)\\]`, 'gm'),
  // - button "Log in" [ref=e4]  or [ref=f1e4] (Playwright MCP aria snapshot)
  // A line whose text needs YAML quoting starts with a quote: - 'button "GET /a/{id}" [ref=e44]'
  playwright: new RegExp(`^\\s*-\\s+'?([\\w-]+)(?:\\s+${QUOTED})?[^\\n]*?\\[ref=([a-z0-9]+)\\]`, 'gm'),
  // uid=1_4 button "Log in"                   (Chrome DevTools MCP)
  'chrome-devtools': new RegExp(`uid=(\\S+)\\s+([\\w-]+)(?:\\s+${QUOTED})?`, 'gm'),
};

const unescape = (text) => (text ?? '').replace(/\\(.)/g, '$1');

/** Every (role, name, ref) a snapshot text names, in order. */
export function parseRefs(format, text) {
  const pattern = FORMATS[format];
  const found = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (format === 'chrome-devtools') found.push({ ref: match[1], role: match[2], name: unescape(match[3]) });
    else found.push({ role: match[1], name: unescape(match[2]), ref: match[3] });
  }
  return found;
}

/**
 * The ref of the element a target describes: `role` (one or several acceptable roles) and `name` (exact string
 * preferred, else a case-insensitive substring, or a RegExp). Null when the text does not name it.
 */
export function findRef(format, text, target) {
  const roles = [target.role].flat();
  const entries = parseRefs(format, text).filter((entry) => roles.includes(entry.role));
  const wanted = target.name;
  if (wanted instanceof RegExp) return entries.find((entry) => wanted.test(entry.name))?.ref ?? null;
  const exact = entries.find((entry) => entry.name === wanted);
  if (exact) return exact.ref;
  const lower = wanted.toLowerCase();
  return entries.find((entry) => entry.name.toLowerCase().includes(lower))?.ref ?? null;
}
