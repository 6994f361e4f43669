import { ToolError } from '../../errors.js';

/** What opens the URL schemes refused by default (flags, or the files a `run` script or `regress` config names). */
export interface SchemePolicy {
  /** --allow-unrestricted-file-access: file: (and jar:) URLs load. */
  allowUnrestrictedFileAccess: boolean;
  /** --allow-javascript: javascript: URLs run in the page. */
  allowJavascript: boolean;
  /** file: URLs that a user-written script or config names; each loads even without the flag. */
  scriptFiles?: readonly string[];
}

/**
 * Schemes that load without a flag. data: documents get an opaque origin in Firefox (they reach no site's cookies or
 * storage), blob: URLs run only what their own origin made, about: pages Firefox refuses where they matter.
 */
const OPEN = new Set(['http:', 'https:', 'about:', 'data:', 'blob:']);
const FILE = new Set(['file:', 'jar:']);

/** A URL as text that is safe to echo: control characters escaped, long ones cut. */
export function printableUrl(url: string, max = 200): string {
  const shown = url.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return shown.length > max ? `${shown.slice(0, max)}…` : shown;
}

function withoutHash(href: string): string {
  const at = href.indexOf('#');
  return at < 0 ? href : href.slice(0, at);
}

/** Why `href` may not load under `policy`, or null when it may. view-source: is judged by the URL it wraps. */
export function schemeRefusal(href: string, policy: SchemePolicy): string | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  if (url.protocol === 'view-source:') return schemeRefusal(href.slice('view-source:'.length), policy);
  if (OPEN.has(url.protocol)) return null;
  if (FILE.has(url.protocol)) {
    if (policy.allowUnrestrictedFileAccess) return null;
    if (url.protocol === 'file:' && policy.scriptFiles?.some((named) => withoutHash(named) === withoutHash(url.href))) return null;
    return `${url.protocol} URLs (local files) are refused: start the server with --allow-unrestricted-file-access to open them.`;
  }
  if (url.protocol === 'javascript:') {
    return policy.allowJavascript ? null : 'javascript: URLs are refused: they run code in the page, which needs --allow-javascript.';
  }
  return `${url.protocol} URLs are not loaded by this server (only http:, https:, about:, data: and blob:).`;
}

/** Throws origin_blocked (naming the field `url`) when `href` may not load. */
export function assertSchemeAllowed(href: string, policy: SchemePolicy): void {
  const refusal = schemeRefusal(href, policy);
  if (refusal) throw new ToolError('origin_blocked', `${printableUrl(href)}: ${refusal}`, { field: 'url', url: printableUrl(href, 2_000) });
}
