import type { Network } from 'webdriver-bidi-protocol';
import type { BidiLink } from '../../bidi/connection.js';
import { ToolError } from '../../errors.js';
import { readFileSync } from 'node:fs';
import type { ServerOptions } from '../../config.js';

/** --http-credentials: what to answer an HTTP authentication challenge with, for one origin or (origin null) any. */
export interface HttpCredentials {
  origin: string | null;
  username: string;
  password: string;
}

/** What happened to a challenge: the tab's reply reports it. */
export interface AuthAnswer {
  url: string;
  status: number;
  answer: 'cancelled' | 'credentials';
}

/** A URL's origin as Firefox sends it (lower-case host, no default port), or null for another scheme. */
function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/** The credentials --http-credentials or --http-credentials-file give, if any. */
export function httpCredentialsOf(options: Pick<ServerOptions, 'httpCredentials' | 'httpCredentialsFile'>): HttpCredentials | undefined {
  if (options.httpCredentials !== undefined) return parseHttpCredentials(options.httpCredentials);
  if (options.httpCredentialsFile === undefined) return undefined;
  let line: string;
  try {
    line = (readFileSync(options.httpCredentialsFile, 'utf8').split(/\r?\n/)[0] ?? '').trim();
  } catch (error) {
    throw new ToolError('invalid_arguments', `--http-credentials-file: ${(error as Error).message}`, { field: 'http-credentials-file' });
  }
  return parseHttpCredentials(line, 'http-credentials-file');
}

/**
 * Parses `[ORIGIN=]USER:PASS` (from --http-credentials or the first line of --http-credentials-file). The password
 * may hold any character; the user name may not hold a colon (as in a URL's userinfo).
 */
export function parseHttpCredentials(text: string, field = 'http-credentials'): HttpCredentials {
  const scoped = /^(https?:\/\/[^=\s/]+)\/?=(.*)$/i.exec(text);
  const rest = scoped ? scoped[2]! : text;
  const colon = rest.indexOf(':');
  if (colon <= 0) throw new ToolError('invalid_arguments', `--${field}: expected [ORIGIN=]USER:PASS (e.g. https://intranet.example=ann:secret).`, { field });
  let origin: string | null = null;
  if (scoped) {
    origin = originOf(scoped[1]!);
    if (!origin) throw new ToolError('invalid_arguments', `--${field}: ${scoped[1]} is not an http(s) origin.`, { field });
  }
  return { origin, username: rest.slice(0, colon), password: rest.slice(colon + 1) };
}

/**
 * Answers HTTP authentication (401/407 with WWW-Authenticate): a headless Firefox would show a prompt nobody can see,
 * and the navigation would hang behind it until it timed out. Each challenge is held (an `authRequired` intercept) and
 * cancelled, so the 401 page loads, or answered once with the --http-credentials for its origin; a second challenge
 * for the same request (the credentials were wrong) is cancelled.
 */
export class HttpAuth {
  private readonly answered = new Set<string>();

  constructor(
    private readonly bidi: BidiLink,
    private readonly credentials: HttpCredentials | undefined,
  ) {}

  async install(): Promise<void> {
    await this.bidi.send('network.addIntercept', { phases: ['authRequired'] }, { timeout: 10_000 });
  }

  /** Answers a held challenge; `ours` is false for a tab of someone else's Firefox (--connect), left to its user. */
  answer(event: Network.AuthRequiredParameters, ours: boolean): AuthAnswer | null {
    if (!event.isBlocked) return null;
    const { request, url } = event.request;
    const send = (params: Network.ContinueWithAuthParameters) => void this.bidi.send('network.continueWithAuth', params, { timeout: 10_000 }).catch(() => undefined);
    if (!ours) {
      send({ request, action: 'default' });
      return null;
    }
    const credentials = this.credentials;
    const fits = credentials && (credentials.origin === null || credentials.origin === originOf(url));
    if (fits && !this.answered.has(request)) {
      this.answered.add(request);
      // Forget it later: request ids are not reused within a session, the set only needs to outlive the retry.
      setTimeout(() => this.answered.delete(request), 60_000).unref();
      send({ request, action: 'provideCredentials', credentials: { type: 'password', username: credentials.username, password: credentials.password } });
      return { url, status: event.response.status, answer: 'credentials' };
    }
    send({ request, action: 'cancel' });
    return { url, status: event.response.status, answer: 'cancelled' };
  }
}
