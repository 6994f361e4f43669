import type { ServerOptions } from '../../config.js';
import { ToolError } from '../../errors.js';

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443, 'ftp:': 21 };

/**
 * One spelling per host: lower case, no trailing dot, IDN as punycode, IPv4 in dotted form, and an IPv4-mapped IPv6
 * address as the IPv4 address it maps (`[::ffff:127.0.0.1]` is 127.0.0.1 to the network).
 */
export function normalizeHost(host: string): string {
  let name = host.trim().toLowerCase().replace(/\.+$/, '');
  try {
    name = new URL(`http://${name}`).hostname.replace(/\.+$/, '');
  } catch {
    return name;
  }
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(name);
  if (mapped) {
    const high = parseInt(mapped[1]!, 16);
    const low = parseInt(mapped[2]!, 16);
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return name;
}

export interface OriginPattern {
  /** "https:", or null for any scheme. */
  scheme: string | null;
  host: string;
  /** "*.example.com": the host and every subdomain. */
  subdomains: boolean;
  /** null: any port. */
  port: number | null;
}

/** "https://example.com", "example.com:8443" (any scheme), "*.example.com" (any subdomain); a path is ignored. */
export function parsePattern(pattern: string): OriginPattern | null {
  let rest = pattern.trim();
  let scheme: string | null = null;
  const schemed = /^([a-z][a-z0-9+.-]*):\/\//i.exec(rest);
  if (schemed) {
    scheme = `${schemed[1]!.toLowerCase()}:`;
    rest = rest.slice(schemed[0].length);
  }
  rest = rest.replace(/[/?#].*$/, '');
  const subdomains = rest.startsWith('*.');
  if (subdomains) rest = rest.slice(2);
  const parts = /^(\[[^\]]*\]|[^:]*)(?::(\d{1,5}))?$/.exec(rest);
  if (!parts || !parts[1]) return null;
  return { scheme, host: normalizeHost(parts[1]), subdomains, port: parts[2] === undefined ? null : Number(parts[2]) };
}

/** Whether `url` matches an origin pattern; both sides are normalized first (see normalizeHost), ports by their defaults. */
export function originMatches(url: URL, pattern: string): boolean {
  const wanted = parsePattern(pattern);
  if (!wanted) return false;
  if (wanted.scheme && wanted.scheme !== url.protocol) return false;
  if (wanted.port !== null && wanted.port !== (url.port ? Number(url.port) : DEFAULT_PORTS[url.protocol])) return false;
  const host = normalizeHost(url.hostname);
  return host === wanted.host || (wanted.subdomains && host.endsWith(`.${wanted.host}`));
}

/** Whether a URL may load under --allowed-origins / --blocked-origins; about:, data: and blob: always may. */
export function originAllowed(href: string, options: Pick<ServerOptions, 'allowedOrigins' | 'blockedOrigins'>): boolean {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return true;
  }
  if (!['http:', 'https:', 'ws:', 'wss:', 'ftp:'].includes(url.protocol)) return true;
  if (options.blockedOrigins.some((pattern) => originMatches(url, pattern))) return false;
  if (options.allowedOrigins.length > 0) return options.allowedOrigins.some((pattern) => originMatches(url, pattern));
  return true;
}

export function assertOriginAllowed(href: string, options: Pick<ServerOptions, 'allowedOrigins' | 'blockedOrigins'>): void {
  if (!originAllowed(href, options)) {
    throw new ToolError('origin_blocked', `${new URL(href).origin} is not allowed by this server's --allowed-origins / --blocked-origins.`, {
      url: href,
    });
  }
}
