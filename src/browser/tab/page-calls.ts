// Calls into a tab's documents through script.*: the page-script operations in the sandbox realm (installed on
// demand), element references for commands that take an element, frames' windows, and code in the page's own realm.
// The Tab owns one and hands it its private connection.
//
// Every script sent from here is one of the stubs below or the bundle itself: what runs in the page is a typed
// operation of src/page (PageOperations). Three exceptions, each because its answer is not JSON text: ELEMENT_STUB
// returns a node and WINDOWS_OF frames' windows, both as BiDi remote values (shared references, window contexts);
// evaluateInPage runs the agent's own code (javascript_tool) in the page's main realm, where its globals are.
import type { Script } from 'webdriver-bidi-protocol';
import type { BidiLink } from '../../bidi/connection.js';
import { ToolError } from '../../errors.js';
import type { PageArgs, PageOperationName, PageResult } from '../../contract/index.js';
import { CALL_STUB, ELEMENT_STUB, NOT_INSTALLED, SANDBOX, pageScriptSource, type PageAnswer, type PageFailure } from './page-script.js';

export interface PageCallOptions {
  /** A frame's browsing context; the tab's top-level context by default. */
  context?: string;
  timeout?: number;
  /** True when the call may change the page (a timeout is then reported with unknown effects). */
  write?: boolean;
  /** Elements (BiDi shared references) handed to the op as its second argument. */
  nodes?: Script.SharedReference[];
  /** Runs as if the user had just acted: what a copy command needs (copyText). */
  userActivation?: boolean;
  /**
   * The call must run in the document it was sent to, before anything sent after it (keys sent with it): a
   * document without the page scripts fails the call (with unknown effects) instead of installing them first.
   */
  noInstall?: boolean;
}

/** An operation's argument, optional when it takes none, then the call's options. */
export type PageCallArgs<Op extends PageOperationName> =
  Record<string, never> extends PageArgs<Op> ? [args?: PageArgs<Op>, options?: PageCallOptions] : [args: PageArgs<Op>, options?: PageCallOptions];

/** What the calls need of their tab: its id and top context, its action timeout, and its race against dialogs and closing. */
export interface ScriptHost {
  readonly id: number;
  readonly context: string;
  readonly timeouts: { action: number };
  race<T>(work: Promise<T>): Promise<T>;
}

/**
 * The windows of iframe elements (by local id) as BiDi window values, whose context ids only the remote-value
 * serialization carries: JSON text from a page operation cannot name a browsing context.
 */
const WINDOWS_OF = `function (docId, ids) {
  const of = globalThis.__firefoxUseFrameWindows;
  return of ? of(docId, JSON.parse(ids)) : null;
}`;

export class PageScripts {
  constructor(
    private readonly bidi: BidiLink,
    private readonly tab: ScriptHost,
  ) {}

  /** A page-script operation in `context`'s sandbox, installing the scripts first if that document lacks them. */
  async call<Op extends PageOperationName>(op: Op, args: PageArgs<Op> | undefined, options: PageCallOptions, context: string): Promise<PageResult<Op>> {
    const timeout = options.timeout ?? this.tab.timeouts.action;
    const params: Script.CallFunctionParameters = {
      functionDeclaration: CALL_STUB,
      awaitPromise: true,
      target: { context, sandbox: SANDBOX },
      arguments: [
        { type: 'string', value: op },
        { type: 'string', value: JSON.stringify(args ?? {}) },
        ...(options.nodes ?? []),
      ],
      resultOwnership: 'none',
      ...(options.userActivation ? { userActivation: true } : {}),
    };
    let text = await this.callScript(params, timeout, options.write);
    if (text === NOT_INSTALLED) {
      if (options.noInstall) {
        throw new ToolError('ref_stale', 'The page changed while the action went out (a document without firefox-use\'s page scripts); what reached it is not known. Look (read_page or screenshot) before you retry.', { reason: 'other_document', unknown_effects: true });
      }
      await this.install(context, timeout);
      text = await this.callScript(params, timeout, options.write);
    }
    const answer = JSON.parse(text) as PageAnswer<PageResult<Op>>;
    if (!answer.ok) this.fail(answer);
    return answer.value;
  }

  /**
   * A BiDi shared reference to the element of a ref's (frame, document, local id), for commands that take an
   * element (input.setFiles). A document without page scripts cannot hold our ids: the ref is then stale.
   */
  async elementReference(frameContext: string, docId: string, localId: number): Promise<Script.SharedReference> {
    const result = await this.tab.race(
      this.bidi.send(
        'script.callFunction',
        {
          functionDeclaration: ELEMENT_STUB,
          awaitPromise: false,
          target: { context: frameContext, sandbox: SANDBOX },
          arguments: [
            { type: 'string', value: docId },
            { type: 'number', value: localId },
          ],
          resultOwnership: 'none',
        },
        { timeout: this.tab.timeouts.action },
      ),
    );
    if (result.type === 'exception') throw new ToolError('internal_error', `Page script failed: ${result.exceptionDetails.text}`, { tabId: this.tab.id });
    const value = result.result;
    if (value.type === 'node' && value.sharedId) return { sharedId: value.sharedId };
    if (value.type === 'string' && value.value !== NOT_INSTALLED) {
      const answer = JSON.parse(value.value) as PageAnswer<never>;
      if (!answer.ok) this.fail(answer);
    }
    throw new ToolError('ref_stale', 'That ref belongs to an earlier document in this frame (the page navigated or reloaded).', {
      reason: 'other_document',
      tabId: this.tab.id,
    });
  }

  /** See Tab.evaluateInPage. */
  evaluateInPage(expression: string): Promise<Script.EvaluateResult> {
    return this.tab.race(
      this.bidi.send(
        'script.evaluate',
        {
          expression,
          target: { context: this.tab.context },
          awaitPromise: true,
          resultOwnership: 'none',
          userActivation: true,
          serializationOptions: { maxDomDepth: 0, maxObjectDepth: 6, includeShadowTree: 'none' },
        },
        { timeout: this.tab.timeouts.action, write: true },
      ),
    );
  }

  /** See Tab.frameContextsOf. */
  async frameContextsOf(context: string, docId: string, ids: number[]): Promise<Array<string | null>> {
    const result = await this.tab.race(
      this.bidi.send(
        'script.callFunction',
        {
          functionDeclaration: WINDOWS_OF,
          awaitPromise: false,
          target: { context, sandbox: SANDBOX },
          arguments: [
            { type: 'string', value: docId },
            { type: 'string', value: JSON.stringify(ids) },
          ],
          resultOwnership: 'none',
          serializationOptions: { maxObjectDepth: 1 },
        },
        { timeout: this.tab.timeouts.action },
      ),
    );
    if (result.type !== 'success' || result.result.type !== 'array') return [];
    const values = (result.result.value ?? []) as Script.RemoteValue[];
    return ids.map((_id, index) => {
      const value = values[index];
      return value?.type === 'window' ? (value as Script.WindowProxyRemoteValue).value.context : null;
    });
  }

  /** A failure the page script sent back as data, thrown with its contract code. */
  private fail(answer: { ok: false; error: PageFailure }): never {
    throw new ToolError(answer.error.code as ToolError['code'], answer.error.message, { ...(answer.error.details ?? {}), tabId: this.tab.id });
  }

  private async callScript(params: Script.CallFunctionParameters, timeout: number, write?: boolean): Promise<string> {
    const result = await this.tab.race(this.bidi.send('script.callFunction', params, { timeout, write }));
    if (result.type === 'exception') {
      throw new ToolError('internal_error', `Page script failed: ${result.exceptionDetails.text}`, { tabId: this.tab.id });
    }
    const value = result.result;
    if (value.type !== 'string') throw new ToolError('internal_error', `Page script returned ${value.type}, not text.`);
    return value.value;
  }

  private async install(context: string, timeout: number): Promise<void> {
    await this.tab.race(
      this.bidi.send('script.evaluate', { expression: pageScriptSource(), awaitPromise: false, target: { context, sandbox: SANDBOX }, resultOwnership: 'none' }, { timeout }),
    );
  }
}
