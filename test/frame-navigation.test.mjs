// Issue 36 class 6: a cross-origin frame that navigates (a search inside an embedded widget) is said as the frame's
// move, never as the tab leaving its page.
import { expect } from 'chai';
import { refOf, useBrowser } from './helpers/browser-suite.mjs';

const widget = '<!doctype html><title>Widget</title><form action="/results"><input name="q" aria-label="Search the widget"><button>Go</button></form>';
const results = (req, res, url) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title></title><p>Results for ${url.searchParams.get('q')}</p>`);

describe('a frame that navigates', function () {
  const host = (req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Host page</title><h1>Host</h1><iframe title="Widget" src="${browser.other.url('/widget')}" style="width:500px;height:200px"></iframe>`);
  // The widget and its results are served by the other origin.
  const browser = useBrowser({ routes: { '/host': host }, otherOrigin: { '/widget': (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(widget), '/results': results } });

  it('a search typed and sent inside a cross-origin frame: the frame moved, the tab did not', async function () {
    const { server, tabId, fixtures } = browser;
    const nav = await server.ok('navigate', { tabId, url: fixtures.url('/host') });
    const box = refOf(nav.structuredContent.snapshot, /textbox "Search the widget"/);
    expect(box, nav.structuredContent.snapshot).to.match(/^ref_\d+$/);
    await server.ok('computer', { tabId, action: 'type', ref: box, text: 'kittens' });
    const sent = await server.ok('computer', { tabId, action: 'key', text: 'Enter' });
    const text = server.text(sent);
    expect(text).not.to.match(/^URL now/m);
    expect(text).not.to.match(/Title now ""/);
    // The reply may be read before the frame's new document arrives (the submission is a task later); when it is
    // after, the move is the frame's.
    if (/results\?q=kittens/.test(text)) expect(text).to.match(/frame acted in is now at http:\/\/127\.0\.0\.1:\d+\/results\?q=kittens \(the tab's page stays\)/);
    expect(sent.structuredContent.url).to.equal(undefined);
    const tabs = (await server.ok('tabs_context_mcp', {})).structuredContent.tabs;
    expect(tabs.find((tab) => tab.tabId === tabId).url).to.equal(fixtures.url('/host'));
  });
});
