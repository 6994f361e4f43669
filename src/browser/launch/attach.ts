import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BidiConnection, type BidiLink } from '../../bidi/connection.js';
import { ToolError } from '../../errors.js';
import { Browser, type BrowserOptions } from '../browser.js';
import type { BrowserHost } from './host.js';

const SESSION_TIMEOUT_MS = 30_000;
const END_TIMEOUT_MS = 3_000;

/** The file Firefox writes into its profile folder while its Remote Agent listens: `{"ws_host": ..., "ws_port": ...}`. */
export const DISCOVERY_FILE = 'WebDriverBiDiServer.json';

/**
 * The BiDi socket `--connect VALUE` names: `ws://HOST:PORT[/session]`, `http://HOST:PORT`, `HOST:PORT`, a bare port
 * (127.0.0.1), or a profile folder whose WebDriverBiDiServer.json says where its Firefox listens.
 */
export function connectUrl(value: string, readFile = (path: string) => readFileSync(path, 'utf8')): { url: string; from: string } {
  const text = value.trim();
  if (/^\d{1,5}$/.test(text)) return { url: `ws://127.0.0.1:${text}/session`, from: value };
  if (/^(wss?|https?):\/\//i.test(text)) {
    const url = new URL(text);
    url.protocol = url.protocol.toLowerCase().startsWith('http') ? url.protocol.replace(/^http/i, 'ws') : url.protocol;
    url.pathname = '/session';
    return { url: url.toString(), from: value };
  }
  if (/^[\w.-]+:\d{1,5}$/.test(text) || /^\[[\d:a-f]+\]:\d{1,5}$/i.test(text)) return { url: `ws://${text}/session`, from: value };
  const file = existsSync(text) && statSync(text).isDirectory() ? join(text, DISCOVERY_FILE) : text;
  let found: { ws_host?: unknown; ws_port?: unknown };
  try {
    found = JSON.parse(readFile(file)) as typeof found;
  } catch (error) {
    throw new ToolError(
      'invalid_arguments',
      `--connect: "${value}" is not ws://HOST:PORT, HOST:PORT, a port, or a profile folder with ${DISCOVERY_FILE} (${(error as Error).message}). Start Firefox with --remote-debugging-port.`,
      { field: 'connect' },
    );
  }
  if (typeof found.ws_host !== 'string' || typeof found.ws_port !== 'number') {
    throw new ToolError('invalid_arguments', `--connect: ${file} has no ws_host and ws_port.`, { field: 'connect' });
  }
  const host = found.ws_host.includes(':') ? `[${found.ws_host}]` : found.ws_host;
  return { url: `ws://${host}:${found.ws_port}/session`, from: file };
}

/**
 * A Firefox the user started and keeps: this server made a BiDi session on it and owns only the tabs it opened.
 * Ending closes those tabs (the Browser does) and the session; Firefox and the user's own tabs stay.
 */
export class AttachedHost implements BrowserHost {
  readonly pid = -1;
  readonly keepsBrowser = true;

  onExit(): void {
    // Not our process: its end shows as the socket closing.
  }

  killNow(): void {
    // Nothing of ours to kill: dropping the socket ends the session (Browser.close does that).
  }

  async shutdown(bidi: BidiLink, graceMs: number, alive: boolean): Promise<void> {
    if (alive && !bidi.closed) await bidi.send('session.end', {}, { timeout: Math.min(graceMs, END_TIMEOUT_MS) }).catch(() => undefined);
    bidi.close();
  }

  async waitForExit(): Promise<void> {
    // Firefox keeps running: there is no exit to wait for.
  }
}

/** Makes a BiDi session on the Firefox `--connect` names and drives it as a Browser that leaves the browser running. */
export async function connectRunning(value: string, options: BrowserOptions): Promise<Browser> {
  const { url, from } = connectUrl(value);
  const where = from === value ? url : `${url} (from ${from})`;
  let bidi: BidiConnection;
  try {
    bidi = await BidiConnection.connect(url, 10_000);
  } catch (error) {
    throw new ToolError('launch_failed', `--connect: nothing answers at ${where}: ${(error as Error).message}. Is Firefox running with --remote-debugging-port?`);
  }
  try {
    const created = await bidi.send(
      'session.new',
      { capabilities: { alwaysMatch: { unhandledPromptBehavior: { default: 'ignore' }, webSocketUrl: true, ...(options.acceptInsecureCerts ? { acceptInsecureCerts: true } : {}) } } },
      { timeout: SESSION_TIMEOUT_MS },
    );
    const version = `${created.capabilities.browserName} ${created.capabilities.browserVersion}`;
    return await Browser.attach(bidi, new AttachedHost(), options, version);
  } catch (error) {
    bidi.close();
    const message = (error as Error).message;
    throw new ToolError('launch_failed', `--connect: Firefox at ${where} refused a session: ${message}${/active sessions/i.test(message) ? ' (Firefox takes one WebDriver session at a time: another client holds it, or a firefox-use that was killed without shutting down left it open; restart Firefox)' : ''}`);
  }
}
