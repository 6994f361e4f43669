#!/usr/bin/env node
// Writes docs/tools.md from the tools themselves: names, descriptions, zod input/output schemas and the error codes
// each declares (dist/tools), with the meanings of src/errors.ts. Run after `npm run build`.
//   node scripts/gen-tools-doc.mjs           rewrite docs/tools.md
//   node scripts/gen-tools-doc.mjs --check   exit 1 when docs/tools.md differs from what would be written
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'docs', 'tools.md');
const check = process.argv.includes('--check');

const { allTools: everyTool } = await import(join(ROOT, 'dist', 'tools', 'index.js'));
// test_* tools exist only for the test suite (FIREFOX_USE_TEST_TOOLS=1); users never see them, so the docs do not list them.
const allTools = everyTool.filter((tool) => !tool.name.startsWith('test_'));
const { defaultOptions } = await import(join(ROOT, 'dist', 'config.js'));
const { errorCodesOf } = await import(join(ROOT, 'dist', 'tools', 'tool.js'));

// What each contract code means for the caller: the one list, in src/errors.ts.
const { ERROR_CODES: MEANING } = await import(join(ROOT, 'dist', 'errors.js'));

// Example calls and results captured from a real session (scripts/capture-tool-examples.mjs, `npm run docs:examples`,
// which needs Firefox): each call is validated against the tool's input schema and each result against its output
// schema here, so a stale example fails `npm run docs:check`. A tool without one gets an example built from its schema.
const EXAMPLES_FILE = join(ROOT, 'docs', 'tool-examples.json');
const EXAMPLES = existsSync(EXAMPLES_FILE) ? JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) : {};

const problems = [];

/** A small value that fits a JSON schema: required properties only, first enum member, first union branch. */
function sample(schema, key = '') {
  if (!schema || typeof schema !== 'object') return null;
  if ('const' in schema) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf ?? schema.oneOf) return sample((schema.anyOf ?? schema.oneOf)[0], key);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return key === 'url' ? 'https://example.com/' : key === 'ref' ? 'ref_1' : key.toLowerCase().includes('title') ? 'Example Domain' : 'text';
    case 'integer':
    case 'number':
      return schema.minimum ?? (typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return true;
    case 'array':
      return [sample(schema.items, key)];
    case 'object': {
      const value = {};
      for (const name of schema.required ?? []) value[name] = sample(schema.properties?.[name], name);
      return value;
    }
    default:
      return null;
  }
}

function typeOf(schema) {
  if (!schema) return 'any';
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if ('const' in schema) return JSON.stringify(schema.const);
  if (schema.anyOf ?? schema.oneOf) return (schema.anyOf ?? schema.oneOf).map(typeOf).join(' | ');
  if (schema.type === 'array') return `${typeOf(schema.items)}[]`;
  if (schema.type === 'integer' || schema.type === 'number') {
    const bounds = [];
    if (schema.minimum !== undefined) bounds.push(`≥ ${schema.minimum}`);
    if (schema.exclusiveMinimum !== undefined) bounds.push(`> ${schema.exclusiveMinimum}`);
    if (schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER) bounds.push(`≤ ${schema.maximum}`);
    return `${schema.type}${bounds.length ? ` (${bounds.join(', ')})` : ''}`;
  }
  return Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any');
}

const cell = (text) => String(text ?? '').replace(/\|/g, '\\|').replace(/\n+/g, ' ');

function example(tool) {
  const given = EXAMPLES[tool.name];
  const inputSchema = z.toJSONSchema(tool.input, { io: 'input' });
  const outputSchema = z.toJSONSchema(tool.output, { io: 'output' });
  let args = given?.args;
  if (args && !tool.input.safeParse(args).success) {
    problems.push(`${tool.name}: the example call no longer fits the input schema: ${JSON.stringify(args)}`);
    args = undefined;
  }
  args ??= sample(inputSchema);
  let result = given?.result;
  if (result && !tool.output.safeParse(result).success) {
    problems.push(`${tool.name}: the example result no longer fits the output schema: run \`npm run docs:examples\``);
    result = undefined;
  }
  if (!result) {
    problems.push(`${tool.name}: no captured example in docs/tool-examples.json: run \`npm run docs:examples\``);
    // Built from the schema: echo the call's own values where the result has a field of the same name.
    result = sample(outputSchema);
    for (const [key, value] of Object.entries(args ?? {})) if (key in (outputSchema.properties ?? {})) result[key] = value;
    return { args, result, captured: false };
  }
  return { args, result, captured: true, text: given.text, images: given.images };
}

function renderTool(tool) {
  const inputSchema = z.toJSONSchema(tool.input, { io: 'input' });
  const lines = [`## \`${tool.name}\``, ''];
  if (tool.title) lines.push(`**${tool.title}**${tool.scope === 'tab' ? ' · acts on one tab' : ' · session-wide'}` + annotationText(tool.annotations), '');
  if (tool.enabled && !tool.enabled(defaultOptions())) lines.push('> Listed only when the server is started with the flag that enables it (see the description).', '');
  lines.push(tool.description, '');
  if (tool.details) lines.push(tool.details, '');
  lines.push('### Parameters', '');
  const properties = Object.entries(inputSchema.properties ?? {});
  if (properties.length === 0) {
    lines.push('None.');
  } else {
    lines.push('| name | type | required | description |', '|---|---|---|---|');
    const required = new Set(inputSchema.required ?? []);
    for (const [name, schema] of properties) {
      const extra = schema.default !== undefined ? ` Default: \`${JSON.stringify(schema.default)}\`.` : '';
      lines.push(`| \`${name}\` | ${cell(typeOf(schema))} | ${required.has(name) ? 'yes' : 'no'} | ${cell((schema.description ?? '') + extra)} |`);
    }
  }
  const { args, result, captured, text, images } = example(tool);
  lines.push('', '### Example', '', 'Call:', '', '```json', JSON.stringify({ name: tool.name, arguments: args }, null, 2), '```', '');
  if (captured) {
    lines.push(`Text the model reads${images?.length ? ` (plus an image block, ${images.join(', ')})` : ''}:`, '', '```', text, '```', '');
    lines.push('`structuredContent`:', '', '```json', JSON.stringify(result, null, 2), '```', '');
  } else {
    lines.push('Result (`structuredContent`, built from the schema; the text content carries a short rendering of it):', '', '```json', JSON.stringify(result, null, 2), '```', '');
  }
  lines.push('### Error codes', '', ...errorCodesOf(tool).map((code) => `- \`${code}\`: ${MEANING[code] ?? '(no description yet)'}`), '');
  return lines;
}

function annotationText(annotations = {}) {
  const marks = [];
  if (annotations.readOnlyHint) marks.push('read-only');
  if (annotations.destructiveHint) marks.push('destructive');
  if (annotations.openWorldHint) marks.push('reaches the web');
  return marks.length ? ` · ${marks.join(', ')}` : '';
}

const codes = Object.keys(MEANING);
// docs/agents.md says what an agent should do about each code, in a table row of its own.
const agentsDoc = readFileSync(join(ROOT, 'docs', 'agents.md'), 'utf8');
for (const code of codes) if (!new RegExp(`^\\|[^|\\n]*\`${code}\``, 'm').test(agentsDoc)) problems.push(`error code ${code} (src/errors.ts) has no row in docs/agents.md`);

const lines = [
  '# Tools',
  '',
  '<!-- Generated by scripts/gen-tools-doc.mjs from the tools\' schemas. Do not edit: run `npm run docs:tools`. -->',
  '',
  'Every tool answers with `structuredContent` (matching its output schema) and a short text for the model. A failure is',
  '`isError: true`; the first text line is `<code>: <message>` and `structuredContent.error` is `{code, message, ...details}`.',
  'How an agent should use them together: [agents.md](agents.md). The examples are replies of a real session against a',
  'local page (`npm run docs:examples`, scripts/capture-tool-examples.mjs); only the page\'s port and the output dir are rewritten.',
  '',
  '| tool | what it does |',
  '|---|---|',
  ...allTools.map((tool) => `| [\`${tool.name}\`](#${tool.name}) | ${cell(tool.description.split(/(?<=\.)\s/)[0])} |`),
  '',
];
for (const tool of allTools) lines.push(...renderTool(tool));
lines.push('## Error codes', '', '| code | meaning and what to do |', '|---|---|', ...codes.map((code) => `| \`${code}\` | ${cell(MEANING[code])} |`), '');
const text = lines.join('\n');

for (const problem of problems) process.stderr.write(`gen-tools-doc: ${problem}\n`);
if (check && problems.length > 0) process.exit(1);
if (check) {
  const current = existsSync(OUT) ? readFileSync(OUT, 'utf8') : '';
  if (current !== text) {
    process.stderr.write('docs/tools.md is stale: run `npm run docs:tools` and commit the result.\n');
    process.exit(1);
  }
  process.stdout.write(`docs/tools.md is current (${allTools.length} tools).\n`);
} else {
  writeFileSync(OUT, text);
  process.stdout.write(`wrote docs/tools.md (${allTools.length} tools)\n`);
}
