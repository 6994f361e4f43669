import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
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
  /** Changed pixels allowed: a ratio below 1, a pixel count from 1 up. */
  threshold: number;
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

/** Parses a regress CONFIG; a bad one is a ScriptParseError with its line (exit 2). */
export function parseConfig(source: string, configPath: string, tools: Tool[], fallbackViewport: { width: number; height: number }): PageSpec[] {
  const src = parseSource(source);
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
  return config.pages.map((page, index) => {
    const line = src.lineOf(src.doc.getIn(['pages', index], true));
    if (page.url && page.file) throw new ScriptParseError('a page has either url or file, not both', line);
    // ${NAME} in a URL is the environment variable (a host or a token kept out of the file).
    const baseUrl = config.base_url && expandEnv(config.base_url, src.lineOf(src.doc.get('base_url', true)));
    if (baseUrl && !URL.canParse(baseUrl)) throw new ScriptParseError(`base_url: not a URL: ${config.base_url}`, src.lineOf(src.doc.get('base_url', true)));
    const pageUrl = page.url && expandEnv(page.url, line);
    const url = page.file ? pathToFileURL(resolve(dirname(configPath), page.file)).href : pageUrl && baseUrl ? new URL(pageUrl, baseUrl).href : pageUrl;
    if (!url && !page.steps) throw new ScriptParseError('a page needs url, file or steps', line);
    const name = page.name ?? defaultName(page.file ?? url ?? `page${index + 1}`);
    if (seen.has(name)) throw new ScriptParseError(`two pages are named "${name}"; give one a name:`, line);
    seen.add(name);
    const steps = page.steps ? parseStepList(src.doc.getIn(['pages', index, 'steps'], true), src, byName) : [];
    checkReferences(steps);
    const waitFor = page.wait_for ?? config.wait_for;
    return {
      name,
      ...(url ? { url } : {}),
      steps,
      mask: [...(config.mask ?? []), ...(page.mask ?? [])],
      ...(waitFor ? { waitFor: typeof waitFor === 'string' ? { selector: waitFor } : waitFor } : {}),
      fullPage: page.full_page ?? config.full_page ?? false,
      threshold: page.threshold ?? config.threshold ?? 0,
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
