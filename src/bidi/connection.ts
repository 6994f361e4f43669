import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import WebSocket from 'ws';
import type { Commands, EventData } from 'webdriver-bidi-protocol';
import { ToolError } from '../errors.js';
import { FrameTail } from './frame-tail.js';

export type CommandName = keyof Commands;
export type CommandParams<M extends CommandName> = Commands[M]['params'];
export type CommandResult<M extends CommandName> = Commands[M]['returnType'];
export type EventName = EventData['method'];
export type EventParams<E extends EventName> = Extract<EventData, { method: E }>['params'];

export interface SendOptions {
  /** Milliseconds before the command is given up on. */
  timeout?: number;
  /** True when the command may change the page: a timeout then reports unknown effects. */
  write?: boolean;
}

/** An error answer from the remote end, with the spec's error code. */
export class BidiError extends Error {
  constructor(
    readonly method: string,
    readonly error: string,
    message: string,
  ) {
    super(`${method}: ${error}: ${message}`);
  }
}

/**
 * What the browser layer needs of a BiDi connection: typed commands and events, its end. `BidiConnection` is the
 * WebSocket one; unit tests hand Browser and Tab a scripted in-memory one (test/helpers/fake-bidi-link.mjs).
 */
export interface BidiLink {
  /** True once the connection is gone: every later send rejects. */
  readonly closed: boolean;
  /** Sent exactly once; a timeout rejects with `commandTimeout`'s error, never retried. */
  send<M extends CommandName>(method: M, params: CommandParams<M>, options?: SendOptions): Promise<CommandResult<M>>;
  /** Calls `listener` for each event of that name; returns the function that stops it. */
  on<E extends EventName>(event: E, listener: (params: EventParams<E>) => void): () => void;
  /** Called once when the connection goes away, whatever the reason. */
  onDisconnect(listener: (error: Error) => void): void;
  close(): void;
}

/** The error a command gets when its answer did not come in time: a write may have been done by the browser. */
export function commandTimeout(method: string, timeout: number, write: boolean | undefined): ToolError {
  return new ToolError('timeout', `Firefox did not answer ${method} within ${timeout} ms.`, { method, unknown_effects: write === true });
}

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** FIREFOX_USE_TRACE_BIDI=1 writes every command's round trip, and every event, to stderr: where an action's time goes. */
const TRACE = process.env.FIREFOX_USE_TRACE_BIDI === '1';

function traceDetail(params: unknown): string {
  const fn = (params as { functionDeclaration?: unknown; arguments?: { value?: unknown }[] } | null)?.arguments?.[0]?.value;
  return typeof fn === 'string' ? ` ${fn}` : '';
}

/**
 * One WebSocket to Firefox's Remote Agent. It knows commands, answers and events, nothing of tabs or tools.
 * A command is sent exactly once: a timeout is reported, never retried.
 */
export class BidiConnection implements BidiLink {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly events = new EventEmitter();
  private closedError: Error | null = null;
  /** Frames written so far, and their count when the last message came in: written since, its ACK went out. */
  private writes = 0;
  private writesAtLastMessage = 0;
  private nudgeQueued = false;

  private constructor(
    private readonly socket: WebSocket,
    raw: Duplex | null,
  ) {
    this.events.setMaxListeners(0);
    const tail = new FrameTail();
    raw?.on('data', (chunk: Buffer) => {
      if (tail.feed(chunk)) this.acknowledge();
    });
    socket.on('message', (data) => {
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- ws hands text frames over as one Buffer
      this.onMessage(data.toString());
      this.nudge();
    });
    socket.on('close', () => this.onClose(new ToolError('browser_crashed', 'The connection to Firefox was lost.')));
    socket.on('error', (error) => this.onClose(new ToolError('browser_crashed', `The connection to Firefox failed: ${error.message}`)));
  }

  static async connect(url: string, timeoutMs = 10_000): Promise<BidiConnection> {
    const host = new URL(url).hostname;
    if (host !== '127.0.0.1' && host !== 'localhost' && host !== '[::1]' && host !== '::1') {
      // The local Remote Agent only ever listens on loopback; a remote endpoint needs an explicit opt-in elsewhere.
      throw new Error(`Refusing a BiDi endpoint that is not on loopback: ${url}`);
    }
    return BidiConnection.open(url, timeoutMs);
  }

  /** Connects to any endpoint, for a remote WebDriver the user named. */
  static open(url: string, timeoutMs = 10_000): Promise<BidiConnection> {
    return new Promise((resolve, reject) => {
      // Firefox's Remote Agent writes UTF-8 JSON; checking every byte of it again cost ~0.3 ms an action.
      const socket = new WebSocket(url, { perMessageDeflate: false, handshakeTimeout: timeoutMs, skipUTF8Validation: true });
      let raw: Duplex | null = null;
      socket.once('upgrade', (response) => (raw = response.socket));
      socket.once('open', () => resolve(new BidiConnection(socket, raw)));
      socket.once('error', (error) => reject(error));
    });
  }

  get closed(): boolean {
    return this.closedError !== null;
  }

  send<M extends CommandName>(method: M, params: CommandParams<M>, options: SendOptions = {}): Promise<CommandResult<M>> {
    if (this.closedError) return Promise.reject(this.closedError);
    const id = this.nextId++;
    const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    return new Promise<CommandResult<M>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(commandTimeout(method, timeout, options.write));
      }, timeout);
      const started = TRACE ? performance.now() : 0;
      const settle = TRACE
        ? (value: unknown) => {
            process.stderr.write(`[bidi] ${method}${traceDetail(params)} ${(performance.now() - started).toFixed(1)} ms (sent at +${started.toFixed(1)} ms)\n`);
            resolve(value as CommandResult<M>);
          }
        : (resolve as (value: unknown) => void);
      this.pending.set(id, { method, resolve: settle, reject, timer });
      this.writes++;
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  on<E extends EventName>(event: E, listener: (params: EventParams<E>) => void): () => void {
    const wrapped = listener as (params: unknown) => void;
    this.events.on(event, wrapped);
    return () => this.events.off(event, wrapped);
  }

  /** Called once when the socket goes away, whatever the reason. */
  onDisconnect(listener: (error: Error) => void): void {
    this.events.once('__disconnect', listener);
  }

  close(): void {
    if (!this.closedError) this.onClose(new ToolError('browser_crashed', 'The connection to Firefox was closed.'));
    this.socket.terminate();
  }

  /**
   * Firefox writes to this socket with Nagle's algorithm on: a message sent while its previous one is still
   * unacknowledged waits for our ACK, which Linux delays by 40 ms. Two commands in flight at once (or an event
   * followed by a response) then cost 40 ms each. An unsolicited pong (RFC 6455 5.5.3: no reply expected) makes
   * the kernel send that ACK at once, so we send one after every message. Also when nothing is awaited: a wait on
   * events (a document's load) has no command in flight, and Firefox's next event then waited 35-42 ms for the ACK
   * of its previous message (measured on back/forward: navigationCommitted 42 ms after Firefox's timestamp).
   * Once the message's handlers have run (setImmediate: after their microtasks), and only if none of them wrote:
   * an answer is mostly followed at once by the next command, which carries the ACK. A pong per message was half of
   * an action's socket writes, each a syscall here and a message Firefox's main thread handles beside the keys.
   */
  private nudge(): void {
    this.writesAtLastMessage = this.writes;
    if (this.nudgeQueued) return;
    this.nudgeQueued = true;
    setImmediate(() => {
      this.nudgeQueued = false;
      if (this.writes === this.writesAtLastMessage) this.acknowledge();
    });
  }

  /** Any write carries the ACK Firefox's socket waits for; an unsolicited pong is the smallest one allowed. */
  private acknowledge(): void {
    if (this.closedError || this.socket.readyState !== WebSocket.OPEN) return;
    this.writes++;
    this.socket.pong();
  }

  private onMessage(text: string): void {
    let message: { id?: number; type?: string; method?: string; params?: unknown; result?: unknown; error?: string; message?: string };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (message.type === 'event' && message.method) {
      if (TRACE) process.stderr.write(`[bidi] event ${message.method} ${JSON.stringify(message.params).slice(0, 240)} (at +${performance.now().toFixed(1)} ms)\n`);
      this.events.emit(message.method, message.params);
      return;
    }
    if (typeof message.id !== 'number') return;
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    clearTimeout(pending.timer);
    if (message.type === 'error') pending.reject(new BidiError(pending.method, message.error ?? 'unknown error', message.message ?? ''));
    else pending.resolve(message.result);
  }

  private onClose(error: Error): void {
    if (this.closedError) return;
    this.closedError = error;
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    this.pending.clear();
    this.events.emit('__disconnect', error);
  }
}
