import { allTools } from '../tools/index.js';
import { secretArgument, writesStep, type CallArgs, type ScriptLine } from '../tools/tool.js';
import type { RecordedCall } from './recorder.js';

/** A session written out as a `run` script, and what it left out. */
export interface ExportedScript {
  text: string;
  /** Steps written (finds added for refs included). */
  steps: number;
  /** Calls not written as steps: they only looked (read_page, find, screenshots...) or failed (written as comments). */
  left_out: { looked: number; failed: number };
  /** Environment variables the script needs: text typed into password fields, not written in the file. */
  secrets: string[];
  /** What a re-run may not reproduce (a ref no query picks out, a tab a page opened). */
  warnings: string[];
}

/** How each tool is written into a script: its own declaration (`script` in defineTool). */
const SCRIPT_LINES = new Map<string, ScriptLine<CallArgs>>(allTools.map((tool) => [tool.name, tool.script]));
/** A call of a tool no longer known (a hand-made record) is written as it was called. */
const UNKNOWN_TOOL: ScriptLine<CallArgs> = { step: true, secret: null };

function scriptLineOf(call: RecordedCall): ScriptLine<CallArgs> {
  return SCRIPT_LINES.get(call.tool) ?? UNKNOWN_TOOL;
}

/** A successful call the replay does not need: it only looked (its refs are re-found by the steps that use them). */
function looks(call: RecordedCall): boolean {
  return !writesStep(scriptLineOf(call), call.args);
}

/**
 * The environment variable for a secret the session typed: FIREFOX_USE_SECRET_1, _2, ... in the order first typed, one
 * per distinct text. Never from the field's label or name: a page would choose which of the user's variables the
 * replay types into it (`aria-label="AWS_SECRET_ACCESS_KEY"`).
 */
function secretName(text: string, taken: Map<string, string>): string {
  const known = taken.get(text);
  if (known) return known;
  const name = `FIREFOX_USE_SECRET_${taken.size + 1}`;
  taken.set(text, name);
  return name;
}

/**
 * Recorded text as a script writes it: every `$` doubled, deeply, so `run` replays it literally. What the agent typed
 * or visited may hold `${AWS_SECRET_ACCESS_KEY}` because a page asked for it; unescaped, the replay would expand it.
 * Only a `${NAME}` of --secrets (`kept`) stays a reference: the agent wrote it so, and the server filled it in.
 */
export function literal(value: unknown, kept: ReadonlySet<string> = new Set()): unknown {
  if (typeof value === 'string') return value.replace(/\$\{([A-Za-z_]\w*)\}|\$/g, (token, name?: string) => (name !== undefined && kept.has(name) ? token : token.replace('$', '$$$$')));
  if (Array.isArray(value)) return value.map((item) => literal(item, kept));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, literal(item, kept)]));
  return value;
}

/** Text from a page or an agent made safe for one comment line: no line break (YAML would read a step after it). */
function commentText(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).slice(0, 300);
}

/** Arguments for a comment: typed text and set values shown by length only (a failed call may have held a secret). */
function commentArgs(args: Record<string, unknown>): string {
  const shown = Object.fromEntries(
    Object.entries(args).map(([key, value]) => [key, (key === 'text' || key === 'value') && typeof value === 'string' ? `<${value.length} characters>` : value]),
  );
  return JSON.stringify(shown);
}

function line(tool: string, args: Record<string, unknown>, extra: string[] = []): string {
  return [`- ${tool}: ${JSON.stringify(args)}`, ...extra.map((entry) => `  ${entry}`)].join('\n');
}

/**
 * Writes recorded calls as a `run` script (docs/scripting.md): one step per successful call that changed something,
 * each ref replaced by the find that picked it out on the page just before the call, tabs named by the steps that
 * open them, text typed into password fields replaced by `${FIREFOX_USE_SECRET_N}`, every other `$` written `$$` (literal
 * in `run`). Failed calls become comments.
 */
export function renderScript(calls: RecordedCall[], context: { droppedCalls: number; viewport: string; secretNames?: ReadonlySet<string> }): ExportedScript {
  const kept = calls.filter((call) => call.ok && !looks(call));
  const failed = calls.filter((call) => !call.ok);
  const tabsUsed = new Set(kept.flatMap((call) => [call.tabId, call.createdTab].filter((id): id is number => id !== undefined)));
  const named = tabsUsed.size > 1;
  const tabNames = new Map<number, string>();
  /** Secret text -> its variable (in memory only; the file holds the name). */
  const secretNames = new Map<string, string>();
  const secretFields = new Map<string, Set<string>>();
  const warnings: string[] = [];
  const out: string[] = [];
  let current: number | null = null;
  let first: number | null = null;
  let steps = 0;

  /** The tabId argument a step needs in `run`: none for the script's current tab; `$tabN` otherwise. */
  const tabArg = (tabId: number | undefined): Record<string, unknown> => {
    if (tabId === undefined || !named) return {};
    if (!tabNames.has(tabId) && first === null) {
      // The session's first tab: the script opens one it can name.
      first = tabId;
      tabNames.set(tabId, `tab${tabNames.size + 1}`);
      out.push(line('tabs_create_mcp', {}, [`save: ${tabNames.get(tabId)}`]));
      steps++;
      current = tabId;
    }
    const name = tabNames.get(tabId);
    if (!name) {
      warnings.push(`tab ${tabId} was opened by a page; run cannot name it, so its steps keep the recorded tabId`);
      out.push(`# tab ${tabId} was opened by a page: this step keeps the recorded tabId, which a re-run may number differently`);
      current = tabId;
      return { tabId };
    }
    if (tabId === current) return {};
    current = tabId;
    return { tabId: `$${name}` };
  };

  for (const call of calls) {
    if (!call.ok) {
      out.push(commentText(`# left out, failed: ${call.tool} ${commentArgs(call.args)} -> ${call.error ?? 'failed'}`));
      continue;
    }
    if (looks(call)) continue;
    const { tabId: _recorded, ...rest } = call.args;
    // Only what the export itself adds below ($ref_N, $tabN, ${FIREFOX_USE_SECRET_N}) is a substitution.
    const args = literal(rest, context.secretNames) as Record<string, unknown>;
    if (call.tool === 'tabs_create_mcp') {
      if (first === null && call.createdTab !== undefined) first = call.createdTab;
      const name = `tab${tabNames.size + 1}`;
      if (call.createdTab !== undefined) tabNames.set(call.createdTab, name);
      out.push(line('tabs_create_mcp', args, [`save: ${name}`]));
      steps++;
      current = call.createdTab ?? null;
      continue;
    }
    let where = tabArg(call.tabId);
    if (first === null && call.tabId !== undefined) first = call.tabId;
    if (call.pin) {
      const { ref, query, match, info } = call.pin;
      const what = info ? `${info.role}${info.name ? ` "${info.name}"` : ''}` : 'an element';
      if (query) {
        out.push(line('find', { ...where, query: literal(query, context.secretNames) }, [`save: ${ref}`, ...(match > 1 ? [`match: ${match}`] : [])]));
        steps++;
        where = {};
        args['ref'] = `$${ref}`;
      } else {
        warnings.push(`${ref} (${what}): no find query picks it out; its step keeps the recorded ref`);
        out.push(commentText(`# ${ref} (${what}): no find query picked this element out, so the ref is kept as recorded; a re-run may number it differently`));
      }
    }
    const secretArg = secretArgument(scriptLineOf(call), call.args);
    const typed = secretArg === null ? undefined : call.args[secretArg];
    if (call.secretField !== undefined && secretArg !== null && typeof typed === 'string') {
      const name = secretName(typed, secretNames);
      const fields = secretFields.get(name) ?? new Set<string>();
      secretFields.set(name, fields.add(call.secretField));
      args[secretArg] = `\${${name}}`;
    }
    if (call.tool === 'tabs_close_mcp' && named && call.tabId !== undefined && tabNames.has(call.tabId)) {
      // Closing names its tab even when it is the current one; the next step names the tab it works on.
      out.push(line(call.tool, { tabId: `$${tabNames.get(call.tabId)}`, ...args }));
      current = null;
    } else {
      out.push(line(call.tool, { ...where, ...args }));
    }
    steps++;
  }

  const secrets = [...secretNames.values()];
  const looked = calls.filter((call) => call.ok && looks(call)).length;
  const head = [
    `# firefox-use run script, exported from an MCP session at ${new Date().toISOString()}.`,
    `# Replay: ${secrets.map((name) => `${name}=... `).join('')}firefox-use run THIS_FILE${context.viewport ? ` --viewport ${context.viewport}` : ''}`,
    ...(secrets.length ? [`# Needs ${secrets.join(', ')} in the environment: text typed into password fields is not written here.`] : []),
    ...secrets.map((name) => commentText(`#   ${name}: typed into the password field ${[...(secretFields.get(name) ?? [])].map((field) => JSON.stringify(field.slice(0, 80))).join(', ')}`)),
    '# Recorded text is replayed as typed: "$$" is a literal "$", so no other ${NAME} in it is read from the environment.',
    `# Left out: ${looked} call(s) that only looked (read_page, find, screenshots...), ${failed.length} failed call(s) (commented below).`,
    ...(context.droppedCalls ? [`# The first ${context.droppedCalls} call(s) of the session are not kept: it made more than the recorder holds.`] : []),
    ...(out.length ? [] : ['# (no call changed anything yet)']),
  ];
  const text = `${head.join('\n')}\n${out.length ? out.join('\n') : '[]'}\n`;
  return { text, steps, left_out: { looked, failed: failed.length }, secrets, warnings: [...new Set(warnings)] };
}
