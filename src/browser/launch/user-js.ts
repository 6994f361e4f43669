import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolError } from '../../errors.js';
import type { PrefValue } from './launch-prefs.js';

/** Every user.js firefox-use writes starts with the template's first line (unchanged since the template began). */
const OURS = '// Template for every profile firefox-use owns.';

/** The `user_pref("name", value);` lines of a user.js whose value is a JSON literal. */
export function parseUserJs(source: string): Record<string, PrefValue> {
  const prefs: Record<string, PrefValue> = {};
  const line = /^\s*user_pref\(\s*"([^"]+)"\s*,\s*(.+?)\s*\)\s*;/gm;
  for (let match = line.exec(source); match; match = line.exec(source)) {
    try {
      const value = JSON.parse(match[2]!) as unknown;
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') prefs[match[1]!] = value;
    } catch {
      // Not a JSON literal (a computed value): left out.
    }
  }
  return prefs;
}

/** The text of the folder's user.js when the user wrote it (not our template), else null. */
export function foreignUserJs(dir: string): string | null {
  let text: string;
  try {
    text = readFileSync(join(dir, 'user.js'), 'utf8');
  } catch {
    return null;
  }
  return text.startsWith(OURS) ? null : text;
}

/** What the template would set and the user's user.js sets otherwise, or leaves to Firefox. */
export function templateDifferences(userText: string, templateText: string): { differ: string[]; unset: number; total: number } {
  const user = parseUserJs(userText);
  const template = parseUserJs(templateText);
  const names = Object.keys(template);
  const differ = names.filter((name) => name in user && user[name] !== template[name]).map((name) => `${name}=${JSON.stringify(user[name])} (template: ${JSON.stringify(template[name])})`);
  return { differ, unset: names.filter((name) => !(name in user)).length, total: names.length };
}

/** The one-paragraph note a launch on a profile with the user's own user.js writes to stderr. */
export function foreignNote(dir: string, userText: string, templateText: string): string {
  const { differ, unset, total } = templateDifferences(userText, templateText);
  const shown = differ.slice(0, 8).join(', ');
  return (
    `firefox-use: ${dir} has its own user.js: kept as it is, and firefox-use's template (${total} prefs) is not applied. ` +
    `${differ.length ? `Your user.js sets ${differ.length} of them otherwise: ${shown}${differ.length > 8 ? ', ...' : ''}. ` : ''}` +
    `${unset} are left to this profile's own settings (docs/profiles.md).\n`
  );
}

/** The flags that work by writing prefs into user.js, with the option each one is. */
const PREF_FLAGS: Array<[string, (options: PrefFlagOptions) => boolean]> = [
  ['pref', (o) => (o.prefs?.length ?? 0) > 0],
  ['locale', (o) => Boolean(o.locale)],
  ['user-agent', (o) => Boolean(o.userAgent)],
  ['geolocation', (o) => Boolean(o.geolocation)],
  ['proxy-server', (o) => Boolean(o.proxyServer)],
  ['allowed-origins', (o) => (o.allowedOrigins?.length ?? 0) > 0],
  ['blocked-origins', (o) => (o.blockedOrigins?.length ?? 0) > 0],
];

export interface PrefFlagOptions {
  prefs?: string[];
  locale?: string;
  userAgent?: string;
  geolocation?: string;
  proxyServer?: string;
  allowedOrigins?: string[];
  blockedOrigins?: string[];
}

/**
 * Refuses, before anything starts, flags whose prefs would have to be written into a user.js the user wrote: that
 * file is never changed, so the flag could not do what it says.
 */
export function checkForeignProfile(dir: string, options: PrefFlagOptions): void {
  if (foreignUserJs(dir) === null) return;
  const needing = PREF_FLAGS.filter(([, set]) => set(options)).map(([flag]) => `--${flag}`);
  if (needing.length === 0) return;
  throw new ToolError(
    'invalid_arguments',
    `${needing.join(', ')} ${needing.length === 1 ? 'works' : 'work'} by writing prefs into the profile's user.js, but ${dir} has its own user.js, which firefox-use never changes. ` +
      'Put those prefs into your user.js yourself, or use a profile of firefox-use (--profile NAME, --isolated).',
    { field: needing[0]!.slice(2) },
  );
}
