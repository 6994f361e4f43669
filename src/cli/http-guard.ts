// Who may talk to our HTTP servers (serve's /mcp and /live, mcp's --live-port): on a loopback bind only loopback Host
// and Origin headers (a page on another name must not reach us through DNS rebinding); with a token, its bearer.
import type { IncomingMessage } from 'node:http';
import { timingSafeEqual } from 'node:crypto';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export function hostOf(header: string | undefined): string | null {
  if (!header) return null;
  try {
    return new URL(`http://${header}`).hostname;
  } catch {
    return null;
  }
}

/**
 * The refusal of a request, or null when it may go on. `queryToken`: the token may also come as `?token=` (a page a
 * person opens in a browser cannot send a header; the live view passes it on to its own requests).
 */
export type RequestGuard = (req: IncomingMessage, options?: { queryToken?: string | null }) => string | null;

export function requestGuard(loopbackBind: boolean, token: string | undefined): RequestGuard {
  const expected = token ? Buffer.from(token) : null;
  return (req, { queryToken } = {}) => {
    const host = hostOf(req.headers.host);
    if (loopbackBind && (!host || !isLoopbackHost(host))) return `Host header "${req.headers.host}" is not allowed.`;
    const origin = req.headers.origin;
    if (origin) {
      const originHost = hostOf(origin.replace(/^[a-z]+:\/\//i, ''));
      if (!originHost || (loopbackBind && !isLoopbackHost(originHost))) return `Origin "${origin}" is not allowed.`;
    }
    if (expected) {
      // The scheme name is case-insensitive (RFC 9110): "bearer" is as good as "Bearer".
      const bearer = /^bearer +(.*)$/i.exec(req.headers.authorization ?? '')?.[1];
      const given = Buffer.from(bearer ?? queryToken ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'Missing or wrong bearer token.';
    }
    return null;
  };
}
