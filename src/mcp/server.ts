import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ServerOptions } from '../config.js';
import { ToolError } from '../errors.js';
import { allTools } from '../tools/index.js';
import type { Tool } from '../tools/tool.js';
import { tabInfoSchema } from '../tools/tab-info.js';
import { VERSION } from '../version.js';
import { dispatch, errorResult } from './dispatch.js';
import { shallow, toJsonSchema, type JsonSchema } from './json-schema.js';
import type { Session } from './session.js';

const errorSchema: JsonSchema = { type: 'object', properties: { error: { type: 'object' } }, required: ['error'] };

/** Fields the dispatcher may add to any tab tool's result. */
const dispatcherFields = {
  notice: z.string().optional(),
  opened_tabs: z.array(tabInfoSchema).optional(),
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

export function enabledTools(options: ServerOptions): Tool[] {
  return allTools.filter((tool) => !tool.enabled || tool.enabled(options));
}

/** One MCP server bound to one session (stdio has one; `serve` makes one per HTTP session). */
export function createMcpServer(session: Session, options: ServerOptions): Server {
  const tools = enabledTools(options);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const listed = describeTools(tools);
  const server = new Server(
    { name: 'firefox-use', version: VERSION },
    {
      capabilities: { tools: {} },
      instructions:
        'A headless Firefox the server owns. Start with tabs_context_mcp (createIfEmpty: true): every tabId comes from it or ' +
        'tabs_create_mcp and names a tab of this session. navigate, then read_page or find for refs ("ref_12"), and act with ' +
        'computer or form_input using those refs. Coordinates are viewport CSS pixels of the latest screenshot.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      return errorResult(
        new ToolError('invalid_arguments', `No tool named "${request.params.name}". Tools: ${tools.map((t) => t.name).join(', ')}.`, {
          field: 'name',
        }),
      );
    }
    return dispatch(tool, request.params.arguments, session, options);
  });
  return server;
}
