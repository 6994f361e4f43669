import { Secrets, secretsOf } from '../mcp/secrets.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { saveImage, type TabGroup } from '../browser/group/index.js';
import { pageInfo } from '../browser/tab/index.js';
import type { ServerOptions } from '../config.js';
import { ToolError } from '../errors.js';
import { dispatch, errorResult } from '../mcp/dispatch.js';
import { Session } from '../mcp/session.js';
import type { Tool } from '../tools/tool.js';
import type { Expectation, ScriptStep } from './script.js';
import type { LocalFiles } from './local-files.js';

/** How long a URL expectation waits for the tab to get there (a click that navigates answers before the load). */
const URL_WAIT_MS = 5_000;

/** Where a `$NAME` not saved by a step comes from: the environment, or (for printed arguments) its own name. */
export type EnvLookup = (name: string) => string | undefined;

export const fromEnvironment: EnvLookup = (name) => process.env[name];

function lookup(name: string, saved: Map<string, unknown>, env: EnvLookup): unknown {
  if (saved.has(name)) return saved.get(name);
  const value = env(name);
  if (value === undefined) throw new ToolError('invalid_arguments', `$${name} was never saved by an earlier step and is not set in the environment.`, { field: name });
  return value;
}

/** `$$` (a literal `$`, as exported scripts write recorded text) or `${NAME}` inside a string. */
const IN_STRING = /\$\$|\$\{([A-Za-z_]\w*)\}/g;

/**
 * Replaces `$NAME` (the whole string, keeping the saved value's type) and `${NAME}` inside strings, deeply: a value
 * an earlier step saved, else the environment variable NAME. `$$` is a literal `$`, never the start of a reference.
 */
export function substitute(value: unknown, saved: Map<string, unknown>, env: EnvLookup = fromEnvironment): unknown {
  if (typeof value === 'string') {
    const whole = /^\$([A-Za-z_]\w*)$/.exec(value);
    if (whole) return lookup(whole[1]!, saved, env);
    return value.replace(IN_STRING, (token, name: string | undefined) => {
      if (name === undefined) return '$';
      const found = lookup(name, saved, env);
      return typeof found === 'string' ? found : JSON.stringify(found);
    });
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, saved, env));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, saved, env)]));
  return value;
}

/**
 * Replaces every spelling of each environment value a step expanded with `${NAME}`, deeply, in what run prints: a
 * URL, a field's value or a delta may show it back, and the printed arguments already say `${NAME}`.
 */
export function maskValues(value: unknown, exposed: Map<string, string>): unknown {
  return exposed.size === 0 ? value : new Secrets(exposed).mask(value);
}

export function resultText(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

/** The value `save:` keeps: the first match's ref, else a ref or tab id in the result, else the whole result. */
export function savedValue(structured: Record<string, unknown> | undefined, match = 1): unknown {
  if (!structured) return undefined;
  const matches = structured['matches'];
  const picked: unknown = Array.isArray(matches) ? matches[match - 1] : undefined;
  if (picked && typeof picked === 'object' && 'ref' in picked) return (picked as { ref: unknown }).ref;
  for (const key of ['ref', 'tabId', 'value', 'url']) if (key in structured) return structured[key];
  return structured;
}

function regexOf(pattern: string): RegExp | null {
  const match = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  return match ? new RegExp(match[1]!, match[2]) : null;
}

/** A URL glob: `**` any characters, `*` any but "/", the rest literal; or a /regex/. A pattern without a scheme may match anywhere after it. */
export function urlMatches(pattern: string, url: string): boolean {
  const regex = regexOf(pattern);
  if (regex) return regex.test(url);
  const body = pattern
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`).test(url) || (!/^[a-z]+:/i.test(pattern) && new RegExp(`^[a-z]+://${body}$`, 'i').test(url));
}

export function textMatches(expected: string, text: string): boolean {
  const regex = regexOf(expected);
  return regex ? regex.test(text) : text.includes(expected);
}

export interface StepOutcome {
  step: number;
  line: number;
  tool: string;
  args: Record<string, unknown>;
  ok: boolean;
  ms: number;
  result?: unknown;
  /** What the model would read (REPL output); left out of the JSON lines. */
  text?: string;
  images?: string[];
  error?: unknown;
  skipped?: boolean;
}

/**
 * The file: URL a step's own text names, which loads without --allow-unrestricted-file-access: a literal file: URL, or
 * one under $SCRIPT_DIR. A URL built from values saved from pages is not the user's own and gets no such pass.
 */
export function namedFile(raw: unknown, scriptDir: string | null): string | null {
  if (typeof raw !== 'string') return null;
  const expanded = scriptDir ? raw.replace(/^(\$\{SCRIPT_DIR\}|\$SCRIPT_DIR$)/, scriptDir) : raw;
  if (expanded.includes('$') || !/^file:/i.test(expanded.trim())) return null;
  try {
    return new URL(expanded.trim()).href;
  } catch {
    return null;
  }
}

/** Runs steps on one session, keeping `$NAME` values between them; the script's current tab fills a missing tabId. */
export class ScriptRunner {
  readonly saved = new Map<string, unknown>();
  /** Environment values the steps so far expanded (name -> value): masked in everything printed after. */
  private readonly exposed = new Map<string, string>();
  /** Printed arguments keep `${NAME}` for a variable from the environment or --secrets: a secret never reaches the output. */
  private readonly shownEnv: EnvLookup = (name) => (process.env[name] !== undefined || secretsOf(this.options)?.has(name) ? `\${${name}}` : undefined);
  private readonly fromEnv: EnvLookup = (name) => {
    // A name of --secrets stays as written: the server fills it in, and masks it in every result.
    if (secretsOf(this.options)?.has(name)) return `\${${name}}`;
    const value = process.env[name];
    if (value !== undefined) this.exposed.set(name, value);
    return value;
  };
  private readonly byName: Map<string, Tool>;
  private count = 0;
  /** The script's folder as a file: URL ($SCRIPT_DIR), fixed when the run starts. */
  scriptDir: string | null = null;
  /** Serves the local pages the script names over loopback HTTP (local-files.ts); null loads them as file:. */
  localFiles: LocalFiles | null = null;

  /** The MCP session the steps are dispatched on: the group's, unrecorded. */
  private readonly session: Session;

  constructor(
    readonly group: TabGroup,
    tools: Tool[],
    readonly options: ServerOptions,
    /** Stem for saved screenshot files. */
    readonly imagePrefix = 'step',
  ) {
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
    this.session = new Session(group);
  }

  private async currentTabId(): Promise<number> {
    const current = await this.group.activeTab();
    if (current) return current.id;
    const tab = await this.group.openTab({ foreground: 'tab' }); // a background tab's timers are clamped
    return tab.id;
  }

  private async currentUrl(): Promise<string> {
    const browser = await this.group.browser();
    const tab = this.group.activeTabId === null ? undefined : browser.tab(this.group.activeTabId);
    if (!tab) return '';
    const info = await pageInfo(tab, { timeout: 2_000 }).catch(() => null);
    return info?.url ?? '';
  }

  private async check(expect: Expectation, result: CallToolResult): Promise<string | null> {
    if (expect.text !== undefined && !textMatches(expect.text, resultText(result))) return `expected the result to contain ${JSON.stringify(expect.text)}`;
    if (expect.url !== undefined) {
      const deadline = Date.now() + URL_WAIT_MS;
      let url = await this.currentUrl();
      while (!urlMatches(expect.url, url) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        url = await this.currentUrl();
      }
      if (!urlMatches(expect.url, url)) return `expected the tab's URL to match ${JSON.stringify(expect.url)}, it is ${JSON.stringify(url)}`;
    }
    return null;
  }

  /** Runs one step; never throws: a failure is an outcome with ok false. */
  async run(step: ScriptStep): Promise<StepOutcome> {
    const index = ++this.count;
    const started = performance.now();
    let args = step.args;
    let shown = step.args;
    let result: CallToolResult;
    try {
      shown = substitute(step.args, this.saved, this.shownEnv) as Record<string, unknown>;
      args = substitute(step.args, this.saved, this.fromEnv) as Record<string, unknown>;
      const tool = this.byName.get(step.tool);
      if (!tool) throw new ToolError('invalid_arguments', `No tool named "${step.tool}".`, { field: 'tool' });
      if (tool.scope === 'tab' && args['tabId'] === undefined) args = { ...args, tabId: await this.currentTabId() };
      const named = namedFile(step.args['url'], this.scriptDir);
      let options = this.options;
      // A local page the script names is served from its folder over loopback HTTP, so it cannot frame other local files.
      if (named && this.localFiles && !this.options.allowUnrestrictedFileAccess) args = { ...args, url: await this.localFiles.urlFor(named) };
      else if (named) options = { ...this.options, scriptFiles: [...(this.options.scriptFiles ?? []), named] };
      result = await dispatch(tool, args, this.session, options);
    } catch (error) {
      result = errorResult(error);
    }
    let ok = !result.isError;
    let error: unknown = result.isError ? (result.structuredContent as { error?: unknown } | undefined)?.error : undefined;
    if (ok && step.match !== undefined) {
      const matches = (result.structuredContent as { matches?: unknown[] } | undefined)?.matches;
      if (!Array.isArray(matches) || matches.length < step.match) {
        ok = false;
        error = { code: 'expectation_failed', message: `match: ${step.match} needs at least ${step.match} matches; the result has ${Array.isArray(matches) ? matches.length : 'none'}` };
      }
    }
    if (ok && step.expect) {
      const failure = await this.check(step.expect, result).catch((problem: unknown) => `could not check the expectation: ${(problem as Error).message}`);
      if (failure) {
        ok = false;
        error = { code: 'expectation_failed', message: failure };
      }
    }
    const ms = Math.round(performance.now() - started);
    const images: string[] = [];
    for (const block of result.content) {
      if (block.type === 'image') images.push(await saveImage(this.options.outputDir, `${this.imagePrefix}${index}-${step.tool}`, Buffer.from(block.data, 'base64'), block.mimeType));
    }
    if (ok && step.save) this.saved.set(step.save, savedValue(result.structuredContent as Record<string, unknown> | undefined, step.match));
    return {
      step: index,
      line: step.line,
      tool: step.tool,
      args: shown['tabId'] === undefined && args['tabId'] !== undefined ? { ...shown, tabId: args['tabId'] } : shown,
      ok,
      ms,
      ...(ok ? { result: this.masked(result.structuredContent) } : { error: this.masked(error) }),
      text: this.masked(resultText(result)) as string,
      ...(images.length ? { images } : {}),
    };
  }

  /** A value as run may print it: no environment value a step expanded shows, only its `${NAME}`. */
  masked(value: unknown): unknown {
    return maskValues(value, this.exposed);
  }

  /** Runs steps in order; after the first failure the rest are reported as skipped. */
  async runAll(steps: ScriptStep[], emit: (outcome: StepOutcome) => void): Promise<boolean> {
    let failed = false;
    for (const step of steps) {
      if (failed) {
        emit({ step: ++this.count, line: step.line, tool: step.tool, args: step.args, ok: false, ms: 0, skipped: true });
        continue;
      }
      const outcome = await this.run(step);
      emit(outcome);
      failed = !outcome.ok;
    }
    return !failed;
  }
}
