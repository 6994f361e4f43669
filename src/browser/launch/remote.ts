import { readFileSync } from 'node:fs';
import { BidiConnection, type BidiLink } from '../../bidi/connection.js';
import { ToolError } from '../../errors.js';
import { Browser, type BrowserOptions } from '../browser.js';
import type { BrowserHost } from './host.js';
import { OriginGuard } from '../tab/interception.js';
import { originPacPrefs } from './origin-pac.js';
import { templateUserJs } from './profile.js';
import { parseUserJs } from './user-js.js';
import type { PrefValue } from './launch-prefs.js';

const CREATE_TIMEOUT_MS = 90_000;
const DELETE_TIMEOUT_MS = 10_000;

/** The prefs of the shipped profile template, so a remote Firefox behaves like an owned one. */
export function templatePrefs(source = readFileSync(templateUserJs(), 'utf8')): Record<string, PrefValue> {
  return parseUserJs(source);
}

/**
 * The capabilities of a new session: BiDi wanted, dialogs left open for firefox_dialog, Firefox headless unless
 * --headed, and the prefs an owned profile would get (the template, then the flags': --pref, --locale,
 * --geolocation's permission, the origin rules' PAC) with --timezone's TZ, as geckodriver takes them.
 */
export function remoteCapabilities(options: Pick<BrowserOptions, 'headed' | 'origins' | 'tuning'>): Record<string, unknown> {
  // Origin rules hold below BiDi there too (workers, <object>/<embed>): the PAC goes in with the session's prefs.
  const pac = options.origins && OriginGuard.needed(options.origins) ? originPacPrefs(options.origins) : {};
  const env = options.tuning?.env ?? {};
  return {
    alwaysMatch: {
      browserName: 'firefox',
      webSocketUrl: true,
      // The classic string form: every WebDriver endpoint accepts it, and it means "leave dialogs open" for all types.
      unhandledPromptBehavior: 'ignore',
      'moz:firefoxOptions': {
        args: options.headed ? [] : ['-headless'],
        prefs: { ...templatePrefs(), ...pac, ...options.tuning?.prefs },
        ...(Object.keys(env).length ? { env } : {}),
      },
    },
  };
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * The socket to dial. A geckodriver on another machine names Firefox's socket as seen from there
 * (ws://127.0.0.1:9222/session/…); that host is the endpoint's host as seen from here. Selenium Grid already
 * answers with an address of its own, which is kept.
 */
export function reachableSocketUrl(socketUrl: string, endpoint: string): string {
  try {
    const socket = new URL(socketUrl);
    const host = new URL(endpoint).hostname;
    if (!LOOPBACK.has(socket.hostname) || LOOPBACK.has(host)) return socketUrl;
    socket.hostname = host;
    return socket.toString();
  } catch {
    return socketUrl;
  }
}

interface WebDriverAnswer {
  value?: { sessionId?: string; capabilities?: Record<string, unknown>; error?: string; message?: string } | null;
}

async function request(method: 'POST' | 'DELETE', url: string, body: unknown, timeoutMs: number): Promise<WebDriverAnswer> {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  let answer: WebDriverAnswer;
  try {
    answer = JSON.parse(text) as WebDriverAnswer;
  } catch {
    throw new Error(`HTTP ${response.status} from ${url}: ${text.slice(0, 200)}`);
  }
  if (!response.ok || answer.value?.error) {
    throw new Error(`${answer.value?.error ?? `HTTP ${response.status}`}: ${answer.value?.message ?? text.slice(0, 200)}`);
  }
  return answer;
}

/** A WebDriver session on a remote endpoint; ending the Browser deletes it (the endpoint then closes Firefox). */
export class RemoteHost implements BrowserHost {
  readonly pid = -1;
  private deleting: Promise<void> | null = null;

  constructor(
    readonly endpoint: string,
    readonly sessionId: string,
  ) {}

  onExit(): void {
    // A remote browser has no process here; its loss shows as the WebSocket closing.
  }

  killNow(): void {
    void this.end();
  }

  async shutdown(bidi: BidiLink, graceMs: number): Promise<void> {
    // No browser.close on the socket: the endpoint owns Firefox and ends it when the session is deleted.
    bidi.close();
    await this.end(Math.max(graceMs, DELETE_TIMEOUT_MS));
  }

  waitForExit(): Promise<void> {
    return this.deleting ?? Promise.resolve();
  }

  /** DELETE /session/:id, once. */
  end(timeoutMs = DELETE_TIMEOUT_MS): Promise<void> {
    this.deleting ??= request('DELETE', `${this.endpoint}/session/${encodeURIComponent(this.sessionId)}`, undefined, timeoutMs).then(
      () => undefined,
      (error: unknown) => {
        process.stderr.write(`firefox-use: could not delete the remote session ${this.sessionId}: ${(error as Error).message}\n`);
      },
    );
    return this.deleting;
  }
}

/**
 * Creates a session on a remote WebDriver endpoint (Selenium Grid 4, geckodriver) with webSocketUrl: true and
 * drives the BiDi WebSocket it returns with the same Browser code as a launched Firefox.
 */
export async function connectRemote(webdriverUrl: string, options: BrowserOptions): Promise<Browser> {
  const endpoint = webdriverUrl.replace(/\/+$/, '');
  let created: WebDriverAnswer;
  try {
    created = await request('POST', `${endpoint}/session`, { capabilities: remoteCapabilities(options) }, CREATE_TIMEOUT_MS);
  } catch (error) {
    throw new ToolError('launch_failed', `The WebDriver endpoint ${endpoint} did not create a session: ${(error as Error).message}`);
  }
  const sessionId = created.value?.sessionId;
  const capabilities = created.value?.capabilities ?? {};
  if (!sessionId) throw new ToolError('launch_failed', `The WebDriver endpoint ${endpoint} answered without a sessionId.`);
  const host = new RemoteHost(endpoint, sessionId);
  const named = capabilities['webSocketUrl'];
  if (typeof named !== 'string') {
    await host.end();
    throw new ToolError('launch_failed', `The WebDriver endpoint ${endpoint} gave no webSocketUrl: it does not support WebDriver BiDi.`);
  }
  const socketUrl = reachableSocketUrl(named, endpoint);
  let bidi: BidiConnection | null = null;
  try {
    bidi = await BidiConnection.open(socketUrl, 20_000);
    const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);
    const version = `${text(capabilities['browserName'], 'firefox')} ${text(capabilities['browserVersion'], '')}`.trim();
    return await Browser.attach(bidi, host, options, version);
  } catch (error) {
    bidi?.close();
    await host.end();
    throw error instanceof ToolError ? error : new ToolError('launch_failed', `The remote BiDi connection ${socketUrl} failed: ${(error as Error).message}`);
  }
}
