import { secretsOf } from './secrets.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { insideDir } from '../browser/group/index.js';
import type { ServerOptions } from '../config.js';
import { ToolError } from '../errors.js';
import { allTools } from '../tools/index.js';
import { TOOL_GROUPS, type Tool } from '../tools/tool.js';
import { closest } from '../suggest.js';
import { openedTabsSection } from '../tools/reply/index.js';
import { VERSION } from '../version.js';
import { dispatch, errorResult } from './dispatch.js';
import { elicitingAsker, elicitingHandOff, noteCall } from './elicit.js';
import type { LiveHub } from './live/hub.js';
import { shallow, toJsonSchema, type JsonSchema } from './json-schema.js';
import { SessionRecorder } from './recorder.js';
import type { Session } from './session.js';
import { SessionFiles } from './session-files.js';
import { SessionTrace } from './trace.js';

const errorSchema: JsonSchema = { type: 'object', properties: { error: { type: 'object' } }, required: ['error'] };

/** Fields the dispatcher may add to any tab tool's result. */
const dispatcherFields = {
  notice: z.string().optional(),
  ...openedTabsSection.schema,
};

/**
 * The tool list as MCP clients see it: portable input schemas, and output schemas cut to their top-level fields
 * (docs/tools.md has the full shapes) that also admit the `{error}` shape of coded failures.
 */
export function describeTools(tools: Tool[]): McpTool[] {
  return tools.map((tool) => {
    const output = shallow(toJsonSchema(tool.output.extend(dispatcherFields), 'output'));
    return {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: toJsonSchema(tool.input, 'input') as McpTool['inputSchema'],
      outputSchema: { type: 'object', anyOf: [output, errorSchema] } as McpTool['outputSchema'],
      annotations: { title: tool.title, ...tool.annotations },
    };
  });
}

/**
 * The tools a server lists: those its flags allow (javascript_tool needs --allow-javascript), then either exactly
 * the --tools allow-list or the default groups plus those --caps names. `reachesPerson`: a person can take a tab
 * (a live view runs, or Firefox is --headed): request_human is listed only then.
 */
export function enabledTools(options: Pick<ServerOptions, 'caps' | 'tools'> & Partial<ServerOptions>, reachesPerson = false): Tool[] {
  const allowed = allTools.filter((tool) => (!tool.enabled || tool.enabled(options as ServerOptions)) && (!tool.needsPerson || reachesPerson));
  if (options.tools?.length) return allowed.filter((tool) => options.tools.includes(tool.name));
  return allowed.filter((tool) => !tool.group || options.caps?.includes(tool.group));
}

/** Refuses a --caps group or --tools name that does not exist, suggesting the nearest one. */
export function checkToolChoice(options: Pick<ServerOptions, 'caps' | 'tools'>): void {
  const names = allTools.filter((tool) => !tool.name.startsWith('test_')).map((tool) => tool.name);
  for (const [flag, given, known] of [['caps', options.caps, [...TOOL_GROUPS]], ['tools', options.tools, names]] as const) {
    for (const value of given) {
      if ((known as readonly string[]).includes(value)) continue;
      const suggestion = closest(value, [...known]);
      throw new ToolError('invalid_arguments', `--${flag}: no ${flag === 'caps' ? 'tool group' : 'tool'} "${value}".${suggestion ? ` Did you mean "${suggestion}"?` : ''} Known: ${known.join(', ')}.`, { field: flag });
    }
  }
}

/** A session's recorder; with --save-script it rewrites session-<time>.yaml in the session's output dir after every call. */
function recorderFor(options: ServerOptions): SessionRecorder {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const path = options.saveScript ? insideDir(options.outputDir, `session-${stamp}-${randomUUID().slice(0, 8)}.yaml`) : null;
  return new SessionRecorder(path, `${options.viewport.width}x${options.viewport.height}`, options.outputDir, new Set(Object.keys(secretsOf(options)?.placeholders() ?? {})));
}

/** --save-trace: the session's trace-<time>.html in its output dir, rewritten as its calls come and go. */
function traceFor(session: Session, options: ServerOptions, tools: ReadonlyMap<string, Tool>): SessionTrace {
  const trace = new SessionTrace(session, (name) => tools.get(name), options.outputDir);
  session.watchers.add(trace);
  process.stderr.write(`firefox-use: this session's trace goes to ${trace.path} (show it: firefox-use show-trace ${trace.path})\n`);
  return trace;
}

function didYouMean(name: string, tools: Tool[]): string {
  const suggestion = closest(name, tools.map((tool) => tool.name));
  return suggestion ? ` Did you mean "${suggestion}"?` : '';
}

/** Where a server's live view is: the hub that serves it, and how its session list names this session. */
export interface LiveViewOf {
  hub: LiveHub;
  label: string;
  /** Where the person opens it, when not at the hub's own origin (a shared browser's bridge serves it on its --live-port). */
  origin?: string;
}

/** One MCP server bound to one session (stdio has one; `serve` makes one per HTTP session). */
export function createMcpServer(session: Session, options: ServerOptions, liveView?: LiveViewOf): Server {
  // A tool that hands the tab to a person is listed only where one can be reached (a live view, a --headed window).
  const tools = enabledTools(options, Boolean(liveView) || options.headed);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const listed = describeTools(tools);
  if (!session.recorder && (options.saveScript || byName.has('script_export'))) session.recorder = recorderFor(options);
  if (options.saveTrace && !session.trace) session.trace = traceFor(session, options, byName);
  const server = new Server(
    { name: 'firefox-use', version: VERSION },
    {
      capabilities: { tools: {}, resources: { listChanged: true } },
      instructions:
        'A headless Firefox the server owns. Start with tabs_context_mcp (createIfEmpty: true): every tabId comes from it or ' +
        'tabs_create_mcp and names a tab of this session. navigate, then read_page or find for refs ("ref_12"), and act with ' +
        'computer or form_input using those refs. Coordinates are viewport CSS pixels of the latest screenshot.',
    },
  );
  // --confirm-actions asks the person through this server's client; request_human offers the tab there too.
  session.ask = elicitingAsker(server);
  session.offerHandOff = elicitingHandOff(server);
  if (liveView) {
    const live = liveView.hub.attach(session, liveView.label, (name) => byName.get(name));
    session.liveUrl = () => liveView.hub.urlOf(live, liveView.origin);
    session.onClose(() => liveView.hub.detach(live));
  }
  const files = new SessionFiles(options.outputDir);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      return errorResult(
        new ToolError('invalid_arguments', `No tool named "${request.params.name}".${didYouMean(request.params.name, tools)} Tools: ${tools.map((t) => t.name).join(', ')}.`, {
          field: 'name',
        }),
      );
    }
    noteCall(extra.signal, extra.requestId);
    const result = await dispatch(tool, request.params.arguments, session, options, extra.signal);
    // Files the call saved, as links a client off this machine reads with resources/read.
    const links = result.isError ? [] : files.register(result.structuredContent);
    if (links.length) {
      result.content.push(...links);
      void server.sendResourceListChanged().catch(() => undefined);
    }
    return result;
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: files.list() }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => files.read(request.params.uri));
  return server;
}
