#!/usr/bin/env node
// Writes docs/tools.md from the tools themselves: names, descriptions, zod input/output schemas (dist/tools), and
// the error codes their source can raise (src/tools and the modules each imports). Run after `npm run build`.
//   node scripts/gen-tools-doc.mjs           rewrite docs/tools.md
//   node scripts/gen-tools-doc.mjs --check   exit 1 when docs/tools.md differs from what would be written
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'docs', 'tools.md');
const check = process.argv.includes('--check');

const { allTools } = await import(join(ROOT, 'dist', 'tools', 'index.js'));
const { defaultOptions } = await import(join(ROOT, 'dist', 'config.js'));

// What each contract code means for the caller. Every code of ErrorCode (src/errors.ts) must have a line here.
const MEANING = {
  invalid_arguments: 'The arguments do not fit the schema; `field` names the culprit. Nothing was done.',
  tab_not_in_group: 'The tabId belongs to no tab of this session. Call tabs_context_mcp for valid ids.',
  tab_closed: 'The tab (or the frame addressed) is gone. Pick another tab or open one.',
  dialog_open: 'A JavaScript dialog blocks the tab. Answer it with firefox_dialog, then go on.',
  no_dialog: 'firefox_dialog was called but no dialog is open on that tab.',
  ref_stale: 'The ref no longer points at a live element (`reason`: element_removed, not_in_snapshot, other_document). Take a new snapshot.',
  ref_hidden: 'The element exists but is not visible or has no size. Scroll, open its container, or pick another.',
  ambiguous_target: 'The target matches more than one element. Use a ref from a fresh snapshot.',
  target_occluded: 'Another element covers the target point (`details` say which). Close the overlay or use a ref.',
  out_of_viewport: 'The coordinate lies outside the viewport. Scroll or use a ref, which scrolls for you.',
  navigation_timeout: 'The page did not finish loading in time. The tab shows whatever had loaded.',
  navigation_failed: 'The URL could not be loaded (DNS, refused connection, bad scheme).',
  timeout: 'The browser did not answer in time. With `unknown_effects: true` the action may have happened: look before you retry.',
  origin_blocked: 'The URL is outside --allowed-origins or inside --blocked-origins, or uses a scheme refused by default (file:, javascript:). Nothing was loaded.',
  browser_crashed: 'Firefox went away. The next call starts a new one; tabs and refs from before are gone.',
  profile_locked: 'Another Firefox uses this profile. Close it, or start with --isolated or another --profile.',
  firefox_not_found: 'No Firefox binary was found. Install it or set --firefox / FIREFOX_BIN.',
  launch_failed: 'Firefox was found but did not start; the message carries its output.',
  javascript_error: 'The code passed to javascript_tool threw; the message carries its error.',
  not_found: 'What was asked for does not exist (a file, an element, a history entry).',
  internal_error: 'A bug in firefox-use. The message says where; please report it.',
};

// Example calls (validated against each tool's input schema) and, where written, example results (validated
// against its output schema). A tool without one gets an example built from its schema.
const EXAMPLES = {
  tabs_context_mcp: {
    args: { createIfEmpty: true },
    result: { tabs: [{ tabId: 1, url: 'https://example.com/', title: 'Example Domain', active: true }], activeTabId: 1 },
  },
  tabs_create_mcp: { args: { url: 'https://example.com/login' }, result: { tabId: 2, url: 'https://example.com/login', title: 'Log in', active: false } },
  tabs_close_mcp: { args: { tabId: 2 }, result: { closed: 2, remainingTabIds: [1] } },
  navigate: {
    args: { tabId: 1, url: 'https://example.com/login' },
    result: {
      url: 'https://example.com/login',
      title: 'Log in',
      snapshot: '- main\n  - heading "Log in" [ref=ref_1] [level=1]\n  - textbox "Email" [ref=ref_2]\n  - button "Continue" [ref=ref_3]',
    },
  },
  computer: { args: { action: 'left_click', tabId: 1, ref: 'ref_3' } },
  read_page: { args: { tabId: 1, filter: 'interactive' } },
  find: { args: { tabId: 1, query: 'button continue' } },
  firefox_dialog: { args: { tabId: 1, action: 'accept' } },
  get_page_text: { args: { tabId: 1 } },
  form_input: { args: { tabId: 1, ref: 'ref_2', value: 'ann@example.com' } },
  file_upload: { args: { tabId: 1, ref: 'ref_7', paths: ['/home/ann/report.pdf'] } },
  javascript_tool: { args: { tabId: 1, text: 'document.title' } },
  read_console_messages: { args: { tabId: 1, onlyErrors: true } },
  read_network_requests: { args: { tabId: 1, urlPattern: '/api/' } },
  resize_window: { args: { tabId: 1, width: 1024, height: 768 } },
};

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

/** Codes of ErrorCode as declared in src/errors.ts. */
function declaredCodes() {
  const source = readFileSync(join(ROOT, 'src', 'errors.ts'), 'utf8');
  const union = /export type ErrorCode =([^;]+);/.exec(source);
  return union ? [...union[1].matchAll(/'([a-z_]+)'/g)].map((m) => m[1]) : [];
}

/** Contract codes raised in a source file: `new ToolError('code'`, `PageError('code'`, or 'code' strings of the union. */
function codesIn(file, codes) {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  return codes.filter((code) => new RegExp(`(ToolError|PageError|code:)\\s*\\(?\\s*'${code}'|'${code}'`).test(text));
}

/** The tool's source file and the local modules it imports (one level deep, not the shared plumbing). */
function sourcesOf(toolName) {
  const dir = join(ROOT, 'src', 'tools');
  for (const entry of readdirSync(dir)) {
    if (!entry.endsWith('.ts')) continue;
    const file = join(dir, entry);
    const text = readFileSync(file, 'utf8');
    if (!new RegExp(`name:\\s*'${toolName}'`).test(text)) continue;
    const imports = [...text.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)]
      .map((m) => resolve(dir, `${m[1]}.ts`))
      .filter((path) => !/\/(tool|errors|index)\.ts$/.test(path) && !path.includes('/bidi/'));
    return [file, ...imports];
  }
  return [];
}

function errorCodesOf(tool, codes) {
  const found = new Set(['invalid_arguments']);
  if (tool.scope === 'tab') {
    for (const code of ['tab_not_in_group', 'tab_closed', 'timeout', 'browser_crashed']) found.add(code);
    if (!tool.worksWithDialog) found.add('dialog_open');
  }
  for (const file of sourcesOf(tool.name)) for (const code of codesIn(file, codes)) found.add(code);
  for (const code of codes) if (new RegExp(`\\b${code}\\b`).test(tool.description)) found.add(code);
  found.delete('internal_error');
  return codes.filter((code) => found.has(code));
}

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
    problems.push(`${tool.name}: the example result no longer fits the output schema`);
    result = undefined;
  }
  if (!result) {
    // Built from the schema: echo the call's own values where the result has a field of the same name.
    result = sample(outputSchema);
    for (const [key, value] of Object.entries(args ?? {})) if (key in (outputSchema.properties ?? {})) result[key] = value;
  }
  return { args, result };
}

function renderTool(tool, codes) {
  const inputSchema = z.toJSONSchema(tool.input, { io: 'input' });
  const lines = [`## \`${tool.name}\``, ''];
  if (tool.title) lines.push(`**${tool.title}**${tool.scope === 'tab' ? ' · acts on one tab' : ' · session-wide'}` + annotationText(tool.annotations), '');
  if (tool.enabled && !tool.enabled(defaultOptions())) lines.push('> Listed only when the server is started with the flag that enables it (see the description).', '');
  lines.push(tool.description, '', '### Parameters', '');
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
  const { args, result } = example(tool);
  lines.push('', '### Example', '', 'Call:', '', '```json', JSON.stringify({ name: tool.name, arguments: args }, null, 2), '```', '');
  lines.push('Result (`structuredContent`; the text content carries a short rendering of it):', '', '```json', JSON.stringify(result, null, 2), '```', '');
  lines.push('### Error codes', '', ...errorCodesOf(tool, codes).map((code) => `- \`${code}\`: ${MEANING[code] ?? '(no description yet)'}`), '');
  return lines;
}

function annotationText(annotations = {}) {
  const marks = [];
  if (annotations.readOnlyHint) marks.push('read-only');
  if (annotations.destructiveHint) marks.push('destructive');
  if (annotations.openWorldHint) marks.push('reaches the web');
  return marks.length ? ` · ${marks.join(', ')}` : '';
}

const codes = declaredCodes();
for (const code of codes) if (!MEANING[code]) problems.push(`error code ${code} (src/errors.ts) has no meaning in scripts/gen-tools-doc.mjs`);

const lines = [
  '# Tools',
  '',
  '<!-- Generated by scripts/gen-tools-doc.mjs from the tools\' schemas. Do not edit: run `npm run docs:tools`. -->',
  '',
  'Every tool answers with `structuredContent` (matching its output schema) and a short text for the model. A failure is',
  '`isError: true`; the first text line is `<code>: <message>` and `structuredContent.error` is `{code, message, ...details}`.',
  'How an agent should use them together: [agents.md](agents.md).',
  '',
  '| tool | what it does |',
  '|---|---|',
  ...allTools.map((tool) => `| [\`${tool.name}\`](#${tool.name}) | ${cell(tool.description.split(/(?<=\.)\s/)[0])} |`),
  '',
];
for (const tool of allTools) lines.push(...renderTool(tool, codes));
lines.push('## Error codes', '', '| code | meaning and what to do |', '|---|---|', ...codes.map((code) => `| \`${code}\` | ${cell(MEANING[code])} |`), '');
const text = lines.join('\n');

for (const problem of problems) process.stderr.write(`gen-tools-doc: ${problem}\n`);
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
