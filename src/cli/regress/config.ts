import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isScalar, visit, type Document } from 'yaml';
import { z } from 'zod';
import type { Tool } from '../../tools/tool.js';
import { ScriptParseError, checkReferences, expandEnv, parseSource, parseStepList, type ScriptStep } from '../script.js';

export interface Viewport {
  name: string;
  width: number;
  height: number;
}

export interface PageSpec {
  name: string;
  url?: string;
  steps: ScriptStep[];
  mask: string[];
  waitFor?: { selector?: string; text?: string };
  fullPage: boolean;
  /** Changed pixels allowed: a capture passes only within every limit given (0 pixels when none is). */
  maxDiffPixels?: number;
  maxDiffRatio?: number;
  /** HTTP statuses the page's document may answer with; by default any below 400. */
  expectedStatus?: number[];
  colorThreshold: number;
  viewports: Viewport[];
}

/** One screenshot of the suite: a page at a viewport, named page@viewport like its baseline. */
export interface Capture {
  id: string;
  page: PageSpec;
  viewport: Viewport;
}

const viewportSchema = z.union([
  z.string().regex(/^\d{2,5}x\d{2,5}$/, 'expected WIDTHxHEIGHT such as 1280x800'),
  z.strictObject({ name: z.string().regex(/^[\w.-]+$/).optional(), width: z.number().int().min(10).max(10000), height: z.number().int().min(10).max(10000) }),
]);
const waitForSchema = z.union([z.string().min(1), z.strictObject({ selector: z.string().min(1) }), z.strictObject({ text: z.string().min(1) })]);
const common = {
  mask: z.array(z.string().min(1)).optional(),
  wait_for: waitForSchema.optional(),
  full_page: z.boolean().optional(),
  threshold: z.number().min(0).optional(),
  max_diff_pixels: z.number().int().min(0).optional(),
  max_diff_ratio: z.number().min(0).max(1).optional(),
  expected_status: z.union([z.number().int().min(100).max(599), z.array(z.number().int().min(100).max(599)).min(1)]).optional(),
  color_threshold: z.number().min(0).max(1).optional(),
};
const pageSchema = z.strictObject({
  name: z.string().regex(/^[\w.-]+$/, 'letters, digits, ".", "-" and "_" only').optional(),
  url: z.string().min(1).optional(),
  file: z.string().min(1).optional(),
  steps: z.array(z.unknown()).optional(),
  viewports: z.array(viewportSchema).optional(),
  ...common,
});
const configSchema = z.strictObject({ base_url: z.string().min(1).optional(), viewports: z.array(viewportSchema).min(1).optional(), pages: z.array(pageSchema).min(1), ...common });

function toViewport(raw: z.infer<typeof viewportSchema>): Viewport {
  if (typeof raw === 'string') {
    const [width, height] = raw.split('x').map(Number) as [number, number];
    return { name: raw, width, height };
  }
  return { name: raw.name ?? `${raw.width}x${raw.height}`, width: raw.width, height: raw.height };
}

function defaultName(url: string): string {
  const path = url.replace(/^[a-z]+:\/\/[^/]*/i, '').replace(/\.[a-z]+$/i, '');
  return path.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'index';
}

/**
 * `${NAME}` in the config's own values (base_url, url, file, mask, …), before they are validated. Not in steps: there a
 * `${NAME}` may be a value an earlier step saved, which checkReferences tells apart.
 */
function expandEnvIn(doc: Document, lineOf: (node: unknown) => number, env: NodeJS.ProcessEnv): void {
  visit(doc, {
    Pair: (_, pair) => (isScalar(pair.key) && pair.key.value === 'steps' ? visit.SKIP : undefined),
    Scalar: (key, node) => {
      if (key === 'key' || typeof node.value !== 'string' || !node.value.includes('${')) return;
      node.value = expandEnv(node.value, lineOf(node), env);
    },
  });
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

type Limits = Pick<PageSpec, 'maxDiffPixels' | 'maxDiffRatio'>;

/** The diff limits of a config or page level; the old `threshold` (below 1 a ratio, from 1 up pixels) still read. */
function limitsOf(level: { threshold?: number | undefined; max_diff_pixels?: number | undefined; max_diff_ratio?: number | undefined }, where: string, line: number, warn: (text: string) => void): Limits | null {
  const limits: Limits = {
    ...(level.max_diff_pixels !== undefined ? { maxDiffPixels: level.max_diff_pixels } : {}),
    ...(level.max_diff_ratio !== undefined ? { maxDiffRatio: level.max_diff_ratio } : {}),
  };
  if (level.threshold !== undefined) {
    if (Object.keys(limits).length) throw new ScriptParseError(`${where}: threshold is the old name of max_diff_pixels / max_diff_ratio; give only the new keys`, line);
    const meant = level.threshold < 1 ? `max_diff_ratio: ${level.threshold} (${level.threshold * 100}% of the pixels)` : `max_diff_pixels: ${level.threshold}`;
    warn(`${line}: threshold is deprecated (below 1 it was a ratio, from 1 up a pixel count); read as ${meant}: write that instead`);
    return level.threshold < 1 ? { maxDiffRatio: level.threshold } : { maxDiffPixels: level.threshold };
  }
  return Object.keys(limits).length ? limits : null;
}

/**
 * Parses a regress CONFIG; a bad one is a ScriptParseError with its line (exit 2). `warn` gets "LINE: text" for
 * what still works but should change (deprecated keys).
 */
export function parseConfig(
  source: string,
  configPath: string,
  tools: Tool[],
  fallbackViewport: { width: number; height: number },
  warn: (text: string) => void = () => undefined,
  env: NodeJS.ProcessEnv = process.env,
): PageSpec[] {
  const src = parseSource(source);
  expandEnvIn(src.doc, (node) => src.lineOf(node), env);
  const parsed = configSchema.safeParse(src.doc.toJS());
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const node = src.doc.getIn(issue.path as Array<string | number>, true) ?? (issue.path.length > 1 ? src.doc.getIn(issue.path.slice(0, -1) as Array<string | number>, true) : undefined);
    throw new ScriptParseError(`${issue.path.join('.') || 'config'}: ${issue.message}`, src.lineOf(node ?? src.doc.contents));
  }
  const config = parsed.data;
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const viewports = (config.viewports ?? [`${fallbackViewport.width}x${fallbackViewport.height}`]).map(toViewport);
  const seen = new Set<string>();
  const topLimits = limitsOf(config, 'config', src.lineOf(src.doc.get('threshold', true) ?? src.doc.contents), warn);
  const statuses = (value: number | number[] | undefined) => (value === undefined ? undefined : Array.isArray(value) ? value : [value]);
  return config.pages.map((page, index) => {
    const line = src.lineOf(src.doc.getIn(['pages', index], true));
    if (page.url && page.file) throw new ScriptParseError('a page has either url or file, not both', line);
    const at = (key: string) => (src.doc.hasIn(['pages', index, key]) ? src.lineOf(src.doc.getIn(['pages', index, key], true)) : line);
    if (page.url && !config.base_url && !SCHEME.test(page.url)) throw new ScriptParseError(`url "${page.url}" is relative, and the config has no base_url to resolve it against`, at('url'));
    if (config.base_url && !URL.canParse(config.base_url)) throw new ScriptParseError(`base_url: not a URL: ${config.base_url}`, src.lineOf(src.doc.get('base_url', true)));
    const file = page.file ? resolve(dirname(configPath), page.file) : undefined;
    if (file && !existsSync(file)) throw new ScriptParseError(`file ${page.file}: no such file (${file})`, at('file'));
    const url = file ? pathToFileURL(file).href : page.url && config.base_url ? new URL(page.url, config.base_url).href : page.url;
    if (!url && !page.steps) throw new ScriptParseError('a page needs url, file or steps', line);
    const name = page.name ?? defaultName(page.file ?? url ?? `page${index + 1}`);
    if (seen.has(name)) throw new ScriptParseError(`two pages are named "${name}"; give one a name:`, line);
    seen.add(name);
    const steps = page.steps ? parseStepList(src.doc.getIn(['pages', index, 'steps'], true), src, byName) : [];
    checkReferences(steps);
    const waitFor = page.wait_for ?? config.wait_for;
    const expectedStatus = statuses(page.expected_status) ?? statuses(config.expected_status);
    return {
      name,
      ...(url ? { url } : {}),
      steps,
      mask: [...(config.mask ?? []), ...(page.mask ?? [])],
      ...(waitFor ? { waitFor: typeof waitFor === 'string' ? { selector: waitFor } : waitFor } : {}),
      fullPage: page.full_page ?? config.full_page ?? false,
      ...(limitsOf(page, `pages.${index}`, src.doc.hasIn(['pages', index, 'threshold']) ? src.lineOf(src.doc.getIn(['pages', index, 'threshold'], true)) : line, warn) ?? topLimits ?? { maxDiffPixels: 0 }),
      ...(expectedStatus ? { expectedStatus } : {}),
      colorThreshold: page.color_threshold ?? config.color_threshold ?? 0.1,
      viewports: page.viewports ? page.viewports.map(toViewport) : viewports,
    };
  });
}

export function capturesOf(pages: PageSpec[]): Capture[] {
  return pages.flatMap((page) => page.viewports.map((viewport) => ({ id: `${page.name}@${viewport.name}`, page, viewport })));
}

/** "i/n" → the i-th of n slices (1-based). */
export function parseShard(text: string): { index: number; total: number } {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(match?.[1]);
  const total = Number(match?.[2]);
  if (!match || total < 1 || index < 1 || index > total) throw new Error(`--shard: expected i/n with 1 <= i <= n, got "${text}"`);
  return { index, total };
}

/** Deterministic slice: captures sorted by id, every n-th one from position i-1. Disjoint, and together complete. */
export function shardOf(captures: Capture[], shard: { index: number; total: number }): Capture[] {
  return [...captures].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).filter((_, position) => position % shard.total === shard.index - 1);
}
