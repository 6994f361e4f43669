// Tools for tests and the benchmark (FIREFOX_USE_TEST_TOOLS=1 only): the ref of the first element matching a CSS
// selector, issued through the same registry read_page and find use; an element's text; the count of open sessions.
import { z } from 'zod';
import { localIdForSelector, textOfSelector } from '../../browser/tab/index.js';
import { ToolError } from '../../errors.js';
import { defineTool, tabIdField } from '../tool.js';

export const testRefTool = defineTool({
  name: 'test_ref_for_selector',
  title: 'Ref for a CSS selector (tests only)',
  description: 'Test helper: issues the ref of the first element matching selector, optionally inside the n-th child frame.',
  scope: 'tab',
  errors: ['not_found'],
  enabled: () => process.env['FIREFOX_USE_TEST_TOOLS'] === '1',
  input: z.strictObject({ tabId: tabIdField, selector: z.string().min(1), frame: z.number().int().min(0).optional() }),
  output: z.object({ ref: z.string() }),
  annotations: { readOnlyHint: true },
  script: 'looks',
  async handler(context, args) {
    const { tab } = context;
    const frameContext = args.frame === undefined ? tab.context : tab.contexts.children(tab.context)[args.frame]?.id;
    if (!frameContext) throw new ToolError('not_found', `No frame ${args.frame} in tab ${tab.id}.`);
    const found = await localIdForSelector(tab, args.selector, frameContext);
    if (!found) throw new ToolError('not_found', `Nothing matches ${args.selector}.`);
    return { structured: { ref: tab.refs.refFor(tab.id, frameContext, found.docId, found.localId) } };
  },
});

export const testTextTool = defineTool({
  name: 'test_text_of_selector',
  title: 'Text of a CSS selector (tests only)',
  description: 'Test helper: the text content (or value of a field) of the first element matching selector.',
  scope: 'tab',
  errors: ['not_found'],
  enabled: () => process.env['FIREFOX_USE_TEST_TOOLS'] === '1',
  input: z.strictObject({ tabId: tabIdField, selector: z.string().min(1), frame: z.number().int().min(0).optional() }),
  output: z.object({ text: z.string().nullable() }),
  annotations: { readOnlyHint: true },
  script: 'looks',
  async handler(context, args) {
    const { tab } = context;
    const frameContext = args.frame === undefined ? tab.context : tab.contexts.children(tab.context)[args.frame]?.id;
    if (!frameContext) throw new ToolError('not_found', `No frame ${args.frame} in tab ${tab.id}.`);
    const text = await textOfSelector(tab, args.selector, frameContext);
    return { structured: { text } };
  },
});

export const testServerStateTool = defineTool({
  name: 'test_server_state',
  title: 'Server state (tests only)',
  description: 'Test helper: how many MCP sessions of this server are still open (the caller included).',
  scope: 'session',
  errors: [],
  enabled: () => process.env['FIREFOX_USE_TEST_TOOLS'] === '1',
  input: z.strictObject({}),
  output: z.object({ sessions: z.number() }),
  annotations: { readOnlyHint: true },
  script: 'looks',
  handler(context) {
    return Promise.resolve({ structured: { sessions: context.services.openSessionCount() } });
  },
});
