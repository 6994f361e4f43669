import { readFileSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parseDocument } from 'yaml';
import { BrowserManager } from '../browser/manager.js';
import { saveImage } from '../browser/output.js';
import type { ServerOptions } from '../config.js';
import { ToolError } from '../errors.js';
import { dispatch } from '../mcp/dispatch.js';
import { enabledTools } from '../mcp/server.js';
import { Session } from '../mcp/session.js';
import type { Tool } from '../tools/tool.js';

export interface ScriptStep {
  tool: string;
  args: Record<string, unknown>;
  save?: string;
  expect?: string;
  line: number;
}

export class ScriptParseError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
  }
}

const STEP_KEYS = new Set(['save', 'expect']);

/** Parses a YAML or JSON list of steps: `- navigate: {url: ...}` with optional `save:` and `expect:`. */
export function parseScript(source: string, toolNames: Set<string>): ScriptStep[] {
  const doc = parseDocument(source, { keepSourceTokens: false });
  const lineOf = (offset: number | undefined) => (offset === undefined ? 1 : source.slice(0, offset).split('\n').length);
  if (doc.errors.length) throw new ScriptParseError(doc.errors[0]!.message.split('\n')[0]!, lineOf(doc.errors[0]!.pos[0]));
  const root = doc.contents as { items?: Array<{ range?: [number, number, number]; toJSON?: () => unknown }>; range?: [number, number, number] } | null;
  const data = doc.toJS() as unknown;
  const list = Array.isArray(data) ? data : data && typeof data === 'object' && Array.isArray((data as { steps?: unknown }).steps) ? (data as { steps: unknown[] }).steps : null;
  if (!list) throw new ScriptParseError('expected a list of steps (or an object with "steps: [...]")', 1);
  const items = Array.isArray(data) ? root?.items ?? [] : [];
  return list.map((raw, index) => {
    const line = lineOf(items[index]?.range?.[0]);
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ScriptParseError('expected a step such as "- navigate: {url: ...}"', line);
    const entries = Object.entries(raw as Record<string, unknown>);
    const toolEntries = entries.filter(([key]) => !STEP_KEYS.has(key));
    if (toolEntries.length !== 1) throw new ScriptParseError(`expected exactly one tool name per step, got ${toolEntries.map(([k]) => k).join(', ') || 'none'}`, line);
    const [tool, args] = toolEntries[0]!;
    if (!toolNames.has(tool)) throw new ScriptParseError(`unknown tool "${tool}"; expected one of ${[...toolNames].join(', ')}`, line);
    if (args !== null && args !== undefined && (typeof args !== 'object' || Array.isArray(args))) throw new ScriptParseError(`arguments of ${tool} must be a mapping`, line);
    const step: ScriptStep = { tool, args: (args as Record<string, unknown>) ?? {}, line };
    const record = raw as Record<string, unknown>;
    if (record['save'] !== undefined) {
      if (typeof record['save'] !== 'string' || !/^[A-Za-z_]\w*$/.test(record['save'])) throw new ScriptParseError('save: expected a NAME', line);
      step.save = record['save'];
    }
    if (record['expect'] !== undefined) {
      if (typeof record['expect'] !== 'string') throw new ScriptParseError('expect: expected text or a /regex/', line);
      step.expect = record['expect'];
    }
    return step;
  });
}

/** Replaces "$NAME" strings with saved values, deeply. */
export function substitute(value: unknown, saved: Map<string, unknown>): unknown {
  if (typeof value === 'string') {
    const whole = /^\$([A-Za-z_]\w*)$/.exec(value);
    if (whole) {
      if (!saved.has(whole[1]!)) throw new ToolError('invalid_arguments', `$${whole[1]} was never saved by an earlier step.`, { field: whole[1] });
      return saved.get(whole[1]!);
    }
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, saved));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, saved)]));
  return value;
}

function resultText(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

/** The value a `save:` keeps: a ref or tab id when the result has one, else the structured result. */
function savedValue(structured: Record<string, unknown> | undefined): unknown {
  if (!structured) return undefined;
  const matches = structured['matches'];
  if (Array.isArray(matches) && matches[0] && typeof matches[0] === 'object' && 'ref' in matches[0]) return (matches[0] as { ref: unknown }).ref;
  for (const key of ['ref', 'tabId', 'url']) if (key in structured) return structured[key];
  return structured;
}

function meetsExpectation(expect: string, result: CallToolResult): boolean {
  const text = resultText(result);
  const regex = /^\/(.*)\/([a-z]*)$/s.exec(expect);
  if (regex) return new RegExp(regex[1]!, regex[2]).test(text);
  return text.includes(expect);
}

export interface StepOutcome {
  step: number;
  line: number;
  tool: string;
  args: Record<string, unknown>;
  ok: boolean;
  ms: number;
  result?: unknown;
  images?: string[];
  error?: unknown;
  skipped?: boolean;
}

/** Runs steps in order on one session; stops at the first failure and reports the rest as skipped. */
export async function runSteps(steps: ScriptStep[], session: Session, tools: Tool[], options: ServerOptions, emit: (outcome: StepOutcome) => void): Promise<boolean> {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const saved = new Map<string, unknown>();
  let failed = false;
  for (const [index, step] of steps.entries()) {
    const base = { step: index + 1, line: step.line, tool: step.tool, args: step.args };
    if (failed) {
      emit({ ...base, ok: false, ms: 0, skipped: true });
      continue;
    }
    const started = performance.now();
    let result: CallToolResult;
    let args = step.args;
    try {
      args = substitute(step.args, saved) as Record<string, unknown>;
      const tool = byName.get(step.tool)!;
      if (tool.scope === 'tab' && args['tabId'] === undefined) {
        if (session.activeTabId === null) {
          const browser = await session.browser();
          const tab = await browser.createTab(session.id);
          session.remember(tab);
          session.activeTabId = tab.id;
        }
        args = { ...args, tabId: session.activeTabId };
      }
      result = await dispatch(tool, args, session, options);
    } catch (error) {
      const toolError = error instanceof ToolError ? error : new ToolError('internal_error', (error as Error).message);
      result = { isError: true, content: [{ type: 'text', text: `${toolError.code}: ${toolError.message}` }], structuredContent: { error: toolError.toJSON() } };
    }
    const ms = Math.round(performance.now() - started);
    const images: string[] = [];
    for (const block of result.content) {
      if (block.type === 'image') images.push(await saveImage(options.outputDir, `step${index + 1}-${step.tool}`, Buffer.from(block.data, 'base64')));
    }
    let ok = !result.isError;
    let error: unknown = result.isError ? (result.structuredContent as { error?: unknown } | undefined)?.error : undefined;
    if (ok && step.expect && !meetsExpectation(step.expect, result)) {
      ok = false;
      error = { code: 'expectation_failed', message: `expected the result to contain ${step.expect}` };
    }
    if (ok && step.save) saved.set(step.save, savedValue(result.structuredContent as Record<string, unknown> | undefined));
    emit({ ...base, args, ok, ms, ...(ok ? { result: result.structuredContent } : { error }), ...(images.length ? { images } : {}) });
    if (!ok) failed = true;
  }
  return !failed;
}

/** `firefox-use run SCRIPT`: exit 0 when every step passed, 1 when one failed, 2 when the script does not parse. */
export async function runScriptCommand(scriptPath: string, options: ServerOptions): Promise<number> {
  const tools = enabledTools(options);
  let steps: ScriptStep[];
  try {
    const source = scriptPath === '-' ? readFileSync(0, 'utf8') : readFileSync(scriptPath, 'utf8');
    steps = parseScript(source, new Set(tools.map((tool) => tool.name)));
  } catch (error) {
    const message = error instanceof ScriptParseError ? `${scriptPath}:${error.message}` : `${scriptPath}: ${(error as Error).message}`;
    process.stderr.write(`firefox-use run: ${message}\n`);
    process.stdout.write(JSON.stringify({ ok: false, error: { code: 'script_invalid', message } }) + '\n');
    return 2;
  }
  const manager = new BrowserManager(options);
  const session = new Session(manager);
  const interactive = process.stderr.isTTY;
  try {
    const passed = await runSteps(steps, session, tools, options, (outcome) => {
      process.stdout.write(JSON.stringify(outcome) + '\n');
      if (interactive) process.stderr.write(`\r[${outcome.step}/${steps.length}] ${outcome.tool} ${outcome.ok ? 'ok' : outcome.skipped ? 'skipped' : 'FAILED'}\x1b[K`);
    });
    if (interactive) process.stderr.write('\n');
    return passed ? 0 : 1;
  } finally {
    await manager.close();
  }
}
