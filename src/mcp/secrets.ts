// Secrets the model never sees (--secrets FILE, dotenv): `${NAME}` in a tool's string arguments becomes the value
// inside the server, and every value is put back as `${NAME}` in whatever leaves it (reply text, structured content,
// recorded and exported scripts). The page itself still gets the value: that is the point.
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServerOptions } from '../config.js';
import { ToolError } from '../errors.js';

/** Shorter values would be found inside ordinary words of every reply: they cannot be kept out of replies. */
const MIN_VALUE_LENGTH = 4;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export class Secrets {
  /** [value as it may appear, placeholder], longest first so that a value inside another is not cut in two. */
  private readonly masks: Array<[string, string]>;

  constructor(private readonly values: ReadonlyMap<string, string>) {
    const masks: Array<[string, string]> = [];
    for (const [name, value] of values) for (const form of new Set(spellings(value))) if (form) masks.push([form, `\${${name}}`]);
    this.masks = masks.sort((a, b) => b[0].length - a[0].length);
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  /** Each name, mapped to its own `${NAME}`: what a check of a script's references may see as set. */
  placeholders(): Record<string, string> {
    return Object.fromEntries([...this.values.keys()].map((name) => [name, `\${${name}}`]));
  }

  /** The arguments with each known `${NAME}` in a string replaced by its value (unknown names are left as written). */
  fill(args: unknown): unknown {
    if (typeof args === 'string') return args.replace(PLACEHOLDER, (whole, name: string) => this.values.get(name) ?? whole);
    if (Array.isArray(args)) return args.map((item) => this.fill(item));
    if (args && typeof args === 'object') return Object.fromEntries(Object.entries(args).map(([key, value]) => [key, this.fill(value)]));
    return args;
  }

  /** `value` with every secret in its strings put back as `${NAME}`. */
  mask<T>(value: T): T {
    if (typeof value === 'string') return this.maskText(value) as T;
    if (Array.isArray(value)) return value.map((item: unknown) => this.mask(item)) as T;
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.mask(item)])) as T;
    return value;
  }

  /** A tool's result with the secrets masked in its text and structured content; images pass as they are. */
  maskResult(result: CallToolResult): CallToolResult {
    const content = result.content.map((part) => (part.type === 'text' ? { ...part, text: this.maskText(part.text) } : part));
    return { ...result, content, ...(result.structuredContent ? { structuredContent: this.mask(result.structuredContent) } : {}) };
  }

  private maskText(text: string): string {
    let masked = text;
    for (const [value, placeholder] of this.masks) if (masked.includes(value)) masked = masked.split(value).join(placeholder);
    return masked;
  }
}

/** The spellings of a value a result may show it in: as is, URL-encoded (path, query, form) and JSON-escaped. */
function spellings(value: string): string[] {
  const forms = [value, JSON.stringify(value).slice(1, -1)];
  try {
    forms.push(encodeURIComponent(value), encodeURI(value), new URLSearchParams({ v: value }).toString().slice(2));
  } catch {
    // A lone surrogate cannot be URL-encoded; a URL cannot hold it either.
  }
  return forms;
}

const loaded = new Map<string, Secrets>();

/** The secrets of --secrets, read once per file; null without the flag. Throws invalid_arguments on a bad file. */
export function secretsOf(options: Pick<ServerOptions, 'secrets'>): Secrets | null {
  const path = options.secrets;
  if (path === undefined) return null;
  const known = loaded.get(path);
  if (known) return known;
  let parsed: NodeJS.Dict<string>;
  try {
    parsed = parseEnv(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ToolError('invalid_arguments', `--secrets: cannot read ${path}: ${(error as Error).message}`, { field: 'secrets' });
  }
  const values = new Map<string, string>();
  for (const [name, value] of Object.entries(parsed)) {
    if (value === undefined || !NAME.test(name)) continue;
    if (value.length < MIN_VALUE_LENGTH) {
      throw new ToolError('invalid_arguments', `--secrets: the value of ${name} is shorter than ${MIN_VALUE_LENGTH} characters; so short a value cannot be kept out of replies.`, {
        field: 'secrets',
      });
    }
    values.set(name, value);
  }
  if (values.size === 0) throw new ToolError('invalid_arguments', `--secrets: ${path} holds no NAME=value line.`, { field: 'secrets' });
  const secrets = new Secrets(values);
  loaded.set(path, secrets);
  return secrets;
}
