import { makeOutputDir } from '../browser/group/index.js';
import { writeOwnFile } from '../browser/group/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { secretArgument, type CallArgs, type Tool } from '../tools/tool.js';
import { renderScript, type ExportedScript } from './script-export.js';

/** What a ref named when the session saw it in a reply: the element's role, name and whether it is a password field. */
export interface RefInfo {
  role: string;
  name: string;
  password: boolean;
}

/**
 * How a ref used by a call can be found again when the script re-runs: a `find` query whose matches hold it at
 * `match` (1-based), checked on the page just before the call ran. `query` null: no query picks it out.
 */
export interface RefPin {
  ref: string;
  query: string | null;
  match: number;
  info?: RefInfo;
}

/** One call of the session, as the export needs it. */
export interface RecordedCall {
  tool: string;
  args: Record<string, unknown>;
  ok: boolean;
  /** `code: message` of a failure. */
  error?: string;
  /** The tab the call acted on (tab tools) or made (tabs_create_mcp). */
  tabId?: number;
  createdTab?: number;
  pin?: RefPin;
  /** The text typed or set went into a password field: the export writes an environment variable instead. */
  secretField?: string;
}

/**
 * The refs a `find` for `query` lists, best first, on the page the call is about to act on. Handed in by the
 * dispatcher, which holds the call's tab: the recorder runs no tool (a handler called from here would skip the
 * dispatcher's checks and would tie the recorder to one tool's arguments), and the ranking is find's own, so the
 * replay's find picks the same match.
 */
export type RefLocator = (query: string, maxResults: number) => Promise<readonly string[]>;

/** Snapshot and find lines: `- button "Log in" [ref=ref_4] [password]`. */
const REF_LINE = /^\s*- ([\w-]+)(?: "((?:[^"\\]|\\.)*)")? \[ref=(ref_\d+)\](.*)$/gm;
/** How many calls a session keeps for the export (an agent left running for days must not grow without end). */
const MAX_CALLS = 5_000;
const MAX_KNOWN_REFS = 20_000;
/** How many matches the pinning find looks through. */
const PIN_RESULTS = 10;

/** Builds the query `find` would answer with this element: its role and its name. */
export function pinQuery(info: RefInfo): string {
  return `${info.role} ${info.name}`.replace(/\s+/g, ' ').trim().slice(0, 200);
}

/**
 * Keeps an MCP session's calls so they can be written out as a `run` script (docs/scripting.md): the successful calls
 * as steps, the failed ones as comments, refs replaced by a find that picks the same element, and text typed into
 * password fields replaced by `${FIREFOX_USE_SECRET_N}`.
 */
export class SessionRecorder {
  readonly calls: RecordedCall[] = [];
  private readonly refs = new Map<string, RefInfo>();
  private droppedCalls = 0;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    /** With --save-script: the file rewritten after every call. */
    readonly autosavePath: string | null = null,
    /** Written into the script's header so a replay uses the same window. */
    readonly viewport = '',
    /** The output dir the autosave file is in (made before the first write). */
    private readonly outputDir = '',
    /** Names of --secrets: their `${NAME}` stays a reference in the script, filled in by a replay with the same file. */
    private readonly secretNames: ReadonlySet<string> = new Set(),
  ) {}

  /** Learns the refs a reply showed (snapshot, find, delta and target lines) and what each one is. */
  learn(result: CallToolResult): void {
    for (const block of result.content) {
      if (block.type !== 'text') continue;
      for (const match of block.text.matchAll(REF_LINE)) {
        const info: RefInfo = { role: match[1]!, name: (match[2] ?? '').replace(/\\(.)/g, '$1'), password: / \[password\]/.test(match[4] ?? '') };
        this.refs.delete(match[3]!);
        this.refs.set(match[3]!, info);
      }
    }
    const target = (result.structuredContent as { target?: { ref?: string; role?: string; name?: string } } | undefined)?.target;
    if (target?.ref && target.role !== undefined && !this.refs.has(target.ref)) this.refs.set(target.ref, { role: target.role, name: target.name ?? '', password: false });
    while (this.refs.size > MAX_KNOWN_REFS) this.refs.delete(this.refs.keys().next().value as string);
  }

  /**
   * Before a call that takes a ref runs: which find query picks its element out on the page as it is now. Never
   * throws; a ref no query finds is kept as it is (and the export says so).
   */
  async pin(args: CallArgs, locate: RefLocator): Promise<RefPin | undefined> {
    const ref = args['ref'];
    if (typeof ref !== 'string') return undefined;
    const info = this.refs.get(ref);
    if (!info) return { ref, query: null, match: 0 };
    const query = pinQuery(info);
    if (!query) return { ref, query: null, match: 0, info };
    try {
      const index = (await locate(query, PIN_RESULTS)).indexOf(ref);
      return index < 0 ? { ref, query: null, match: 0, info } : { ref, query, match: index + 1, info };
    } catch {
      return { ref, query: null, match: 0, info };
    }
  }

  /** Keeps one finished call (a failure too: the export writes it as a comment). */
  record(tool: Tool, args: CallArgs, result: CallToolResult, pin?: RefPin): void {
    const structured = result.structuredContent as Record<string, unknown> | undefined;
    const call: RecordedCall = { tool: tool.name, args, ok: !result.isError };
    if (result.isError) {
      const first = result.content[0];
      call.error = first?.type === 'text' ? first.text.split('\n')[0]!.slice(0, 200) : 'failed';
    } else {
      this.learn(result);
    }
    if (typeof args['tabId'] === 'number') call.tabId = args['tabId'];
    if (tool.name === 'tabs_create_mcp' && typeof structured?.['tabId'] === 'number') call.createdTab = structured['tabId'];
    if (pin) call.pin = pin;
    const secret = this.secretOf(tool, args, result, pin);
    if (secret !== undefined) call.secretField = secret;
    this.calls.push(call);
    if (this.calls.length > MAX_CALLS) {
      this.calls.shift();
      this.droppedCalls++;
    }
    if (this.autosavePath) this.save(this.autosavePath);
  }

  /**
   * The name of the password field text went into, or undefined when the text is not a secret. Which argument may
   * hold one is the tool's own declaration (`script.secret` in defineTool). A ref's own line says `[password]`; a
   * field typed into without a ref shows its line in the reply's delta; a tool that sets a value answers masked.
   */
  private secretOf(tool: Tool, args: CallArgs, result: CallToolResult, pin?: RefPin): string | undefined {
    const arg = secretArgument(tool.script, args);
    if (arg === null || typeof args[arg] !== 'string') return undefined;
    if (pin?.info?.password) return pin.info.name;
    const structured = result.structuredContent as Record<string, unknown> | undefined;
    if (structured?.['masked'] === true) return pin?.info?.name ?? '';
    const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
    const line = /^\s*- textbox(?: "((?:[^"\\]|\\.)*)")?[^\n]*\[password\]/m.exec(text);
    return line ? (line[1] ?? '').replace(/\\(.)/g, '$1') : undefined;
  }

  /** The script as text, with what it left out. */
  export(): ExportedScript {
    return renderScript(this.calls, { droppedCalls: this.droppedCalls, viewport: this.viewport, secretNames: this.secretNames });
  }

  /** Rewrites the --save-script file (one write at a time, the latest state last). */
  private save(path: string): void {
    const text = this.export().text;
    this.writing = this.writing.then(async () => {
      if (this.outputDir) await makeOutputDir(this.outputDir);
      await writeOwnFile(path, text);
    }).catch((error: unknown) => {
      process.stderr.write(`firefox-use: could not write the session script ${path}: ${(error as Error).message}\n`);
    });
  }

  /** Waits for the last --save-script write (at shutdown). */
  flush(): Promise<void> {
    return this.writing;
  }
}
