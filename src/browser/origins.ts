import type { ServerOptions } from '../config.js';
import { ToolError } from '../errors.js';

/** An origin pattern: "https://example.com", "example.com" (any scheme), or "*.example.com" (any subdomain). */
export function originMatches(url: URL, pattern: string): boolean {
  const trimmed = pattern.trim().replace(/\/+$/, '');
  if (!trimmed) return false;
  if (trimmed.includes('://')) {
    try {
      const wanted = new URL(trimmed);
      if (wanted.protocol !== url.protocol) return false;
      return hostMatches(url, wanted.host);
    } catch {
      return false;
    }
  }
  return hostMatches(url, trimmed);
}

function hostMatches(url: URL, hostPattern: string): boolean {
  const host = hostPattern.includes(':') ? url.host : url.hostname;
  if (hostPattern.startsWith('*.')) return host.endsWith(hostPattern.slice(1)) || host === hostPattern.slice(2);
  return host === hostPattern;
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
