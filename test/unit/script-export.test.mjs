// How recorded calls are written as a run script, without a browser: tabs, refs no query picks out, secrets, and the
// `match:` step key the export uses.
import { expect } from 'chai';
import { parseScript } from '../../dist/cli/script.js';
import { savedValue } from '../../dist/cli/script-runner.js';
import { defaultOptions } from '../../dist/config.js';
import { enabledTools } from '../../dist/mcp/server.js';
import { renderScript } from '../../dist/mcp/script-export.js';
import { allTools } from '../../dist/tools/index.js';

const render = (calls) => renderScript(calls, { droppedCalls: 0, viewport: '1280x800' });
const stepsOf = (text) => text.split('\n').filter((line) => !line.startsWith('#')).join('\n');

describe('script export', function () {
  it('writes a one-tab session without tab ids, leaves looks out and keeps a ref no query picks out', function () {
    const out = render([
      { tool: 'tabs_context_mcp', args: { createIfEmpty: true }, ok: true },
      { tool: 'navigate', args: { tabId: 7, url: 'https://example.com/' }, ok: true, tabId: 7 },
      { tool: 'read_page', args: { tabId: 7 }, ok: true, tabId: 7 },
      { tool: 'computer', args: { tabId: 7, action: 'screenshot' }, ok: true, tabId: 7 },
      { tool: 'computer', args: { tabId: 7, action: 'left_click', ref: 'ref_4' }, ok: true, tabId: 7, pin: { ref: 'ref_4', query: null, match: 0, info: { role: 'generic', name: '', password: false } } },
      { tool: 'computer', args: { tabId: 7, action: 'left_click', coordinate: [10, 20] }, ok: true, tabId: 7 },
    ]);
    expect(stepsOf(out.text)).to.equal(['- navigate: {"url":"https://example.com/"}', '- computer: {"action":"left_click","ref":"ref_4"}', '- computer: {"action":"left_click","coordinate":[10,20]}', ''].join('\n'));
    expect(out.text).to.include('# ref_4 (generic): no find query picked this element out');
    expect(out.left_out).to.deep.equal({ looked: 3, failed: 0 });
    expect(out.warnings).to.have.length(1);
    // What it wrote parses as a script.
    expect(parseScript(out.text, allTools)).to.have.length(3);
  });

  it('names each secret text once, FIREFOX_USE_SECRET_N, and never writes what a failed call typed', function () {
    const out = render([
      { tool: 'form_input', args: { tabId: 1, ref: 'ref_2', value: 's3cret' }, ok: true, tabId: 1, secretField: 'Password' },
      { tool: 'computer', args: { tabId: 1, action: 'type', text: 's3cret' }, ok: true, tabId: 1, secretField: 'Password' },
      { tool: 'computer', args: { tabId: 1, action: 'type', text: 'pin' }, ok: true, tabId: 1, secretField: '' },
      { tool: 'computer', args: { tabId: 1, action: 'type', text: 'typed-then-failed' }, ok: false, tabId: 1, error: 'timeout: no answer' },
    ]);
    expect(out.secrets).to.deep.equal(['FIREFOX_USE_SECRET_1', 'FIREFOX_USE_SECRET_2']);
    expect(out.text).to.include('"value":"${FIREFOX_USE_SECRET_1}"').and.include('"text":"${FIREFOX_USE_SECRET_1}"').and.include('"text":"${FIREFOX_USE_SECRET_2}"');
    expect(out.text).to.include('#   FIREFOX_USE_SECRET_1: typed into the password field "Password"');
    expect(out.text).not.to.include('s3cret').and.not.to.include('typed-then-failed');
    expect(out.text).to.include('"text":"<17 characters>"');
  });

  it('names tabs by the steps that open them and warns about a tab a page opened', function () {
    const out = render([
      { tool: 'navigate', args: { tabId: 1, url: 'https://a.example/' }, ok: true, tabId: 1 },
      { tool: 'tabs_create_mcp', args: { url: 'https://b.example/' }, ok: true, createdTab: 2 },
      { tool: 'computer', args: { tabId: 9, action: 'key', text: 'Escape' }, ok: true, tabId: 9 },
      { tool: 'navigate', args: { tabId: 1, url: 'https://a.example/2' }, ok: true, tabId: 1 },
    ]);
    expect(stepsOf(out.text).split('\n')).to.deep.equal([
      '- tabs_create_mcp: {}',
      '  save: tab1',
      '- navigate: {"url":"https://a.example/"}',
      '- tabs_create_mcp: {"url":"https://b.example/"}',
      '  save: tab2',
      '- computer: {"tabId":9,"action":"key","text":"Escape"}',
      '- navigate: {"tabId":"$tab1","url":"https://a.example/2"}',
      '',
    ]);
    expect(out.warnings[0]).to.match(/tab 9 was opened by a page/);
  });

  it('keeps the Nth match with match:, only beside save:', function () {
    const [step] = parseScript('- find: {query: "Delete button"}\n  save: row\n  match: 2\n', allTools);
    expect(step.match).to.equal(2);
    expect(savedValue({ matches: [{ ref: 'ref_1' }, { ref: 'ref_2' }] }, step.match)).to.equal('ref_2');
    expect(() => parseScript('- find: {query: "x"}\n  match: 2\n', allTools)).to.throw(/match: expected a whole number from 1, with save:/);
  });

  it('lists script_export only with --caps script', function () {
    expect(enabledTools(defaultOptions()).map((tool) => tool.name)).not.to.include('script_export');
    expect(enabledTools({ ...defaultOptions(), caps: ['script'] }).map((tool) => tool.name)).to.include('script_export');
  });
});
