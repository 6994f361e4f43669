// A type by ref into the field the last type left focus in sends its keys right behind one page call that checks
// focus and reads them back (src/browser/engine/typing.ts, typeAlongWithCheck). When the check fails in the page, the key
// gate (src/page/key-gate.ts) stops the keys before any listener of the page sees them, and the checked path types
// instead: click, then keys.
import { expect } from 'chai';
import { useBrowser } from './helpers/browser-suite.mjs';
import { waitFor } from './helpers/processes.mjs';

// The page logs every key event its own first listeners see (window, capture), and can move focus or hide the
// field a little after each input.
const PAGE = `<!doctype html><meta charset=utf-8><title>along</title>
<input id=a aria-label=A> <input id=b aria-label=B>
<pre id=log></pre>
<iframe id=pay srcdoc="<input id=card aria-label=Card oninput='parent.document.getElementById(&quot;cardlog&quot;).textContent = this.value'>"></iframe>
<pre id=cardlog></pre>
<script>
  const log = document.getElementById('log');
  for (const type of ['keydown', 'keypress', 'input', 'keyup']) {
    window.addEventListener(type, (e) => { log.textContent += type + '@' + (e.target.id || e.target.localName) + ' '; }, true);
  }
  const mode = location.hash.slice(1);
  a.addEventListener('input', () => {
    if (mode === 'steal') setTimeout(() => b.focus(), 100);
    if (mode === 'hide') setTimeout(() => { a.style.display = 'none'; }, 100);
    if (mode === 'frame') setTimeout(() => document.getElementById('pay').contentDocument.getElementById('card').focus(), 100);
    // A search box that opens its results page as soon as the query has five characters.
    if (mode === 'search' && a.value.length === 5) location.href = '/results?q=' + encodeURIComponent(a.value);
  });
</script>`;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

describe('computer type by ref into the field that kept focus: the keys go out with the focus check', function () {
  let server;
  let tabId;
  const browser = useBrowser({
    env: { FIREFOX_USE_TEST_TOOLS: '1', FIREFOX_USE_TRACE_BIDI: '1' },
    routes: {
      '/along': (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE),
      '/results': (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>results</title><h1>Results</h1>'),
    },
  });
  const ref = async (selector) => (await server.ok('test_ref_for_selector', { tabId, selector })).structuredContent.ref;
  const text = async (selector) => (await server.ok('test_text_of_selector', { tabId, selector })).structuredContent.text;
  const open = (mode) => server.ok('navigate', { tabId, url: browser.fixtures.url(`/along#${mode}`) });
  /** The BiDi commands the server traced since `from` (its stderr offset): name and when each was sent. */
  const traced = (from) =>
    server.stderr
      .slice(from)
      .split('\n')
      .map((line) => /^\[bidi\] (\S+)(?: (\w+))? ([\d.]+) ms \(sent at \+([\d.]+) ms\)/.exec(line))
      .filter(Boolean)
      .map(([, method, op, ms, at]) => ({ name: op && method === 'script.callFunction' ? op : method, ms: Number(ms), at: Number(at) }));
  /**
   * Opens the page in `mode`, types `first` into A, lets the page do what its mode does (300 ms, no call of ours in
   * between), then types `second` into A; the second call's result and the BiDi commands it sent.
   */
  async function typeTwice(mode, first, second) {
    await open(mode);
    const refA = await ref('#a');
    await server.ok('computer', { tabId, action: 'type', ref: refA, text: first });
    await sleep(300);
    const from = server.stderr.length;
    const result = await server.call('computer', { tabId, action: 'type', ref: refA, text: second });
    await sleep(50);
    return { result, sent: traced(from) };
  }
  beforeEach(function () {
    ({ server, tabId } = browser);
  });

  it('sends the second text with its focus check, and types it where the first went', async function () {
    await open('stay');
    const refA = await ref('#a');
    await server.ok('computer', { tabId, action: 'type', ref: refA, text: 'ab' });
    const from = server.stderr.length;
    const second = await server.ok('computer', { tabId, action: 'type', ref: refA, text: 'cd' });
    expect(server.text(second)).to.include('It had focus: typed at its caret, no click.');
    // The reply does not wait for Firefox's answer to the keys, and the trace line comes with that answer: on a
    // loaded machine it can take more than a few ms.
    await waitFor(() => {
      const calls = traced(from);
      const check = calls.find((c) => c.name === 'typeAlong');
      return check !== undefined && calls.some((c) => c.name === 'input.performActions' && c.at >= check.at);
    }, 5_000, 20);
    const sent = traced(from);
    const along = sent.filter((c) => c.name === 'typeAlong');
    const keys = sent.filter((c) => c.name === 'input.performActions');
    // One page call, the check and the read-back, sent before the keys; nothing else went to the page.
    expect(along, JSON.stringify(sent)).to.have.length(1);
    // (The first type's keys may be answered after its reply: what went out since this call began is what counts.)
    expect(sent.filter((c) => c.at >= along[0].at).map((c) => c.name).sort(), JSON.stringify(sent)).to.deep.equal(['input.performActions', 'typeAlong']);
    // The keys went out before the check had answered.
    expect(keys[0].at).to.be.below(along[0].at + along[0].ms);
    expect(await text('#a')).to.equal('abcd');
  });

  it('stops the keys at the gate when the page moved focus away meanwhile, then clicks the field and types', async function () {
    // The page moves focus to B 100 ms after each input.
    const { result, sent } = await typeTwice('steal', 'ab', 'cd');
    expect(result.structuredContent.delivered, server.text(result)).to.equal(true);
    // The gated try (its check found focus on B), then the checked path: prepare, click, focus check, keys.
    expect(sent.filter((c) => c.name === 'typeAlong'), JSON.stringify(sent)).to.have.length(1);
    expect(sent.filter((c) => c.name === 'prepareAction'), JSON.stringify(sent)).to.have.length(1);
    expect(sent.filter((c) => c.name === 'focusCheck')).to.have.length(1);
    expect(await text('#a')).to.equal('abcd');
    expect(await text('#b')).to.equal('');
    // No listener of the page saw a key while focus was on B: every key event it saw was at A, two keys a type.
    const log = await text('#log');
    expect(log).to.not.match(/@b /);
    expect(log.match(/keydown@a/g)).to.have.length(4);
  });

  it('takes focus back from a frame the page moved it into meanwhile, so that no key goes there, then types into the field', async function () {
    const { result, sent } = await typeTwice('frame', 'ab', 'cd');
    expect(result.structuredContent.delivered, server.text(result)).to.equal(true);
    expect(sent.filter((c) => c.name === 'typeAlong')).to.have.length(1);
    expect(sent.filter((c) => c.name === 'prepareAction')).to.have.length(1);
    expect(await text('#a')).to.equal('abcd');
    expect(await text('#cardlog')).to.equal('');
  });

  it('keys that take the page away go out once: the reply shows the page they opened, nothing is typed again', async function () {
    await open('search');
    const refA = await ref('#a');
    await server.ok('computer', { tabId, action: 'type', ref: refA, text: 'ab' });
    // Long enough for the first type's keys to be answered (the trace lists a command when its answer comes), so
    // what the trace shows from here is the second type's. No call in between: it would end the type-along.
    await sleep(300);
    const from = server.stderr.length;
    // The fifth character opens the results page while the rest of the keys are still going out.
    const result = await server.call('computer', { tabId, action: 'type', ref: refA, text: 'cdefg' });
    expect(result.isError, server.text(result)).to.not.equal(true);
    expect(server.text(result)).to.include('Results');
    await sleep(50);
    const sent = traced(from);
    // The keys went once, by the type-along (the checked path would have sent prepareAction), and nothing typed
    // them again; the page call sent with them is never answered when its document goes first.
    const names = sent.map((c) => c.name);
    expect(names.filter((name) => name === 'input.performActions'), JSON.stringify(sent)).to.have.length(1);
    expect(names).to.not.include('prepareAction');
    expect(names).to.not.include('focusCheck');
    // The query is the five characters that reached the field: none typed twice, none lost before the page went.
    const { tabs } = (await server.ok('tabs_context_mcp', {})).structuredContent;
    expect(tabs.find((tab) => tab.tabId === tabId).url).to.match(/\/results\?q=abcde$/);
  });

  it('types nothing when the field was hidden meanwhile: ref_hidden, and no key reached the page', async function () {
    const { result, sent } = await typeTwice('hide', 'a', 'cd');
    expect(result.isError, server.text(result)).to.equal(true);
    expect(server.text(result)).to.match(/ref_hidden/);
    // The keys rode with the check and met the gate; the checked path then refused the hidden field.
    expect(sent.filter((c) => c.name === 'input.performActions')).to.have.length(1);
    expect(await text('#log')).to.equal('keydown@a keypress@a input@a keyup@a ');
  });
});
