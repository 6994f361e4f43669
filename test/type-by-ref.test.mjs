// computer type with a ref means "type into this field": its text is appended, never spliced in where the click
// happened to land; a field that already has focus is typed into at its caret (or over its selection), unclicked.
import { expect } from 'chai';
import { useBrowser } from './helpers/browser-suite.mjs';

const LONG = 'the quick brown fox jumps over the lazy dog, again and again and again';
const PAGE = `<!doctype html><meta charset=utf-8><title>fields</title>
<input id=long aria-label=Long style="width:200px" value="${LONG}">
<input id=email type=email aria-label=Email style="width:300px" value="ann@example.com">
<textarea id=notes aria-label=Notes rows=4 cols=30>first line
second line</textarea>
<button id=other>Other</button>`;

describe('computer type by ref: appends to the field, or types at the caret of a focused one', function () {
  let server;
  let tabId;
  const browser = useBrowser({ env: { FIREFOX_USE_TEST_TOOLS: '1' }, routes: { '/fields': (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE) }, page: '/fields' });
  const ref = async (selector) => (await server.ok('test_ref_for_selector', { tabId, selector })).structuredContent.ref;
  const value = async (selector) => (await server.ok('test_text_of_selector', { tabId, selector })).structuredContent.text;
  const type = (selector, text, extra = {}) => ref(selector).then((r) => server.ok('computer', { tabId, action: 'type', ref: r, text, ...extra }));
  beforeEach(function () {
    ({ server, tabId } = browser);
  });

  it('appends to a text field whose text runs past the point its click lands on', async function () {
    const result = await type('#long', ' END');
    expect(result.structuredContent.delivered, server.text(result)).to.equal(true);
    expect(await value('#long')).to.equal(`${LONG} END`);
    expect(server.text(result)).to.include(`${LONG} END`);
  });

  it('appends to an email field (no selection API there) and to a textarea', async function () {
    await type('#email', '.uk');
    expect(await value('#email')).to.equal('ann@example.com.uk');
    await type('#notes', ' end');
    expect(await value('#notes')).to.equal('first line\nsecond line end');
  });

  it('says what part of a field a key selected: shift+Home in a textarea selects the start of its line', async function () {
    await type('#notes', ' more');
    const result = await server.ok('computer', { tabId, action: 'key', text: 'shift+Home' });
    expect(server.text(result)).to.match(/- textbox "Notes" \[ref=ref_\d+\] \[multiline\] \[value="first line\\nsecond line more"\] \[selected="second line more"\]/);
  });

  it('pasting by ref appends too', async function () {
    await type('#long', '!', { paste: true });
    expect(await value('#long')).to.equal(`${LONG}!`);
  });

  it('types over the selection of a focused field: triple_click, then type by ref replaces the text', async function () {
    const selected = await server.ok('computer', { tabId, action: 'triple_click', ref: await ref('#long') });
    // The reply says the next keys will replace the text, which the value alone does not.
    expect(server.text(selected)).to.match(/- textbox "Long" \[ref=ref_\d+\] \[value="the quick[^"]*"\] \[selected=all\]/);
    const result = await type('#long', 'replaced');
    expect(server.text(result)).to.not.include('[selected');
    expect(await value('#long')).to.equal('replaced');
    expect(server.text(result)).to.include('It had focus: typed at its caret, no click.');
  });

  it('a focused field keeps its caret: Home, then type by ref inserts at the start', async function () {
    await type('#long', ' tail');
    await server.ok('computer', { tabId, action: 'key', text: 'Home' });
    await type('#long', 'head ');
    expect(await value('#long')).to.equal(`head ${LONG} tail`);
  });

  it('a field that lost focus to another element is clicked again and appended to', async function () {
    await type('#long', ' one');
    await server.ok('computer', { tabId, action: 'left_click', ref: await ref('#other') });
    const result = await type('#long', ' two');
    expect(server.text(result)).to.not.include('It had focus');
    expect(await value('#long')).to.equal(`${LONG} one two`);
  });
});
