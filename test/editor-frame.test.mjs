// Issue 36 classes 7 and 8: a rich-text editor in an iframe (click delivered, the editable body a field with a ref), rows and cells named by an attribute (a month calendar).
import { expect } from 'chai';
import { refOf, useBrowser } from './helpers/browser-suite.mjs';


describe('an editor in an iframe', function () {
  let fixtures;
  let server;
  let tabId;
  const browser = useBrowser();
  beforeEach(function () {
    ({ fixtures, server, tabId } = browser);
  });

  it('a click by ref on the iframe is delivered, and the editable body has a ref that typing reaches', async function () {
    const nav = await server.ok('navigate', { tabId, url: fixtures.url('/delta/editor-frame.html') });
    const snapshot = nav.structuredContent.snapshot;
    const frame = refOf(snapshot, /iframe "Rich Text Area"/);
    const body = refOf(snapshot, /textbox "Rich Text Area"/);
    expect(body, snapshot).to.match(/^ref_\d+$/);
    const click = await server.call('computer', { tabId, action: 'left_click', ref: frame });
    expect(click.isError ?? false, click.content[0].text).to.equal(false);
    expect(click.content[0].text).to.match(/delivered/);
    expect(click.content[0].text).not.to.match(/NOT/);
    expect(click.structuredContent.delta).to.include('Editing');
    const typed = await server.ok('computer', { tabId, action: 'type', ref: body, text: ' again' });
    expect(typed.content[0].text).not.to.match(/nothing was typed/);
    const after = (await server.ok('read_page', { tabId, ref_id: frame })).structuredContent.snapshot;
    expect(after).to.match(/Hello world again/);
  });

  it('lists a month calendar\'s cells and events under rows named "Week 50" (issue 36 class 8)', async function () {
    const snapshot = (await server.ok('navigate', { tabId, url: fixtures.url('/delta/month.html') })).structuredContent.snapshot;
    expect(snapshot).to.match(/- row "Week 50" \[ref=ref_\d+\]\n\s+- cell "December 7, 2026"/);
    expect(snapshot).to.match(/- cell "December 11, 2026" \[ref=ref_\d+\]\n(\s+- text: 11\n)?\s+- text: .*Team Standup/);
    expect(snapshot).to.match(/- gridcell "December 17, 2026" [^\n]*\n[\s\S]*button "Release"/);
    // A table row named by its content still lists its cells the way it did.
    expect(snapshot).to.include('Pro');
  });
});
