import { z } from 'zod';
import type { ServerOptions } from '../config.js';
import { ERROR_CODES, type ErrorCode } from '../errors.js';
import type { TabToolContext, ToolContext } from './context.js';

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

interface ToolBase<In extends z.ZodObject, Out extends z.ZodObject> {
  name: string;
  title: string;
  /** What the model reads in tools/list: short (the whole default list stays under 9,000 characters). */
  description: string;
  /** The long form, for docs/tools.md only. */
  details?: string;
  input: In;
  output: Out;
  annotations: ToolAnnotations;
  /**
   * The codes this tool can fail with beyond those every tool of its scope can (see `errorCodesOf`). The tools doc
   * lists them and the fuzz test fails on any other.
   */
  errors: readonly ErrorCode[];
  /** Checks across fields a schema cannot state (which fields fit which action); throws invalid_arguments. Runs before anything else. */
  checkArgs?: (args: z.infer<In>) => void;
  /** A group listed only when --caps names it (the tools of no group are listed by default). */
  group?: ToolGroup;
  /** Listed only when the server options allow it (e.g. javascript_tool behind --allow-javascript). */
  enabled?: (options: ServerOptions) => boolean;
}

/** A tool that works on no particular tab (tab listing and creation). */
export interface SessionTool<In extends z.ZodObject, Out extends z.ZodObject> extends ToolBase<In, Out> {
  scope: 'session';
  handler(context: ToolContext, args: z.infer<In>): Promise<ToolResponse<z.infer<Out>>>;
}

/**
 * A tool on one tab: the dispatcher resolves `tabId` inside the caller's group, refuses a tab with an open
 * dialog (unless `worksWithDialog`), and queues calls per tab, before the handler runs.
 */
export interface TabTool<In extends z.ZodObject, Out extends z.ZodObject> extends ToolBase<In, Out> {
  scope: 'tab';
  worksWithDialog?: boolean;
  handler(context: TabToolContext, args: z.infer<In>): Promise<ToolResponse<z.infer<Out>>>;
}

export type Tool<In extends z.ZodObject = z.ZodObject, Out extends z.ZodObject = z.ZodObject> = SessionTool<In, Out> | TabTool<In, Out>;

export function defineTool<In extends z.ZodObject, Out extends z.ZodObject>(tool: SessionTool<In, Out> | TabTool<In, Out>): Tool {
  return tool as unknown as Tool;
}

/** Every tool: bad arguments. Session tools launch Firefox on first use; tab tools resolve and queue on a tab. */
const SESSION_CODES: readonly ErrorCode[] = ['invalid_arguments', 'timeout', 'browser_crashed', 'profile_locked', 'firefox_not_found', 'launch_failed'];
const TAB_CODES: readonly ErrorCode[] = ['invalid_arguments', 'tab_not_in_group', 'tab_closed', 'timeout', 'browser_crashed'];

/**
 * Every code a call of `tool` can answer with, in the order of ERROR_CODES. `internal_error` is left out: it is
 * a bug wherever it comes from.
 */
export function errorCodesOf(tool: Tool): ErrorCode[] {
  const codes = new Set<ErrorCode>(tool.scope === 'session' ? SESSION_CODES : TAB_CODES);
  if (tool.scope === 'tab' && !tool.worksWithDialog) codes.add('dialog_open');
  for (const code of tool.errors) codes.add(code);
  return (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => codes.has(code));
}

/** No description: thirteen tools list it; tabs_context_mcp and the server instructions say where ids come from. */
export const tabIdField = z.number().int().min(1);
