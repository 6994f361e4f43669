// Issue 36 class 5: a virtual list scrolled (every row recycled or replaced, old refs stale) says what is now in view
// and that the refs of rows that left are stale, for the wheel, keys and scroll_to, on our fixture and ag-grid's rows.
import { expect } from 'chai';
import { refOf, useBrowser } from './helpers/browser-suite.mjs';
import { NPM_APPS, missingApps, startRealAppServer } from './helpers/real-apps.mjs';

/** The contact numbers the reply's text lines show, in order. */
const contacts = (text) => [...text.matchAll(/- text: Contact (\d+) /g)].map((m) => Number(m[1]));

describe('virtual lists: what a scroll brought into view', function () {
  let fixtures;
  let server;
  let tabId;
  const browser = useBrowser();
  beforeEach(function () {
    ({ fixtures, server, tabId } = browser);
  });
  const open = async (query) => (await server.ok('navigate', { tabId, url: fixtures.url(`/delta/virtual-list.html?${query}`) })).structuredContent.snapshot;
  const wheel = (amount = 10) => server.ok('computer', { tabId, action: 'scroll', coordinate: [200, 300], scroll_direction: 'down', scroll_amount: amount });

  it('rows replaced by a 1,000 px wheel scroll: the rows now in view, top first, folded with a count; the old rows\' refs said stale', async function () {
    const before = await open('mode=replace');
    const oldCall = refOf(before, /button "Call"/);
    const reply = await wheel();
    const text = server.text(reply);
    expect(text).not.to.include('No change on the page');
    const shown = contacts(text);
    // 1,000 px of 30 px rows: the view now starts at row 34; five rows are listed in order, the rest counted.
    expect(shown, text).to.have.length(5);
    expect(shown[0], text).to.be.within(33, 35);
    expect(shown, text).to.deep.equal([...shown].sort((a, b) => a - b));
    expect(text).to.match(/^- \(\d+ more listitems added in list "Contacts" \[ref=ref_\d+\]; read_page with ref_id \[ref=ref_\d+\] reads them\)$/m);
    expect(text).to.match(/^- removed: 16 listitems from list "Contacts" \[ref=ref_\d+\] \(their refs are stale\)$/m);
    const stale = await server.call('computer', { tabId, action: 'left_click', ref: oldCall });
    expect(stale.isError).to.equal(true);
    expect(server.text(stale)).to.include('ref_stale');
  });

  it('rows recycled in place (new text in the same elements): the rows now shown, and that the same refs now hold other rows', async function () {
    await open('mode=recycle');
    const text = server.text(await wheel());
    const shown = contacts(text);
    expect(shown, text).to.have.length(5);
    expect(shown[0], text).to.be.within(33, 35);
    expect(text).to.match(/more listitems (now show other content \(same refs\)|added or now showing other content) in list "Contacts"/);
    // Whatever the reply lists for a row ref is what that ref holds now.
    const row = /- listitem \[ref=(ref_\d+)\]\n {2}- text: Contact (\d+) /.exec(text);
    const read = server.text(await server.ok('read_page', { tabId, ref_id: row[1] }));
    expect(read).to.include(`Contact ${row[2]} `);
  });

  it('rows without a role: folded by their kind, and the refs they held said stale', async function () {
    await open('mode=replace&roles=0');
    const text = server.text(await wheel());
    expect(contacts(text), text).to.have.length(5);
    expect(text).to.match(/^- \(\d+ more rows like these \(div\.row\) added; read_page with ref_id \[ref=ref_\d+\] reads them\)$/m);
    expect(text, text).to.match(/^- removed: 16 rows \(div\.row\) and the refs inside them \(their refs are stale\)$/m);
  });

  it('End and PageUp in the focused list, and scroll_to a row its box has clipped, say the rows they brought', async function () {
    await open('mode=replace');
    await server.ok('computer', { tabId, action: 'left_click', coordinate: [300, 200] });
    const end = server.text(await server.ok('computer', { tabId, action: 'key', text: 'End' }));
    expect(contacts(end)[0], end).to.be.within(985, 988);
    expect(end).to.match(/removed: 16 listitems .*\(their refs are stale\)/);
    const up = server.text(await server.ok('computer', { tabId, action: 'key', text: 'PageUp' }));
    expect(contacts(up).length, up).to.be.above(0);
    expect(Math.max(...contacts(up))).to.be.below(985);

    const top = await open('mode=replace');
    // The last row drawn lies below the list's box (in the window, clipped by the box): scroll_to scrolls the box.
    const last = refOf(top, /text: Contact 16 /) ?? /- listitem \[ref=(ref_\d+)\]\n {4}- text: Contact 16 /.exec(top)[1];
    const scrolled = server.text(await server.ok('computer', { tabId, action: 'scroll_to', ref: last }));
    expect(scrolled).to.match(/^scroll_to ref_\d+: listitem is in view/);
    expect(contacts(scrolled).length, scrolled).to.be.above(0);
    expect(Math.min(...contacts(scrolled))).to.be.above(16);
    const click = server.text(await server.ok('computer', { tabId, action: 'left_click', ref: last }));
    expect(click).to.match(/: delivered\./);
  });

  describe('ag-grid', function () {
    let apps;
    before(async function () {
      expect(missingApps(NPM_APPS), 'run npm ci').to.deep.equal([]);
      apps = await startRealAppServer();
    });
    after(async function () {
      await apps?.close();
    });

    it('a wheel scroll of 1,000 px over its rows lists the rows now in view from the top of its box, and the rows that left as stale', async function () {
      const nav = await server.ok('navigate', { tabId, url: apps.url('/apps/grid.html') });
      expect(nav.structuredContent.snapshot).to.match(/row "1 Vandelay 1/);
      const text = server.text(await server.ok('computer', { tabId, action: 'scroll', coordinate: [300, 300], scroll_direction: 'down', scroll_amount: 10 }));
      const rows = [...text.matchAll(/^- row "(\d+) /gm)].map((m) => Number(m[1]));
      expect(rows, text).to.have.length(5);
      // 42 px rows: 1,000 px brings row ~24 to the top of the grid's box (the buffer above it is only counted).
      expect(rows[0], text).to.be.within(21, 26);
      expect(rows).to.deep.equal([...rows].sort((a, b) => a - b));
      expect(text).to.match(/^- \(\d+ more rows added in grid \[ref=ref_\d+\]; read_page with ref_id \[ref=ref_\d+\] reads them\)$/m);
      expect(text).to.match(/^- removed: \d+ rows from grid \[ref=ref_\d+\] \(their refs are stale\)$/m);
    });
  });
});
