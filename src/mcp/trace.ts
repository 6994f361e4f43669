// --save-trace: a session's calls written as one HTML file in the output dir as they happen (trace-html.ts renders
// it): each call with its arguments, reply, verdict and duration, and a picture of its tab after each action. A call
// watcher (call-watch.ts): nothing here holds up or changes a reply.
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { insideDir, makeOutputDir, writeOwnFile } from '../browser/group/index.js';
import type { BrowserManager } from '../browser/manager.js';
import { isToolError } from '../errors.js';
import { secretArgument, writesStep, type CallArgs, type Tool } from '../tools/tool.js';
import { VERSION } from '../version.js';
import type { CallWatcher, EndedCall, WatchedCall } from './call-watch.js';
import { renderCard, renderTrace, type ShownArg, type TraceEntry } from './trace-html.js';
import { tracePicture, type Mark, type Point } from './trace-shot.js';

/** Pictures a trace holds; the actions after those are listed without one (the file says so). */
export const TRACE_IMAGE_BUDGET = 200;
/** Calls a trace lists; later ones are counted, not listed (an agent left running for days). */
export const TRACE_MAX_CALLS = 2_000;
/** Characters of a reply kept; the card says how long the whole was. */
export const TRACE_MAX_REPLY = 4_000;
const MAX_ARG_CHARS = 1_000;
/** Calls that come close together share one rewrite of the file. */
const WRITE_DELAY_MS = 500;
/** At shutdown, how long the pictures still being taken may hold up the last write. */
const FLUSH_WAIT_MS = 3_000;
const MAX_PASSWORD_REFS = 5_000;
/** The note of a card whose picture is being taken. */
const PENDING = 'Taking the picture…';

/** Snapshot, find and delta lines: `- textbox "Password" [ref=ref_4] [password]` (the recorder reads the same lines). */
const REF_LINE = /^\s*- [\w-]+(?: "(?:[^"\\]|\\.)*")? \[ref=(ref_\d+)\](.*)$/gm;
const PASSWORD_LINE = /^\s*- textbox(?: "(?:[^"\\]|\\.)*")?[^\n]*\[password\]/m;

/** What the trace needs of its session: the browser its pictures come from, and which tabs are its own. */
export interface TracedSession {
  readonly manager: BrowserManager;
  readonly group: { readonly id: string };
}

interface Slot {
  entry: TraceEntry;
  /** The card, rendered once the call and its picture are done. */
  card: string | null;
  done: boolean;
}

const point = (value: unknown): Point | undefined => {
  const candidate = value as { x?: unknown; y?: unknown } | null | undefined;
  return typeof candidate?.x === 'number' && typeof candidate.y === 'number' ? { x: candidate.x, y: candidate.y } : undefined;
};
const pair = (value: unknown): Point | undefined => (Array.isArray(value) && typeof value[0] === 'number' && typeof value[1] === 'number' ? { x: value[0], y: value[1] } : undefined);

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length.toLocaleString('en-US')} characters in all)` : text;
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return '(not shown: nested too deep)';
  }
}

/**
 * The arguments as the card shows them (tabId and computer's action are in its head). `hidden`: the argument that
 * went into a password field; `pending`: one that may have, while the call runs.
 */
function shownArgs(tool: string, args: CallArgs, hidden: string | null, pending: boolean): ShownArg[] {
  const shown: ShownArg[] = [];
  for (const [name, value] of Object.entries(args)) {
    if (name === 'tabId' || (tool === 'computer' && name === 'action')) continue;
    if (name === hidden && typeof value === 'string') {
      shown.push({ name, value: pending ? `${value.length} characters (shown once the call has ended, unless they went into a password field)` : `${value.length} characters, hidden: they went into a password field`, hidden: true });
      continue;
    }
    shown.push({ name, value: cut(json(value), MAX_ARG_CHARS) });
  }
  return shown;
}

function errorCode(result: CallToolResult): string | undefined {
  if (!result.isError) return undefined;
  const code = (result.structuredContent?.['error'] as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : 'failed';
}

function verdictOf(structured: Record<string, unknown> | undefined): boolean | undefined {
  const delivered = structured?.['delivered'] ?? (structured?.['error'] as { delivered?: unknown } | undefined)?.delivered;
  return typeof delivered === 'boolean' ? delivered : undefined;
}

/** How a request_human call ended, from its reply: done (with the person's inputs and note) or the error's outcome. */
function handOffOf(structured: Record<string, unknown> | undefined, error: string | undefined): NonNullable<TraceEntry['handOff']> {
  const details = error ? (structured?.['error'] as Record<string, unknown> | undefined) : structured;
  const inputs = typeof details?.['inputs'] === 'number' ? details['inputs'] : undefined;
  const note = typeof details?.['note'] === 'string' ? cut(details['note'], MAX_ARG_CHARS) : undefined;
  const outcomes: Record<string, string> = { human_timeout: 'timed out (no Done in time)', human_declined: 'declined by the person', no_live_view: 'not offered: no live view', held_by_person: 'refused: the tab was already held', failed: 'ended without Done: the call was cancelled or failed' };
  const outcome = error ? (outcomes[error] ?? `failed (${error})`) : `done${structured?.['via'] === 'client' ? ' (in the MCP client)' : ' (in the live view)'}`;
  return { outcome, ...(inputs !== undefined ? { inputs } : {}), ...(note ? { note } : {}) };
}

/** Why no picture could be taken, for its card. */
function noPicture(error: unknown): string {
  if (isToolError(error, 'tab_closed') || isToolError(error, 'browser_crashed')) return 'No picture: the tab had closed.';
  if (isToolError(error)) return `No picture: the tab could not be captured (${error.code}).`;
  return 'No picture: the capture failed.';
}

export class SessionTrace implements CallWatcher {
  /** trace-<time>-<id>: the file's name without .html, and the session's name in it. */
  readonly name: string;
  readonly path: string;
  private readonly startedAt = Date.now();
  private readonly slots = new Map<number, Slot>();
  private callsLeftOut = 0;
  private failed = 0;
  /** Taken or being taken: the budget counts these. */
  private picturesTaken = 0;
  private picturesLeftOut = 0;
  private firefox: string | null = null;
  /** Refs the replies showed as password fields (text typed by ref into one is hidden). */
  private readonly passwordRefs = new Set<string>();
  /** Per tab: where the pointer last went (a drag without start_coordinate starts there) and whether into a password field. */
  private readonly pointers = new Map<number, { at: Point; password: boolean }>();
  private readonly taking = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private queued = false;
  private writing: Promise<void> = Promise.resolve();
  private failedWrite = false;

  constructor(
    private readonly session: TracedSession,
    /** The session's tools by name: their script lines say which calls act and which argument may be a secret. */
    private readonly toolOf: (name: string) => Tool | undefined,
    private readonly outputDir: string,
    private readonly imageBudget = TRACE_IMAGE_BUDGET,
  ) {
    this.name = `trace-${new Date(this.startedAt).toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`;
    this.path = insideDir(outputDir, `${this.name}.html`);
  }

  callStarted(call: WatchedCall): void {
    if (this.slots.size >= TRACE_MAX_CALLS) {
      this.callsLeftOut++;
      this.schedule();
      return;
    }
    const entry: TraceEntry = {
      id: call.id,
      tool: call.tool,
      ...(call.tool === 'computer' && typeof call.args['action'] === 'string' ? { action: call.args['action'] } : {}),
      args: shownArgs(call.tool, call.args, this.secretArgOf(call), true),
      ...(call.tabId !== undefined ? { tabId: call.tabId } : {}),
      startedAt: call.startedAt,
      acting: false,
    };
    this.slots.set(call.id, { entry, card: null, done: false });
    this.schedule();
  }

  callEnded(call: EndedCall): void {
    const slot = this.slots.get(call.id);
    if (!slot) return;
    const { result } = call;
    const structured = result.structuredContent;
    const text = result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
    const error = errorCode(result);
    if (error) this.failed++;
    const tabId = call.tabId ?? (call.tool === 'tabs_create_mcp' && typeof structured?.['tabId'] === 'number' ? structured['tabId'] : undefined);
    // Whether the text went into a password field is decided from what the session knew before this reply, and the reply.
    const secret = this.secretArgOf(call);
    const hidden = secret && this.wentIntoPassword(call, structured, text, tabId) ? secret : null;
    this.learn(text);
    const mark = this.markOf(call, structured, tabId);
    const tool = this.toolOf(call.tool);
    const entry = slot.entry;
    entry.args = shownArgs(call.tool, call.args, hidden, false);
    entry.durationMs = call.durationMs;
    if (error) entry.error = error;
    const delivered = verdictOf(structured);
    if (delivered !== undefined) entry.delivered = delivered;
    entry.reply = text.slice(0, TRACE_MAX_REPLY);
    if (text.length > TRACE_MAX_REPLY) entry.replyLength = text.length;
    const images = result.content.filter((block) => block.type === 'image').length;
    if (images) entry.replyImages = images;
    // A hand-off is left out of scripts, yet the person changed the page: it gets a picture too.
    entry.acting = Boolean(tool && (writesStep(tool.script, call.args) || tool.needsPerson));
    if (tool?.needsPerson) entry.handOff = handOffOf(structured, error);
    if (tabId !== undefined) entry.tabId = tabId;
    if (entry.acting) this.takePicture(slot, tabId, mark);
    slot.done = entry.pictureNote !== PENDING;
    this.schedule();
  }

  /** The argument this call's tool declares may hold a secret (computer type's text, form_input's value), if any. */
  private secretArgOf(call: WatchedCall): string | null {
    const tool = this.toolOf(call.tool);
    const arg = tool ? secretArgument(tool.script, call.args) : null;
    return arg !== null && typeof call.args[arg] === 'string' ? arg : null;
  }

  /**
   * As the recorder decides it (recorder.ts, secretOf): a ref a reply showed as `[password]`, a tool that answered
   * masked, a password field's line in this reply; and text typed at the focus after the pointer went into one.
   */
  private wentIntoPassword(call: WatchedCall, structured: Record<string, unknown> | undefined, text: string, tabId: number | undefined): boolean {
    const ref = call.args['ref'];
    if (typeof ref === 'string' && this.passwordRefs.has(ref)) return true;
    if (structured?.['masked'] === true || PASSWORD_LINE.test(text)) return true;
    return ref === undefined && tabId !== undefined && this.pointers.get(tabId)?.password === true;
  }

  private learn(text: string): void {
    for (const match of text.matchAll(REF_LINE)) {
      this.passwordRefs.delete(match[1]!);
      if (/ \[password\]/.test(match[2] ?? '')) this.passwordRefs.add(match[1]!);
    }
    while (this.passwordRefs.size > MAX_PASSWORD_REFS) this.passwordRefs.delete(this.passwordRefs.values().next().value as string);
  }

  /** Where the action went (structured `point`); a drag's start is start_coordinate or where the pointer was. */
  private markOf(call: WatchedCall, structured: Record<string, unknown> | undefined, tabId: number | undefined): Mark {
    const at = point(structured?.['point']);
    const action = typeof call.args['action'] === 'string' ? call.args['action'] : undefined;
    if (!at || tabId === undefined) return {};
    const from = action === 'left_click_drag' ? (pair(call.args['start_coordinate']) ?? this.pointers.get(tabId)?.at) : undefined;
    const target = (structured?.['target'] as { ref?: unknown } | undefined)?.ref;
    this.pointers.set(tabId, { at, password: typeof target === 'string' && this.passwordRefs.has(target) });
    return { point: at, ...(from ? { from } : {}), ...(action ? { label: action } : {}) };
  }

  /**
   * The tab after the action, taken through the tab's call queue (queued now, before the agent's next call can be):
   * it never interleaves with one. Skipped when the tab is closed or the budget is spent.
   */
  private takePicture(slot: Slot, tabId: number | undefined, mark: Mark): void {
    const entry = slot.entry;
    const tab = tabId === undefined ? undefined : this.session.manager.live?.tab(tabId);
    if (!tab || tab.groupId !== this.session.group.id || tab.isClosed) {
      entry.pictureNote = tabId === undefined ? 'No picture: the call names no tab.' : 'No picture: the tab is closed.';
      return;
    }
    if (this.picturesTaken >= this.imageBudget) {
      this.picturesLeftOut++;
      entry.pictureNote = `No picture: the budget of ${this.imageBudget} pictures is spent.`;
      return;
    }
    this.picturesTaken++;
    entry.pictureNote = PENDING;
    const release = this.session.manager.hold();
    const taking: Promise<void> = tab
      .serialize(async () => {
        tab.assertUsable();
        return tracePicture(tab, mark);
      })
      .then(
        (picture) => {
          entry.picture = picture;
          delete entry.pictureNote;
        },
        (error: unknown) => {
          this.picturesTaken--;
          entry.pictureNote = noPicture(error);
        },
      )
      .finally(() => {
        release();
        this.taking.delete(taking);
        slot.done = true;
        this.schedule();
      });
    this.taking.add(taking);
  }

  private render(): string {
    const version = this.session.manager.live?.version;
    // Firefox answers "firefox 153.8.0" (its browserName and version).
    if (version && version !== 'Firefox') this.firefox = version.replace(/^firefox\b/i, 'Firefox');
    let pictures = 0;
    const cards = [...this.slots.values()].map((slot) => {
      if (slot.entry.picture) pictures++;
      if (!slot.done) return renderCard(slot.entry, this.startedAt);
      return (slot.card ??= renderCard(slot.entry, this.startedAt));
    });
    return renderTrace(
      {
        name: this.name,
        startedAt: this.startedAt,
        firefox: this.firefox,
        version: VERSION,
        calls: this.slots.size + this.callsLeftOut,
        failed: this.failed,
        pictures,
        imageBudget: this.imageBudget,
        picturesLeftOut: this.picturesLeftOut,
        callsLeftOut: this.callsLeftOut,
        maxCalls: TRACE_MAX_CALLS,
      },
      cards,
    );
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.queueWrite();
    }, WRITE_DELAY_MS);
  }

  /** One write at a time; a write asked for while one is queued is that one (it renders when it starts: the latest state). */
  private queueWrite(): void {
    if (this.queued) return;
    this.queued = true;
    this.writing = this.writing
      .then(async () => {
        this.queued = false;
        const html = this.render();
        await makeOutputDir(this.outputDir);
        await writeOwnFile(this.path, html);
      })
      .catch((error: unknown) => {
        this.queued = false;
        if (this.failedWrite) return;
        this.failedWrite = true;
        process.stderr.write(`firefox-use: could not write the trace ${this.path}: ${(error as Error).message}\n`);
      });
  }

  /** At shutdown: the pictures under way (a few seconds at most), then the last write. */
  async flush(): Promise<void> {
    if (this.slots.size === 0 && this.callsLeftOut === 0) return;
    await Promise.race([Promise.allSettled([...this.taking]), new Promise((resolve) => setTimeout(resolve, FLUSH_WAIT_MS).unref())]);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.queueWrite();
    await this.writing;
  }
}
