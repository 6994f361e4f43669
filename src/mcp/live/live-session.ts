// One MCP session as its live view sees it: the calls as they happen (a call watcher), its tabs with their frames
// (captured only while someone watches: capture.ts), the hand-offs, and the viewers' event streams.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { BrowserManager } from '../../browser/manager.js';
import type { PersonInput, Tab } from '../../browser/tab/index.js';
import { secretArgument, type Tool } from '../../tools/tool.js';
import type { CallWatcher, EndedCall, WatchedCall } from '../call-watch.js';
import { FrameCapture, type LiveFrame, type LiveLook } from './capture.js';
import type { HandOffs, HeldTab } from './hand-off.js';

/** Calls a view lists (the newest); older ones are dropped. */
export const LIVE_MAX_CALLS = 200;
const MAX_ARG_CHARS = 300;
const MAX_REPLY_CHARS = 2_000;
/** A viewer this far behind on its stream gets no frames until it catches up (a slow link must not pile them up). */
const BACKLOG_BYTES = 2 * 1024 * 1024;
const KEEPALIVE_MS = 15_000;

/** A call as the live page shows it. Everything in it is text the page puts in with textContent. */
export interface LiveCall {
  id: number;
  tool: string;
  action?: string;
  tabId?: number;
  args: Array<{ name: string; value: string }>;
  startedAt: number;
  durationMs?: number;
  error?: string;
  delivered?: boolean;
  reply?: string;
  images?: number;
  /** Where the pointer went (viewport CSS pixels), a drag `from` a point. */
  point?: { x: number; y: number };
  from?: { x: number; y: number };
}

export interface LiveTab {
  tabId: number;
  url: string;
  title: string;
  /** The hand-off under way, with how long it may still last (the viewer's clock may differ from ours). */
  held: (HeldTab & { remainingMs: number }) | null;
  /** A JavaScript dialog open on the tab: no picture while it is; the person answers it during a hand-off. */
  dialog: { type: string; message: string; defaultValue?: string } | null;
}

/** The person's answer to a dialog open on a held tab. */
export interface DialogAnswer {
  kind: 'dialog';
  accept: boolean;
  text?: string;
}

/** What a live view needs of its MCP session. */
export interface WatchedSession {
  readonly manager: BrowserManager;
  readonly group: { readonly id: string };
  readonly handOffs: HandOffs;
  readonly watchers: { add(watcher: CallWatcher): () => void };
}

interface Viewer {
  res: ServerResponse;
  tabId: number | null;
}

const xy = (value: unknown): { x: number; y: number } | undefined => {
  const point = value as { x?: unknown; y?: unknown } | null | undefined;
  if (typeof point?.x === 'number' && typeof point.y === 'number') return { x: point.x, y: point.y };
  if (Array.isArray(value) && typeof value[0] === 'number' && typeof value[1] === 'number') return { x: value[0], y: value[1] };
  return undefined;
};

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return '(not shown)';
  }
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters in all)` : text;
}

/** The arguments shown; text a tool may type into a password field is shown as its length only. */
export function liveArgs(tool: Tool | undefined, args: Record<string, unknown>): Array<{ name: string; value: string }> {
  const secret = tool ? secretArgument(tool.script, args) : null;
  const shown: Array<{ name: string; value: string }> = [];
  for (const [name, value] of Object.entries(args)) {
    if (name === 'tabId' || (tool?.name === 'computer' && name === 'action')) continue;
    if (name === secret && typeof value === 'string') shown.push({ name, value: `${value.length} characters (typed text is not shown live)` });
    else shown.push({ name, value: cut(json(value), MAX_ARG_CHARS) });
  }
  return shown;
}

function replyOf(result: CallToolResult): Pick<LiveCall, 'error' | 'delivered' | 'reply' | 'images' | 'point'> {
  const structured = result.structuredContent;
  const text = result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
  const code = result.isError ? (structured?.['error'] as { code?: unknown } | undefined)?.code : undefined;
  const delivered = structured?.['delivered'] ?? (structured?.['error'] as { delivered?: unknown } | undefined)?.delivered;
  const images = result.content.filter((block) => block.type === 'image').length;
  const point = xy(structured?.['point']);
  return {
    ...(result.isError ? { error: typeof code === 'string' ? code : 'failed' } : {}),
    ...(typeof delivered === 'boolean' ? { delivered } : {}),
    reply: cut(text, MAX_REPLY_CHARS),
    ...(images ? { images } : {}),
    ...(point ? { point } : {}),
  };
}

export class LiveSession implements CallWatcher {
  /** In the view's URL: unguessable, and not the MCP session id (which drives the session). */
  readonly id = randomUUID();
  readonly startedAt = Date.now();
  private readonly calls: LiveCall[] = [];
  private readonly viewers = new Set<Viewer>();
  private readonly captures = new Map<number, FrameCapture>();
  private readonly looks = new Map<number, LiveLook>();
  private readonly stopWatching: () => void;
  private readonly stopHolds: () => void;
  private readonly keepalive: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly session: WatchedSession,
    /** How the session list names it ("stdio", "HTTP session 3f2a…"). */
    readonly label: string,
    private readonly toolOf: (name: string) => Tool | undefined,
  ) {
    this.stopWatching = session.watchers.add(this);
    this.stopHolds = session.handOffs.onChange(() => this.broadcast('tabs', this.tabs()));
    this.keepalive = setInterval(() => {
      for (const viewer of this.viewers) viewer.res.write(': keepalive\n\n');
    }, KEEPALIVE_MS);
    this.keepalive.unref();
  }

  callStarted(call: WatchedCall): void {
    const tool = this.toolOf(call.tool);
    const entry: LiveCall = {
      id: call.id,
      tool: call.tool,
      ...(call.tool === 'computer' && typeof call.args['action'] === 'string' ? { action: call.args['action'] } : {}),
      ...(call.tabId !== undefined ? { tabId: call.tabId } : {}),
      args: liveArgs(tool, call.args),
      startedAt: call.startedAt,
    };
    const from = call.tool === 'computer' && call.args['action'] === 'left_click_drag' ? xy(call.args['start_coordinate']) : undefined;
    if (from) entry.from = from;
    this.calls.push(entry);
    if (this.calls.length > LIVE_MAX_CALLS) this.calls.shift();
    this.broadcast('call', entry);
  }

  callEnded(call: EndedCall): void {
    const entry = this.calls.find((candidate) => candidate.id === call.id);
    if (!entry) return;
    Object.assign(entry, replyOf(call.result), { durationMs: call.durationMs });
    const opened = call.tool === 'tabs_create_mcp' ? call.result.structuredContent?.['tabId'] : undefined;
    if (typeof opened === 'number') entry.tabId = opened;
    this.broadcast('call', entry);
    // A call may have opened, closed or moved a tab; a viewer with no tab (yet, or any more) follows the new one.
    if (!this.viewers.size) return;
    this.broadcast('tabs', this.tabs());
    const open = new Set(this.ownTabs().map((tab) => tab.id));
    for (const viewer of this.viewers) if (viewer.tabId === null || !open.has(viewer.tabId)) this.follow(viewer);
  }

  /** The session's open tabs (none before its browser started: nothing is launched for a viewer). */
  private ownTabs(): Tab[] {
    return this.session.manager.live?.tabsOfGroup(this.session.group.id) ?? [];
  }

  tabs(): LiveTab[] {
    return this.ownTabs().map((tab) => {
      const look = this.looks.get(tab.id);
      const held = this.session.handOffs.get(tab.id);
      const dialog = tab.dialog;
      return {
        tabId: tab.id,
        url: look?.url ?? tab.lastUrl,
        title: look?.title ?? tab.lastTitle,
        held: held ? { ...held, remainingMs: Math.max(0, held.until - Date.now()) } : null,
        dialog: dialog ? { type: dialog.type, message: dialog.message, ...(dialog.defaultValue !== undefined ? { defaultValue: dialog.defaultValue } : {}) } : null,
      };
    });
  }

  get callCount(): number {
    return this.calls.length;
  }

  get viewerCount(): number {
    return this.viewers.size;
  }

  /** Frames captured by this session's view so far, per tab (for the view's own counter). */
  captured(tabId: number): number {
    return this.captures.get(tabId)?.captures ?? 0;
  }

  /**
   * A viewer's event stream: the calls so far and the tabs at once, then each change; frames of `tabId` (or the
   * held tab, else the first) while it stays connected.
   */
  addViewer(res: ServerResponse, tabId: number | null): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-content-type-options': 'nosniff',
    });
    const viewer: Viewer = { res, tabId };
    this.viewers.add(viewer);
    res.on('close', () => this.viewers.delete(viewer));
    this.send(viewer, 'hello', { session: this.label, startedAt: this.startedAt, calls: this.calls, tabs: this.tabs() });
    this.follow(viewer);
  }

  /** The viewer's tab gets a capture (started if none runs), and its newest frame at once. */
  private follow(viewer: Viewer): void {
    for (const [id, capture] of this.captures) if (capture.ended) this.captures.delete(id);
    const tabs = this.ownTabs();
    const tab = tabs.find((candidate) => candidate.id === viewer.tabId) ?? tabs.find((candidate) => this.session.handOffs.get(candidate.id)) ?? tabs[0];
    if (!tab) return;
    viewer.tabId = tab.id;
    let capture = this.captures.get(tab.id);
    if (!capture) {
      capture = new FrameCapture(
        tab,
        () => !this.closed && [...this.viewers].some((candidate) => candidate.tabId === tab.id),
        () => this.calls.some((call) => call.tabId === tab.id && call.durationMs === undefined),
        (frame) => this.sendFrame(frame),
        (look) => {
          this.looks.set(look.tabId, look);
          this.broadcast('tabs', this.tabs());
        },
        () => this.broadcast('tabs', this.tabs()),
      );
      this.captures.set(tab.id, capture);
    }
    capture.refresh();
    const latest = capture.latest;
    if (latest) this.send(viewer, 'frame', { tabId: tab.id, seq: 0, jpeg: latest, scale: tab.deviceScaleFactor || 1, at: Date.now() } satisfies LiveFrame);
    capture.start();
  }

  private sendFrame(frame: LiveFrame): void {
    for (const viewer of this.viewers) {
      if (viewer.tabId !== frame.tabId || viewer.res.writableLength > BACKLOG_BYTES) continue;
      this.send(viewer, 'frame', frame);
    }
  }

  /** The person's input on a held tab; 'not_held' when the tab is not in their hands (the view is watch-only). */
  async input(tabId: number, input: PersonInput | DialogAnswer): Promise<'ok' | 'not_held' | 'no_tab' | 'unknown_key' | 'no_dialog'> {
    const tab = this.ownTabs().find((candidate) => candidate.id === tabId);
    if (!tab) return 'no_tab';
    if (!this.session.handOffs.get(tabId)) return 'not_held';
    if (input.kind === 'dialog') {
      if (!tab.dialog) return 'no_dialog';
      await tab.answerDialog(input.accept, input.text);
      this.broadcast('tabs', this.tabs());
    } else if (!(await tab.personInput(input))) {
      return 'unknown_key';
    }
    this.session.handOffs.noteInput(tabId);
    return 'ok';
  }

  done(tabId: number, note: string | null): boolean {
    return this.session.handOffs.done(tabId, note);
  }

  private broadcast(event: string, data: unknown): void {
    for (const viewer of this.viewers) this.send(viewer, event, data);
  }

  private send(viewer: Viewer, event: string, data: unknown): void {
    if (viewer.res.writableEnded) return;
    viewer.res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  close(): void {
    this.closed = true;
    clearInterval(this.keepalive);
    this.stopWatching();
    this.stopHolds();
    for (const viewer of this.viewers) viewer.res.end();
    this.viewers.clear();
  }
}
