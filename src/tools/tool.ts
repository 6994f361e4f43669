import { z } from 'zod';
import type { ServerOptions } from '../config.js';
import { ERROR_CODES, type ErrorCode } from '../errors.js';
import type { TabToolContext, ToolContext } from './context.js';
import { askBeforeActing } from './confirm.js';

export type { TabToolContext, ToolContext } from './context.js';

/** An image for the model: raw bytes, or the base64 text Firefox already sent (saves a decode and re-encode). */
export type ToolImage = { mimeType: 'image/png' | 'image/jpeg' } & ({ data: Buffer; base64?: undefined } | { base64: string; data?: undefined });

/** What a handler hands back; the dispatcher turns it into MCP content and structured output. */
export interface ToolResponse<Out> {
  structured: Out;
  /** Text for the model; by default a compact rendering of `structured`. */
  text?: string;
  images?: ToolImage[];
}

export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** Tool groups --caps can add to the default list. */
export const TOOL_GROUPS = ['storage', 'pdf', 'script'] as const;
export type ToolGroup = (typeof TOOL_GROUPS)[number];

/**
 * Values of a tool's arguments that pick out some of its calls: every argument named holds one of the values listed
 * (`{ action: ['screenshot', 'zoom'] }`).
 */
export type ArgValues<Args> = { readonly [K in keyof Args]?: readonly NonNullable<Args[K]>[] };

/** The argument of a call whose text may be a secret (typed into a password field), in the calls `when` picks out. */
export interface SecretArgument<Args> {
  arg: keyof Args & string;
  when?: ArgValues<Args>;
}

/**
 * How a tool's successful calls are written into an exported `run` script (docs/scripting.md). Every tool declares
 * it, and it agrees with `annotations.readOnlyHint` (a unit test holds them together):
 * - 'looks': reads the page or the session and changes nothing; never a step (readOnlyHint true).
 * - 'waits': changes nothing, yet is a step: the replay waits where the session waited (readOnlyHint true).
 * - `leftOut`: changes only what no step of a replay reads or needs (a file it writes, the tab `run` opens itself);
 *   never a step (readOnlyHint false). The reason is for the next reader.
 * - `step`: changes the page or the session: one step per call, bar the calls `looksWhen` picks out (they only
 *   look). `secret` names the argument whose text the export writes as `${FIREFOX_USE_SECRET_N}` when it went into
 *   a password field; null when the tool takes no such text (a value it sets is written as recorded).
 */
export type ScriptLine<Args> =
  | 'looks'
  | 'waits'
  | { leftOut: string }
  | { step: true; looksWhen?: ArgValues<Args>; secret: SecretArgument<Args> | null };

/** What every tool declares besides its types: how it is listed, what it may fail with, how it is recorded. */
interface ToolFacts {
  name: string;
  title: string;
  /** What the model reads in tools/list: short (the whole default list stays under 9,000 characters). */
  description: string;
  /** The long form, for docs/tools.md only. */
  details?: string;
  annotations: ToolAnnotations;
  /**
   * The codes this tool can fail with beyond those every tool of its scope can (see `errorCodesOf`). The tools doc
   * lists them and the fuzz test fails on any other.
   */
  errors: readonly ErrorCode[];
  /** A group listed only when --caps names it (the tools of no group are listed by default). */
  group?: ToolGroup;
  /**
   * Listed only where a person can be reached: a live view runs (serve's /live, mcp --live-port) or Firefox is
   * --headed (request_human). Elsewhere every call would fail, so the model is not shown it.
   */
  needsPerson?: boolean;
  /** Listed only when the server options allow it (e.g. javascript_tool behind --allow-javascript). */
  enabled?: (options: ServerOptions) => boolean;
  /**
   * --confirm-actions: the tool asks the person itself, at the point where its own checks are done (file_upload);
   * otherwise every acting call is asked about, when the policy matches it, before its handler runs (confirm.ts).
   */
  asksItself?: boolean;
}

interface ToolBase<In extends z.ZodObject, Out extends z.ZodObject> extends ToolFacts {
  input: In;
  output: Out;
  /** Required: a tool that declares nothing does not compile, so no new tool pollutes or leaks exported scripts. */
  script: ScriptLine<z.output<In>>;
  /** Checks across fields a schema cannot state (which fields fit which action); throws invalid_arguments. Runs before anything else. */
  checkArgs?: (args: z.output<In>) => void;
}

/** A tool that works on no particular tab (tab listing and creation). */
export interface SessionTool<In extends z.ZodObject, Out extends z.ZodObject> extends ToolBase<In, Out> {
  scope: 'session';
  handler(context: ToolContext, args: z.output<In>): Promise<ToolResponse<z.output<Out>>>;
}

/**
 * A tool on one tab: the dispatcher resolves `tabId` inside the caller's group, refuses a tab with an open
 * dialog (unless `worksWithDialog`), and queues calls per tab, before the handler runs.
 */
export interface TabTool<In extends z.ZodObject, Out extends z.ZodObject> extends ToolBase<In, Out> {
  scope: 'tab';
  worksWithDialog?: boolean;
  handler(context: TabToolContext, args: z.output<In>): Promise<ToolResponse<z.output<Out>>>;
}

/** Arguments as a call's record and the recorder read them. */
export type CallArgs = Readonly<Record<string, unknown>>;

/** A call whose arguments passed the tool's schema and checks, bound to the tool's handler with their types. */
export type PreparedCall =
  | { scope: 'session'; args: CallArgs; run: (context: ToolContext) => Promise<ToolResponse<Record<string, unknown>>> }
  | { scope: 'tab'; args: CallArgs; tabId: number; run: (context: TabToolContext) => Promise<ToolResponse<Record<string, unknown>>> };

/**
 * A tool as the registry (src/tools/index.ts) and the dispatcher hold it, whatever its argument types: its facts, and
 * `prepare`, which parses raw arguments with the tool's own schema and binds them to its own handler, so no caller
 * has to assert what the arguments are.
 */
export interface Tool extends ToolFacts {
  input: z.ZodObject;
  output: z.ZodObject;
  scope: 'session' | 'tab';
  worksWithDialog?: boolean;
  script: ScriptLine<CallArgs>;
  /** `invalid`: the schema refused them. Throws what `checkArgs` throws (invalid_arguments). */
  prepare(rawArgs: unknown): { call: PreparedCall; invalid?: undefined } | { invalid: z.ZodError; call?: undefined };
}

export function defineTool<In extends z.ZodObject, Out extends z.ZodObject>(tool: SessionTool<In, Out> | TabTool<In, Out>): (SessionTool<In, Out> | TabTool<In, Out>) & Tool {
  const prepare: Tool['prepare'] = (rawArgs) => {
    const parsed = tool.input.safeParse(rawArgs ?? {});
    if (!parsed.success) return { invalid: parsed.error };
    const args = parsed.data;
    tool.checkArgs?.(args);
    // Asked (--confirm-actions) once the arguments passed, before the handler does anything.
    const acting = !tool.asksItself && !tool.annotations.readOnlyHint && writesStep(tool.script as unknown as ScriptLine<CallArgs>, args);
    if (tool.scope === 'session') {
      const run = async (context: ToolContext) => {
        if (acting && context.options.confirmActions.length) await askBeforeActing(tool.name, acting, context, args);
        return tool.handler(context, args);
      };
      return { call: { scope: 'session', args, run } };
    }
    const tabId: unknown = args['tabId'];
    if (typeof tabId !== 'number') throw new Error(`${tool.name}: a tab tool whose arguments have no tabId`);
    const run = async (context: TabToolContext) => {
      if (acting && context.options.confirmActions.length) await askBeforeActing(tool.name, acting, context, args);
      return tool.handler(context, args);
    };
    return { call: { scope: 'tab', args, tabId, run } };
  };
  return { ...tool, prepare };
}

/** Whether every argument `values` names holds one of the values it lists. */
function picks(values: ArgValues<CallArgs>, args: CallArgs): boolean {
  return Object.entries(values).every(([name, listed]) => listed !== undefined && listed.some((value) => value === args[name]));
}

/** Whether a successful call with these arguments is a step of an exported script (not a look, not left out). */
export function writesStep(script: ScriptLine<CallArgs>, args: CallArgs): boolean {
  if (script === 'looks') return false;
  if (script === 'waits') return true;
  if ('leftOut' in script) return false;
  return !(script.looksWhen && picks(script.looksWhen, args));
}

/** The argument of this call whose text may be a secret (the export writes a variable for it); null when none. */
export function secretArgument(script: ScriptLine<CallArgs>, args: CallArgs): string | null {
  if (typeof script === 'string' || !('step' in script) || !script.secret) return null;
  const { arg, when } = script.secret;
  return !when || picks(when, args) ? arg : null;
}

/**
 * What is wrong with a tool's script declaration: none missing (the type requires one; this also catches a tool
 * built around defineTool), each argument it names taking the values listed, and "changes nothing" ('looks',
 * 'waits') exactly when readOnlyHint says so. The unit tests walk every registered tool with it.
 */
export function scriptDeclarationProblems(tool: Tool): string[] {
  const problems: string[] = [];
  // Each argument alone, through the tool's own schema: a name it lacks is refused as an unknown key.
  const alone = tool.input.partial();
  const takes = (where: string, name: string, values: readonly unknown[]) => {
    if (!Object.hasOwn(tool.input.shape, name)) problems.push(`${where}: ${tool.name} has no argument "${name}"`);
    else if (values.length === 0 || values.some((value) => !alone.safeParse({ [name]: value }).success)) problems.push(`${where}: "${name}" does not take ${JSON.stringify(values)}`);
  };
  const picking = (where: string, values: ArgValues<CallArgs>) => {
    for (const [name, listed] of Object.entries(values)) takes(`${where}.${name}`, name, listed ?? []);
  };
  const declared = tool.script;
  // As it is at run time: a tool made without defineTool's type may hold anything.
  const script: unknown = declared;
  if (declared === 'looks' || declared === 'waits') {
    // Changes nothing: nothing more to say.
  } else if (typeof script !== 'object' || script === null) {
    problems.push(`script: ${tool.name} declares no script line ('looks', 'waits', { leftOut } or { step, secret })`);
  } else if ('leftOut' in declared) {
    if (!declared.leftOut.trim()) problems.push(`script.leftOut: ${tool.name} says not why it is left out`);
  } else if (!('step' in script) || script.step !== true) {
    problems.push(`script.step: ${tool.name} declares neither a look nor a step`);
  } else if (!('secret' in script)) {
    problems.push(`script.secret: ${tool.name} declares no secret argument (null when it takes no such text)`);
  } else {
    if (declared.looksWhen) picking('script.looksWhen', declared.looksWhen);
    if (declared.secret) {
      takes('script.secret.arg', declared.secret.arg, ['text that may be a secret']);
      if (declared.secret.when) picking('script.secret.when', declared.secret.when);
    }
  }
  const changesNothing = declared === 'looks' || declared === 'waits';
  if (problems.length === 0 && changesNothing !== (tool.annotations.readOnlyHint === true)) {
    problems.push(`${tool.name}: readOnlyHint is ${String(tool.annotations.readOnlyHint)} but its script line is ${JSON.stringify(declared)}`);
  }
  return problems;
}

/** Every tool: bad arguments. Session tools launch Firefox on first use; tab tools resolve and queue on a tab. */
const SESSION_CODES: readonly ErrorCode[] = ['invalid_arguments', 'timeout', 'browser_crashed', 'profile_locked', 'firefox_not_found', 'launch_failed'];
const TAB_CODES: readonly ErrorCode[] = ['invalid_arguments', 'tab_not_in_group', 'tab_closed', 'timeout', 'browser_crashed', 'held_by_person'];

/**
 * Every code a call of `tool` can answer with, in the order of ERROR_CODES. `internal_error` is left out: it is
 * a bug wherever it comes from.
 */
export function errorCodesOf(tool: Tool): ErrorCode[] {
  const codes = new Set<ErrorCode>(tool.scope === 'session' ? SESSION_CODES : TAB_CODES);
  if (tool.scope === 'tab' && !tool.worksWithDialog) codes.add('dialog_open');
  // An acting tool may wait for a person's yes under --confirm-actions (confirm.ts).
  if (!tool.annotations.readOnlyHint) codes.add('not_confirmed');
  for (const code of tool.errors) codes.add(code);
  return (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => codes.has(code));
}

/** No description: thirteen tools list it; tabs_context_mcp and the server instructions say where ids come from. */
export const tabIdField = z.number().int().min(1);
