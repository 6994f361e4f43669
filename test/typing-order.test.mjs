// computer type sends several key presses per input tick (src/browser/engine/input/keyboard.ts typeSources): the page
// must still see every key, in the text's order, as trusted events.
import { expect } from 'chai';
import { useBrowser } from './helpers/browser-suite.mjs';

const PAGE = `<!doctype html><meta charset=utf-8><title>keys</title>
<input id=field aria-label=Field><input id=second aria-label=Second><textarea id=area aria-label=Area></textarea>
<pre id=log></pre><pre id=ups></pre>
<script>
  const downs = [], ups = [];
  for (const el of document.querySelectorAll('input, textarea')) {
    el.addEventListener('keydown', (e) => { if (e.isTrusted) downs.push(e.target.id + ':' + e.key); document.getElementById('log').textContent = downs.join('|'); });
    el.addEventListener('keyup', (e) => { if (e.isTrusted) ups.push(e.key); document.getElementById('ups').textContent = String(ups.length); });
  }
</script>`;

describe('computer type: many keys per tick, every key in order', function () {
  let server;
  let tabId;
  const browser = useBrowser({ env: { FIREFOX_USE_TEST_TOOLS: '1' }, routes: { '/keys': (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE) }, page: '/keys' });
  const ref = async (selector) => (await server.ok('test_ref_for_selector', { tabId, selector })).structuredContent.ref;
  const text = async (selector) => (await server.ok('test_text_of_selector', { tabId, selector })).structuredContent.text;
  beforeEach(function () {
    ({ server, tabId } = browser);
  });

  it('types 47 characters with repeats, capitals and punctuation: the page logs each keydown in order, trusted', async function () {
    const sample = 'Hello, World! aaa bbb 1122 ZZ zz ;;; éé 東京 ok.';
    const result = await server.ok('computer', { tabId, action: 'type', ref: await ref('#field'), text: sample });
    expect(result.structuredContent.delivered, server.text(result)).to.equal(true);
    const downs = (await text('#log')).split('|');
    expect(downs).to.deep.equal([...sample].map((c) => `field:${c}`));
    expect(await text('#ups')).to.equal(String([...sample].length));
    expect(await text('#field')).to.equal(sample);
  });

  it('a newline is Enter and a tab moves focus before the keys after it are pressed', async function () {
    await server.ok('computer', { tabId, action: 'type', ref: await ref('#area'), text: 'one\ntwo' });
    await server.call('computer', { tabId, action: 'type', ref: await ref('#field'), text: 'ab\tcd' });
    const downs = (await text('#log')).split('|');
    expect(downs).to.deep.equal(['area:o', 'area:n', 'area:e', 'area:Enter', 'area:t', 'area:w', 'area:o', 'field:a', 'field:b', 'field:Tab', 'second:c', 'second:d']);
  });
});
