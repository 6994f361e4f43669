// A scripted, in-memory stand-in for the BiDi connection (the `BidiLink` interface of src/bidi/connection.ts), for
// unit tests of the browser layer without Firefox or a socket. It answers each command from a script (per method,
// and for page operations per operation name, encoded as the call stub answers: JSON text `{ok, value}`), records
// every command in the order it was sent, and emits events to the Browser's listeners.
import { BidiError, commandTimeout } from '../../dist/bidi/connection.js';
import { ToolError } from '../../dist/errors.js';
import { Browser } from '../../dist/browser/browser.js';
import { CALL_STUB } from '../../dist/browser/tab/page-script.js';

/** An answer that never comes: the command times out after its `timeout`, with the error the real connection gives. */
export const NEVER = Symbol('never');

/** A page operation's coded failure (`PageError` in src/page): the page answers `{ok: false, error}`. */
export class PageFailure {
  constructor(code, message, details) {
    Object.assign(this, { code, message, ...(details ? { details } : {}) });
  }
}

const success = (result) => ({ type: 'success', realm: 'fake', result });

/** What a Browser asks when it attaches and opens a tab, and what input commands answer. */
function defaultAnswers(link) {
  return {
    'session.subscribe': {},
    'script.addPreloadScript': { script: 'preload' },
    'browsingContext.getTree': { contexts: [] },
    'browsingContext.create': () => {
      const context = link.nextContext();
      // Firefox announces the new context before it answers.
      link.emit('browsingContext.contextCreated', { context, url: 'about:blank', children: null, parent: null, userContext: 'default', originalOpener: null, clientWindow: 'w1' });
      return { context };
    },
    'browsingContext.setViewport': {},
    'browsingContext.activate': {},
    'input.performActions': {},
    'input.releaseActions': {},
    // The page scripts' install into a document that lacks them.
    'script.evaluate': success({ type: 'undefined' }),
  };
}

export class FakeBidiLink {
  /** Every command in the order it was sent: {method, params, options}; page operations also carry `op` and `args`. */
  sent = [];
  closed = false;
  #answers;
  #ops = new Map();
  #listeners = new Map();
  #disconnect = [];
  #contexts = 0;

  constructor() {
    this.#answers = new Map(Object.entries(defaultAnswers(this)));
  }

  /** Scripts a command's answer: a value, or `(params, options) => value` (may throw, return a promise or NEVER). */
  answer(method, reply) {
    this.#answers.set(method, reply);
    return this;
  }

  /** Scripts a page operation's answer: a value, or `(args, {context}) => value` (a PageFailure for a coded failure). */
  page(op, reply) {
    this.#ops.set(op, reply);
    return this;
  }

  /** The page operations called, in order: {op, args, context}. */
  get pageCalls() {
    return this.sent.filter((c) => c.op).map(({ op, args, params }) => ({ op, args, context: params.target.context }));
  }

  /** The commands of one method, in order. */
  sentOf(method) {
    return this.sent.filter((c) => c.method === method);
  }

  nextContext() {
    return this.#contexts++ === 0 ? 'top' : `tab-${this.#contexts}`;
  }

  /** Delivers an event to the listeners, at once, as the connection does when a message arrives. */
  emit(event, params) {
    for (const listener of [...(this.#listeners.get(event) ?? [])]) listener(params);
  }

  async send(method, params, options = {}) {
    if (this.closed) throw new ToolError('browser_crashed', 'The connection to Firefox was closed.');
    const command = { method, params, options };
    const page = method === 'script.callFunction' && params.functionDeclaration === CALL_STUB;
    if (page) Object.assign(command, { op: params.arguments[0].value, args: JSON.parse(params.arguments[1].value) });
    this.sent.push(command);
    // An answer never comes in the same tick as its command.
    await Promise.resolve();
    const result = page ? await this.#pageAnswer(command) : await this.#reply(method, params, options);
    if (result === NEVER) {
      const timeout = options.timeout ?? 30_000;
      await new Promise((resolve) => setTimeout(resolve, timeout));
      throw commandTimeout(method, timeout, options.write);
    }
    return result;
  }

  on(event, listener) {
    const set = this.#listeners.get(event) ?? new Set();
    this.#listeners.set(event, set.add(listener));
    return () => set.delete(listener);
  }

  onDisconnect(listener) {
    this.#disconnect.push(listener);
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    const error = new ToolError('browser_crashed', 'The connection to Firefox was closed.');
    for (const listener of this.#disconnect.splice(0)) listener(error);
  }

  async #reply(method, params, options) {
    if (!this.#answers.has(method)) throw new BidiError(method, 'unknown command', 'not in the fake\'s script');
    const reply = this.#answers.get(method);
    return typeof reply === 'function' ? reply(params, options) : reply;
  }

  async #pageAnswer({ op, args, params }) {
    if (!this.#ops.has(op)) throw new Error(`FakeBidiLink: page operation ${op} is not scripted`);
    const reply = this.#ops.get(op);
    const value = typeof reply === 'function' ? await reply(args, { context: params.target.context }) : reply;
    if (value === NEVER) return NEVER;
    const answer = value instanceof PageFailure ? { ok: false, error: { ...value } } : { ok: true, value };
    return success({ type: 'string', value: JSON.stringify(answer) });
  }
}

/**
 * A Browser attached to a fresh fake link, with one tab open on the top-level context 'top'.
 * `timeouts.action` is short, so a command scripted NEVER fails in a test's time.
 */
export async function browserOnFake({ actionTimeout = 300 } = {}) {
  const link = new FakeBidiLink();
  const host = { pid: -1, onExit() {}, killNow() {}, async shutdown() {}, async waitForExit() {} };
  const options = { timeouts: { action: actionTimeout, navigation: 2_000 }, viewport: { width: 800, height: 600 } };
  const browser = await Browser.attach(link, host, options, 'fake');
  const tab = await browser.createTab('unit');
  return { link, browser, tab };
}
