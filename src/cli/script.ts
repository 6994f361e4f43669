import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import { describeZodError } from '../mcp/dispatch.js';
import type { Tool } from '../tools/tool.js';

/** What a step checks after its tool answered: text in the result, or the tab's URL against a pattern. */
export interface Expectation {
  text?: string;
  url?: string;
}

export interface ScriptStep {
  tool: string;
  args: Record<string, unknown>;
  save?: string;
  /** With save on a find: keep the Nth match's ref (1-based) instead of the first. */
  match?: number;
  expect?: Expectation;
  /** 1-based line of the step in its file (for messages). */
  line: number;
}

/** A script or config that does not parse: exit code 2, with the line and what was expected. */
export class ScriptParseError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

const STEP_KEYS = new Set(['save', 'expect', 'match']);
const NAME = /^[A-Za-z_]\w*$/;

/** A parsed YAML/JSON document and a way to turn node offsets into line numbers. */
export interface SourceDoc {
  doc: Document.Parsed;
  lineOf(node: unknown): number;
}

/** Parses YAML (JSON is YAML too); a syntax error is a ScriptParseError at its line. */
export function parseSource(source: string): SourceDoc {
  const counter = new LineCounter();
  const doc = parseDocument(source, { lineCounter: counter, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const line = first.linePos?.[0]?.line ?? counter.linePos(first.pos[0]).line;
    throw new ScriptParseError(first.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, ''), line);
  }
  const lineOf = (node: unknown): number => {
    const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
    return range ? counter.linePos(range[0]).line : 1;
  };
  return { doc, lineOf };
}

/** True when a value holds a `$NAME` reference somewhere (then it can only be checked once the name is known). */
function hasReference(value: unknown): boolean {
  if (typeof value === 'string') return /\$(\{[A-Za-z_]\w*\}|[A-Za-z_]\w*$)/.test(value.replace(/\$\$/g, ''));
  if (Array.isArray(value)) return value.some(hasReference);
  if (value && typeof value === 'object') return Object.values(value).some(hasReference);
  return false;
}

function parseExpect(raw: unknown, line: number): Expectation {
  if (typeof raw === 'string') return { text: raw };
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    const record = raw as Record<string, unknown>;
    const unknownKeys = Object.keys(record).filter((key) => key !== 'text' && key !== 'url');
    const valid = unknownKeys.length === 0 && Object.values(record).every((value) => typeof value === 'string') && Object.keys(record).length > 0;
    if (valid) return record as Expectation;
  }
  throw new ScriptParseError('expect: expected text, a /regex/, {text: ...} or {url: "pattern"}', line);
}

/** The `$NAME` / `${NAME}` names a value refers to. */
function referencesIn(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (typeof value === 'string') {
    // `$$` is a literal `$` (recorded text in an exported script): `$${NAME}` refers to nothing.
    for (const match of value.matchAll(/\$\$|\$\{([A-Za-z_]\w*)\}|^\$([A-Za-z_]\w*)$/g)) {
      const name = match[1] ?? match[2];
      if (name !== undefined) into.add(name);
    }
  } else if (Array.isArray(value)) {
    for (const item of value) referencesIn(item, into);
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) referencesIn(item, into);
  }
  return into;
}

/**
 * Every `$NAME` a step uses must be saved by some step or set in the environment (`${PASSWORD}` keeps a secret out
 * of the file); an unset one fails now, at its line, before Firefox starts.
 */
export function checkReferences(steps: ScriptStep[], env: NodeJS.ProcessEnv = process.env): void {
  const saved = new Set(['SCRIPT_DIR', ...steps.flatMap((step) => (step.save ? [step.save] : []))]);
  for (const step of steps) {
    for (const name of referencesIn(step.args)) {
      if (!saved.has(name) && env[name] === undefined) {
        throw new ScriptParseError(`$${name} is not set: no step saves it and there is no environment variable ${name}`, step.line);
      }
    }
  }
}

/**
 * Replaces `${NAME}` in a config string with the environment variable; an unset one is an error at `line`. `$$` stays
 * as written (a step's `$${NAME}` is literal text, turned into `${NAME}` when the step runs), never the start of a name.
 */
export function expandEnv(text: string, line: number, env: NodeJS.ProcessEnv = process.env): string {
  return text.replace(/\$\$|\$\{([A-Za-z_]\w*)\}/g, (token, name: string | undefined) => {
    if (name === undefined) return token;
    const value = env[name];
    if (value === undefined) throw new ScriptParseError(`\${${name}} is not set in the environment`, line);
    return value;
  });
}

/** Parses one step node: `{<tool>: {args}, save?: NAME, expect?: ...}`. */
function parseStep(node: unknown, src: SourceDoc, tools: Map<string, Tool>): ScriptStep {
  const line = src.lineOf(node);
  if (!isMap(node)) throw new ScriptParseError('expected a step such as "- navigate: {url: https://example.com}"', line);
  const raw = node.toJSON() as Record<string, unknown>;
  const toolKeys = Object.keys(raw).filter((key) => !STEP_KEYS.has(key));
  if (toolKeys.length !== 1) {
    throw new ScriptParseError(`expected exactly one tool name in a step, got ${toolKeys.length ? toolKeys.join(', ') : 'none'}`, line);
  }
  const name = toolKeys[0]!;
  const tool = tools.get(name);
  if (!tool) throw new ScriptParseError(`unknown tool "${name}"; expected one of ${[...tools.keys()].join(', ')}`, line);
  const argsNode = node.get(name, true);
  const args = raw[name] ?? {};
  if (typeof args !== 'object' || Array.isArray(args)) throw new ScriptParseError(`the arguments of ${name} must be a mapping such as {url: ...}`, src.lineOf(argsNode) || line);
  const step: ScriptStep = { tool: name, args: args as Record<string, unknown>, line };
  if (raw['save'] !== undefined) {
    if (typeof raw['save'] !== 'string' || !NAME.test(raw['save'])) throw new ScriptParseError('save: expected a NAME (letters, digits, _)', src.lineOf(node.get('save', true)));
    step.save = raw['save'];
  }
  if (raw['match'] !== undefined) {
    const match = raw['match'];
    if (typeof match !== 'number' || !Number.isInteger(match) || match < 1 || step.save === undefined) {
      throw new ScriptParseError('match: expected a whole number from 1, with save: (which match of a find to keep)', src.lineOf(node.get('match', true)));
    }
    step.match = match;
  }
  if (raw['expect'] !== undefined) step.expect = parseExpect(raw['expect'], src.lineOf(node.get('expect', true)));
  // Arguments are checked now when they can be, so a typo fails before Firefox starts.
  if (!hasReference(step.args)) {
    const candidate = tool.scope === 'tab' && step.args['tabId'] === undefined ? { ...step.args, tabId: 1 } : step.args;
    const checked = tool.input.safeParse(candidate);
    if (!checked.success) {
      const field = checked.error.issues[0]?.path[0];
      const fieldNode = typeof field === 'string' && isMap(argsNode) ? argsNode.get(field, true) : undefined;
      throw new ScriptParseError(`${name}: ${describeZodError(checked.error).message}`, src.lineOf(fieldNode ?? argsNode ?? node));
    }
  }
  return step;
}

/** Steps from a sequence node (a script's root, its `steps:`, or a regress page's `steps:`). */
export function parseStepList(node: unknown, src: SourceDoc, tools: Map<string, Tool>): ScriptStep[] {
  if (!isSeq(node)) throw new ScriptParseError('expected a list of steps, each "- <tool>: {arguments}"', src.lineOf(node));
  return node.items.map((item) => parseStep(item, src, tools));
}

/**
 * A `run` script: a list of steps, or a mapping with `steps:`. `checkRefs`: whether each `$NAME` must be saved by a
 * step or set, in the environment or in `env` when given.
 */
export function parseScript(source: string, tools: Tool[], checkRefs: boolean | NodeJS.ProcessEnv = true): ScriptStep[] {
  const src = parseSource(source);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const root = src.doc.contents;
  if (root === null || (isScalar(root) && root.value === null)) throw new ScriptParseError('the script is empty; expected a list of steps', 1);
  if (isMap(root)) {
    const steps = root.get('steps', true);
    if (!steps) throw new ScriptParseError('expected a list of steps (or a mapping with "steps:")', src.lineOf(root));
    return checked(parseStepList(steps, src, byName), checkRefs);
  }
  return checked(parseStepList(root as YamlNode, src, byName), checkRefs);
}

function checked(steps: ScriptStep[], checkRefs: boolean | NodeJS.ProcessEnv): ScriptStep[] {
  if (checkRefs) checkReferences(steps, checkRefs === true ? process.env : checkRefs);
  return steps;
}

/** One REPL line: the same syntax as a script step, with or without the leading "- ". */
export function parseStepLine(line: string, tools: Tool[]): ScriptStep {
  const text = line.trimStart().startsWith('-') ? line : `- ${line}`;
  // A line may use what earlier lines saved: its references are checked when it runs.
  const steps = parseScript(text, tools, false);
  if (steps.length !== 1) throw new ScriptParseError('expected one step on the line', 1);
  return steps[0]!;
}
