// The tool list as a client receives it: small enough to leave the model its context, and written in the JSON Schema
// subset every model endpoint accepts (Gemini refuses prefixItems and exclusiveMinimum; clients that pass schemas
// through unchanged then fail the whole request). No browser: the list is built from the tools themselves.
import { expect } from 'chai';
import { defaultOptions } from '../../dist/config.js';
import { describeTools, enabledTools } from '../../dist/mcp/server.js';
import { allTools } from '../../dist/tools/index.js';

/** What the model reads of each tool: name, description, input schema. */
const modelVisible = (tools) => JSON.stringify(tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })));

/** Keywords some model endpoints refuse, and the JSON Schema forms they need instead. */
const UNPORTABLE = ['prefixItems', 'exclusiveMinimum', 'exclusiveMaximum', 'additionalItems', '$ref', '$defs', 'definitions', '$schema', 'const'];

function problemsOf(schema, path, problems) {
  if (Array.isArray(schema)) {
    schema.forEach((member, i) => problemsOf(member, `${path}[${i}]`, problems));
    return problems;
  }
  if (!schema || typeof schema !== 'object') return problems;
  for (const [key, value] of Object.entries(schema)) {
    // A property may be called anything; only keywords of a schema object are checked.
    if (path.endsWith('.properties')) {
      problemsOf(value, `${path}.${key}`, problems);
      continue;
    }
    if (UNPORTABLE.includes(key)) problems.push(`${path}: ${key}`);
    if (key === 'items' && (typeof value !== 'object' || value === null || Array.isArray(value))) problems.push(`${path}: items must be one schema, not ${JSON.stringify(value)}`);
    if ((key === 'minimum' || key === 'maximum') && Math.abs(value) >= Number.MAX_SAFE_INTEGER) problems.push(`${path}: ${key} ${value}`);
    if (typeof value === 'object') problemsOf(value, `${path}.${key}`, problems);
  }
  return problems;
}

describe('tools/list', function () {
  // Every tool any flag can list, test-only ones included.
  const everything = describeTools(allTools);

  it('uses only portable JSON Schema in every input and output schema', function () {
    const problems = [];
    for (const tool of everything) {
      problemsOf(tool.inputSchema, `${tool.name}.inputSchema`, problems);
      problemsOf(tool.outputSchema, `${tool.name}.outputSchema`, problems);
      // A model endpoint reads input types one at a time.
      JSON.stringify(tool.inputSchema, (key, value) => {
        if (key === 'type' && Array.isArray(value)) problems.push(`${tool.name}.inputSchema: type ${JSON.stringify(value)}`);
        return value;
      });
    }
    expect(problems).to.deep.equal([]);
  });

  it('keeps tuples, tab ids and bounds in their portable form', function () {
    const computer = everything.find((tool) => tool.name === 'computer').inputSchema.properties;
    expect(computer.coordinate).to.include({ type: 'array', minItems: 2, maxItems: 2 });
    expect(computer.coordinate.items).to.deep.equal({ type: 'number' });
    expect(computer.region).to.include({ minItems: 4, maxItems: 4 });
    expect(computer.tabId).to.deep.equal({ type: 'integer', minimum: 1 });
  });

  it('costs the model at most 9,000 characters by default, every tool listed', function () {
    const listed = describeTools(enabledTools(defaultOptions()));
    const names = listed.map((tool) => tool.name);
    for (const name of ['tabs_context_mcp', 'tabs_create_mcp', 'tabs_close_mcp', 'navigate', 'computer', 'firefox_dialog', 'read_page', 'find', 'get_page_text', 'form_input', 'file_upload', 'read_console_messages', 'read_network_requests', 'resize_window']) {
      expect(names).to.include(name);
    }
    const visible = modelVisible(listed);
    expect(visible.length, `model-visible tools/list is ${visible.length} characters`).to.be.at.most(9_000);
    // Output schemas stay: a client can route on them. They must not outweigh what the model reads.
    const outputs = JSON.stringify(listed.map((tool) => tool.outputSchema));
    expect(outputs.length).to.be.below(visible.length);
    for (const tool of listed) {
      expect(tool.description.length, tool.name).to.be.within(40, 400);
      expect(tool.outputSchema.type, tool.name).to.equal('object');
    }
  });

  it('gives every tool with tabId the same short field', function () {
    const tabIds = everything.filter((tool) => tool.inputSchema.properties?.tabId).map((tool) => JSON.stringify(tool.inputSchema.properties.tabId));
    expect(tabIds.length).to.be.greaterThan(10);
    expect(new Set(tabIds).size).to.equal(1);
    expect(tabIds[0].length).to.be.at.most(40);
  });
});
