// What every tool declares for exported scripts (its script line and its secret argument), checked on the registry
// itself: a new tool that only looks, or takes a secret, cannot pass the tests without saying so. Also the typed
// entry defineTool makes (its parse bound to its handler) and the recorder's ref pinning without any tool's handler.
import { expect } from 'chai';
import { SessionRecorder } from '../../dist/mcp/recorder.js';
import { computerTool } from '../../dist/tools/computer.js';
import { findTool } from '../../dist/tools/find.js';
import { formInputTool } from '../../dist/tools/form-input.js';
import { allTools } from '../../dist/tools/index.js';
import { readPageTool } from '../../dist/tools/read-page.js';
import { scriptDeclarationProblems, secretArgument, writesStep } from '../../dist/tools/tool.js';
import { waitForTool } from '../../dist/tools/wait-for.js';

describe('tool declarations', function () {
  it('every registered tool declares its script line and secret argument, and they agree with readOnlyHint', function () {
    expect(allTools.length).to.be.greaterThan(20);
    const problems = allTools.flatMap((tool) => scriptDeclarationProblems(tool));
    expect(problems).to.deep.equal([]);
    // prepare hands the dispatcher a tab tool's tabId from its parsed arguments.
    expect(allTools.filter((tool) => tool.scope === 'tab' && !Object.hasOwn(tool.input.shape, 'tabId')).map((tool) => tool.name)).to.deep.equal([]);
  });

  it('refuses a tool that declares no script line, no secret argument, or one that disagrees with its hint', function () {
    const { script: _dropped, ...undeclared } = findTool;
    expect(scriptDeclarationProblems(undeclared).join('\n')).to.match(/find declares no script line/);
    expect(scriptDeclarationProblems({ ...formInputTool, script: { step: true } }).join('\n')).to.match(/declares no secret argument/);
    expect(scriptDeclarationProblems({ ...formInputTool, script: { step: true, secret: { arg: 'valu' } } }).join('\n')).to.match(/has no argument "valu"/);
    expect(scriptDeclarationProblems({ ...computerTool, script: { step: true, looksWhen: { action: ['screenshots'] }, secret: null } }).join('\n')).to.match(/"action" does not take/);
    // Only looks, yet a client is told it may change things (or the reverse): one of the two is wrong.
    expect(scriptDeclarationProblems({ ...readPageTool, annotations: { readOnlyHint: false } }).join('\n')).to.match(/readOnlyHint is false/);
    expect(scriptDeclarationProblems({ ...formInputTool, annotations: { readOnlyHint: true } }).join('\n')).to.match(/readOnlyHint is true/);
  });

  it('reads the declarations per call: screenshot and zoom only look, typed text and set values may be secret', function () {
    expect(writesStep(computerTool.script, { action: 'left_click' })).to.equal(true);
    expect(writesStep(computerTool.script, { action: 'screenshot' })).to.equal(false);
    expect(writesStep(computerTool.script, { action: 'zoom' })).to.equal(false);
    expect(writesStep(readPageTool.script, {})).to.equal(false);
    expect(writesStep(waitForTool.script, { text: 'Saved' })).to.equal(true);
    expect(secretArgument(computerTool.script, { action: 'type', text: 'x' })).to.equal('text');
    expect(secretArgument(computerTool.script, { action: 'key', text: 'Enter' })).to.equal(null);
    expect(secretArgument(formInputTool.script, { ref: 'ref_1', value: 'x' })).to.equal('value');
    expect(secretArgument(findTool.script, { query: 'x' })).to.equal(null);
  });

  it('binds the parse to the handler: parsed arguments, the tab, and the refusals before anything runs', function () {
    const { call } = findTool.prepare({ tabId: 3, query: '  sign in ' });
    expect(call).to.include({ scope: 'tab', tabId: 3 });
    expect(call.args.query).to.equal('sign in');
    expect(findTool.prepare({ tabId: 3 }).invalid.issues[0].path).to.deep.equal(['query']);
    expect(() => computerTool.prepare({ tabId: 1, action: 'type', text: 'x', coordinate: [1, 2] })).to.throw(/coordinate: not read by type/);
    const listing = allTools.find((tool) => tool.name === 'tabs_context_mcp').prepare({});
    expect(listing.call.scope).to.equal('session');
  });

  it('pins a ref to the query that picks it out with the locator it is handed, running no tool', async function () {
    const recorder = new SessionRecorder();
    recorder.learn({ content: [{ type: 'text', text: '- button "Delete" [ref=ref_4]\n- generic [ref=ref_5]' }] });
    const asked = [];
    const locate = async (query, max) => {
      asked.push([query, max]);
      return ['ref_2', 'ref_4'];
    };
    expect(await recorder.pin({ ref: 'ref_4' }, locate)).to.deep.equal({ ref: 'ref_4', query: 'button Delete', match: 2, info: { role: 'button', name: 'Delete', password: false } });
    expect(asked).to.deep.equal([['button Delete', 10]]);
    // No name to ask for, a ref never shown, a locator that fails: kept as recorded.
    expect((await recorder.pin({ ref: 'ref_5' }, locate)).query).to.equal(null);
    expect(await recorder.pin({ ref: 'ref_9' }, locate)).to.deep.equal({ ref: 'ref_9', query: null, match: 0 });
    expect((await recorder.pin({ ref: 'ref_4' }, () => Promise.reject(new Error('gone')))).query).to.equal(null);
    expect(await recorder.pin({ coordinate: [1, 2] }, locate)).to.equal(undefined);
  });

  it('records a secret where the tool declares one: typed or set into a password field, never a key name', function () {
    const recorder = new SessionRecorder();
    const reply = (text, structured = {}) => ({ content: [{ type: 'text', text }], structuredContent: structured });
    recorder.record(computerTool, { tabId: 1, action: 'type', text: 's3cret' }, reply('Typed.\n- textbox "Password" [ref=ref_3] [password]'));
    recorder.record(computerTool, { tabId: 1, action: 'key', text: 'Enter' }, reply('Pressed.\n- textbox "Password" [ref=ref_3] [password]'));
    recorder.record(formInputTool, { tabId: 1, ref: 'ref_3', value: 'pin' }, reply('ref_3 (password) is now (password, 3 characters)', { masked: true }));
    expect(recorder.calls.map((call) => call.secretField)).to.deep.equal(['Password', undefined, '']);
    const { text, secrets } = recorder.export();
    expect(secrets).to.deep.equal(['FIREFOX_USE_SECRET_1', 'FIREFOX_USE_SECRET_2']);
    expect(text).not.to.include('s3cret').and.not.to.include('"pin"');
    expect(text).to.include('"text":"Enter"');
  });
});
