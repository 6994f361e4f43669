// Property-based fuzzing of every tool's input: whatever arrives, the server answers with a coded error or a valid
// result, never crashes or hangs, and keeps serving.
import { expect } from 'chai';
import fc from 'fast-check';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { firstTab, startServer } from './helpers/mcp-client.mjs';
import { allTools } from '../dist/tools/index.js';
import { errorCodesOf } from '../dist/tools/tool.js';

// Each tool answers only with the codes it declares (internal_error, a bug, is never one of them).
const declaredCodes = new Map(allTools.map((tool) => [tool.name, new Set(errorCodesOf(tool))]));

const nasty = fc.oneof(
  fc.constantFrom(NaN, Infinity, -Infinity, -1, 0, 1e308, -0, 2 ** 53, null, true, false, '', ' ', '\u0000', '\u202e', 'ref_0', 'ref_999999', 'back'),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ minLength: 5_000, maxLength: 20_000 }),
  fc.integer(),
  fc.double(),
  fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 5 }),
  fc.anything({ maxDepth: 2 }),
);

function callWithDeadline(server, name, args, ms) {
  return Promise.race([
    server.call(name, args),
    new Promise((_, reject) => setTimeout(() => reject(new Error(`${name} gave no answer within ${ms} ms for ${JSON.stringify(args).slice(0, 300)}`)), ms)),
  ]);
}

describe('fuzzing every tool input', function () {
  this.timeout(300_000);
  let fixtures;
  let server;
  let tabId;
  let tools;
  before(async function () {
    fixtures = await startFixtureServer();
    server = await startServer({ args: ['--isolated', '--caps', 'storage,script', '--timeout-action', '3000', '--timeout-navigation', '5000'] });
    tabId = await firstTab(server);
    await server.ok('navigate', { tabId, url: fixtures.url('/index.html') });
    ({ tools } = await server.client.listTools());
  });
  after(async function () {
    await server?.close();
    await fixtures?.close();
  });

  it('answers every generated call with a coded error or a result, and keeps serving', async function () {
    const tally = { results: 0, errors: 0, invalid: 0 };
    for (const tool of tools) {
      const properties = Object.entries(tool.inputSchema.properties ?? {});
      // Plausible values most of the time, so calls get past validation and reach the browser too.
      const plausible = (key, schema) => {
        if (key === 'tabId') return fc.constant(tabId);
        if (key === 'url') return fc.constantFrom(fixtures.url('/index.html'), fixtures.url('/second.html'), 'back', 'forward', '127.0.0.1:1/closed');
        if (key === 'ref' || key === 'ref_id') return fc.constantFrom('ref_1', 'ref_2', 'ref_5', 'ref_99999');
        if (schema.enum) return fc.constantFrom(...schema.enum);
        if (schema.type === 'boolean') return fc.boolean();
        if (schema.type === 'integer' || schema.type === 'number') return fc.integer({ min: 0, max: 1300 });
        if (schema.type === 'array') return fc.array(fc.integer({ min: 0, max: 900 }), { minLength: 2, maxLength: 4 });
        return fc.string({ maxLength: 30 });
      };
      const arbitraryFor = (key, schema) => fc.oneof({ arbitrary: plausible(key, schema), weight: 5 }, { arbitrary: nasty, weight: 1 });
      const argsArbitrary = fc
        .record(
          {
            ...Object.fromEntries(properties.map(([key, schema]) => [key, arbitraryFor(key, schema)])),
            extraField: nasty,
          },
          { requiredKeys: [] },
        )
        .map((args) => {
          if (tool.inputSchema.required?.includes('tabId') && args.tabId === undefined) args.tabId = tabId;
          if (tool.name !== 'tabs_close_mcp' && Math.abs(JSON.stringify(args).length) % 7 !== 0) delete args.extraField;
          return args;
        });
      await fc.assert(
        fc.asyncProperty(argsArbitrary, async (args) => {
          // Keep real waits short: the property is about answers, not about sleeping.
          if (typeof args.duration === 'number' && args.duration > 0.2) args.duration = 0.1;
          const result = await callWithDeadline(server, tool.name, args, 20_000);
          if (result.isError) {
            const code = result.structuredContent?.error?.code;
            tally[code === 'invalid_arguments' ? 'invalid' : 'errors']++;
            expect(declaredCodes.get(tool.name)?.has(code), `${tool.name} answered with code ${code}, which it does not declare: ${result.content[0]?.text}`).to.equal(true);
            expect(result.content[0].text.startsWith(`${code}: `)).to.equal(true);
          } else {
            tally.results++;
            expect(result.content.length).to.be.greaterThan(0);
          }
        }),
        { numRuns: 20, seed: 20261202, endOnFailure: true },
      );
    }
    // The generated calls reached the browser too, not only the validator.
    expect(tally.results + tally.errors, JSON.stringify(tally)).to.be.greaterThan(10);
    // Still serving, and the tab still works.
    const tabs = await server.ok('tabs_context_mcp', { createIfEmpty: true });
    expect(tabs.structuredContent.tabs.length).to.be.greaterThan(0);
  });
});
