// A click or key that only scrolls the page is not "no change": the reply says how far the page moved and, for a
// fragment link, which section it went to. Firefox scrolls for Home, End and the page keys after the key events
// have returned, so the read-back waits for that scroll (bounded) instead of answering before it.
import { expect } from 'chai';
import { useBrowser } from './helpers/browser-suite.mjs';

const filler = (n) => Array.from({ length: n }, (_, i) => `<p>Paragraph ${i} of a long document, long enough to scroll.</p>`).join('');
const html = (body) => (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);

describe('replies of actions that scroll the page', function () {
  this.timeout(60_000);
  const browser = useBrowser({
    routes: {
      // As Sphinx writes it: a contents link, and an empty anchor span before the section's heading.
      '/doc': html(
        `<title>doc</title><a href="#cli">Command line</a>${filler(120)}<section id="command-line"><span id="cli"></span><h2>Command line interface</h2>` +
          `<p>Options.</p></section>${filler(40)}`,
      ),
    },
  });

  it('a fragment link names the heading it scrolled to instead of "No change on the page"', async function () {
    const { server, fixtures, tabId } = browser;
    await server.ok('navigate', { tabId, url: fixtures.url('/doc') });
    const page = server.text(await server.ok('find', { tabId, query: 'link Command line' }));
    const ref = /link "Command line" \[ref=(ref_\d+)\]/.exec(page)[1];
    const reply = await server.ok('computer', { tabId, action: 'left_click', ref });
    const text = server.text(reply);
    expect(text).to.match(/URL now .*#cli/).and.match(/The page scrolled down \d+ px, to heading "Command line interface" \(h2\); nothing else changed\./);
    expect(text).to.not.include('No change on the page');
    expect(reply.structuredContent.page_scrolled.dy).to.be.above(1000);
  });

  it('End, Home and PageDown say how far the page moved; End at the end says nothing changed', async function () {
    const { server, fixtures, tabId } = browser;
    await server.ok('navigate', { tabId, url: fixtures.url('/doc') });
    const key = async (text) => server.text(await server.ok('computer', { tabId, action: 'key', text }));
    expect(await key('End')).to.match(/The page scrolled down \d+ px; nothing else changed\./);
    expect(await key('End')).to.include('No change on the page.');
    expect(await key('Home')).to.match(/The page scrolled up \d+ px; nothing else changed\./);
    expect(await key('PageDown')).to.match(/The page scrolled down \d+ px/);
  });

});
