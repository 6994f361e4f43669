// The live views of a server's MCP sessions, over HTTP: /live (the list), /live/s/<id> (one session's view),
// its event stream and the person's input and Done. The caller (serve, or mcp's --live-port server) has already
// checked the Host, Origin and token; nothing here reads a file.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { Tool } from '../../tools/tool.js';
import { PERSON_TEXT_MAX, type PersonInput } from '../../browser/tab/index.js';
import { LiveSession, type DialogAnswer, type WatchedSession } from './live-session.js';
import { LIVE_CSP, LIVE_HTML } from './page.js';

const BODY_MAX = 64 * 1024;
const NOTE_MAX = 2_000;

const point = z.strictObject({ x: z.number().finite(), y: z.number().finite() });
const inputSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('click'), at: point, button: z.union([z.literal(0), z.literal(1), z.literal(2)]), count: z.union([z.literal(1), z.literal(2), z.literal(3)]) }),
  z.strictObject({ kind: z.literal('wheel'), at: point, dx: z.number().finite(), dy: z.number().finite() }),
  z.strictObject({ kind: z.literal('key'), key: z.string().min(1).max(32), modifiers: z.array(z.enum(['ctrl', 'shift', 'alt', 'meta'])).max(4) }),
  z.strictObject({ kind: z.literal('text'), text: z.string().min(1).max(PERSON_TEXT_MAX) }),
  z.strictObject({ kind: z.literal('dialog'), accept: z.boolean(), text: z.string().max(PERSON_TEXT_MAX).optional() }),
]);
const inputBody = z.strictObject({ tabId: z.number().int().min(1), input: inputSchema });
const doneBody = z.strictObject({ tabId: z.number().int().min(1), note: z.string().max(NOTE_MAX).nullable() });

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }).end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) throw new Error('send application/json');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_MAX) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

export class LiveHub {
  private readonly sessions = new Map<string, LiveSession>();
  /** http://host:port, once the server listens: the hand-off names the view's URL with it. */
  origin: string | null = null;

  /** Starts watching a session; the returned function ends it (the session closed). */
  attach(session: WatchedSession, label: string, toolOf: (name: string) => Tool | undefined): LiveSession {
    const live = new LiveSession(session, label, toolOf);
    this.sessions.set(live.id, live);
    return live;
  }

  detach(live: LiveSession): void {
    live.close();
    this.sessions.delete(live.id);
  }

  /** The view of one session, as a person opens it. */
  urlOf(live: LiveSession, origin = this.origin): string | null {
    return origin ? `${origin}/live/s/${live.id}` : null;
  }

  /** Whether the path is the live view's. */
  static owns(pathname: string): boolean {
    return pathname === '/live' || pathname.startsWith('/live/');
  }

  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname;
    if (req.method === 'GET' && (path === '/live' || path === '/live/' || /^\/live\/s\/[0-9a-f-]{36}$/.test(path))) {
      if (path.startsWith('/live/s/') && !this.sessions.has(path.slice('/live/s/'.length))) return reply(res, 404, { message: 'No such session (it ended).' });
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': LIVE_CSP,
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
      });
      res.end(LIVE_HTML);
      return;
    }
    if (req.method === 'GET' && path === '/live/sessions') {
      const list = [...this.sessions.values()].map((live) => {
        const tabs = live.tabs();
        return { id: live.id, label: live.label, startedAt: live.startedAt, tabs: tabs.length, calls: live.callCount, held: tabs.some((tab) => tab.held) };
      });
      return reply(res, 200, list);
    }
    const match = /^\/live\/s\/([0-9a-f-]{36})\/(events|input|done)$/.exec(path);
    const live = match ? this.sessions.get(match[1]!) : undefined;
    if (!match || !live) return reply(res, 404, { message: 'Not found.' });
    const what = match[2];
    if (what === 'events' && req.method === 'GET') {
      const tab = Number(url.searchParams.get('tab'));
      live.addViewer(res, Number.isInteger(tab) && tab > 0 ? tab : null);
      return;
    }
    if (req.method !== 'POST') return reply(res, 405, { message: 'Use POST.' });
    let body: unknown;
    try {
      body = await readJson(req);
    } catch (error) {
      return reply(res, 400, { message: `Bad request: ${(error as Error).message}.` });
    }
    if (what === 'input') {
      const parsed = inputBody.safeParse(body);
      if (!parsed.success) return reply(res, 400, { message: `Bad input: ${parsed.error.issues[0]?.message ?? 'invalid'}.` });
      const outcome = await live.input(parsed.data.tabId, parsed.data.input as PersonInput | DialogAnswer).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
      if (outcome instanceof Error) return reply(res, 502, { message: `The input did not reach the tab: ${outcome.message}` });
      if (outcome === 'not_held') return reply(res, 409, { message: 'This tab is not in your hands: the view is watch-only until the agent asks for you (request_human).' });
      if (outcome === 'no_tab') return reply(res, 404, { message: 'No such tab in this session.' });
      if (outcome === 'unknown_key') return reply(res, 400, { message: 'That key cannot be sent.' });
      if (outcome === 'no_dialog') return reply(res, 409, { message: 'No dialog is open on this tab any more.' });
      return reply(res, 200, { ok: true });
    }
    const parsed = doneBody.safeParse(body);
    if (!parsed.success) return reply(res, 400, { message: `Bad request: ${parsed.error.issues[0]?.message ?? 'invalid'}.` });
    if (!live.done(parsed.data.tabId, parsed.data.note)) return reply(res, 409, { message: 'This tab is not in your hands (the hand-off ended or never began).' });
    return reply(res, 200, { ok: true });
  }

  close(): void {
    for (const live of this.sessions.values()) live.close();
    this.sessions.clear();
  }
}
