// What counts as a loading indicator when navigate waits for a page to settle (found on simple-datatables, which no
// test here uses): a spinner or bar still shown makes the reply say the page was still changing; a wrapper that kept
// a "loading" class while it shows the content does not, and costs no wait.
import { expect } from 'chai';
import { useBrowser } from './helpers/browser-suite.mjs';

const html = (body) => (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><meta charset="utf-8">${body}`);
const rows = Array.from({ length: 8 }, (_, i) => `<tr><td>Row ${i}</td><td>${i * 7}</td></tr>`).join('');

describe('navigate: loading indicators', function () {
  this.timeout(60_000);
  const browser = useBrowser({
    routes: {
      '/wrapper': html(`<title>wrapper</title><div class="datatable-wrapper datatable-loading"><input aria-label="Search"><table>${rows}</table></div>`),
      '/spinner': html(`<title>spinner</title><p>Your orders</p><div class="loading-spinner" style="width:40px;height:40px;background:#ccc"></div>`),
    },
  });

  it('a wrapper with a loading class that holds a table and a field is no indicator', async function () {
    const { server, fixtures, tabId } = browser;
    const reply = server.text(await server.ok('navigate', { tabId, url: fixtures.url('/wrapper') }));
    expect(reply).to.include('row "Row 7 49"');
    expect(reply).not.to.include('Still changing');
  });

  it('a spinner still shown is one: the reply says the page was still changing', async function () {
    const { server, fixtures, tabId } = browser;
    const reply = server.text(await server.ok('navigate', { tabId, url: fixtures.url('/spinner') }));
    expect(reply).to.match(/Still changing after \d\.\d s \(the page still showed a loading indicator, div\.loading-spinner\)/);
  });
});
