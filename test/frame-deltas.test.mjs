// Issue 36 (a click in the top document that changes a frame's document): a toolbar in the page that edits an
// editor's frame (TinyMCE's Bold and Undo) says what changed in the frame, under a line naming the frame; a frame
// out of view is not watched.
import { expect } from 'chai';
import { refOf, useBrowser } from './helpers/browser-suite.mjs';

describe('deltas of same-origin frames changed by an action in their parent', function () {
  let fixtures;
  let server;
  let tabId;
  const browser = useBrowser();
  beforeEach(function () {
    ({ fixtures, server, tabId } = browser);
  });

  it('lists the frame\'s changes under a line naming it, and leaves out a frame scrolled out of view', async function () {
    const page = (await server.ok('navigate', { tabId, url: fixtures.url('/delta/frame-toolbar.html') })).structuredContent.snapshot;
    const click = async (name) => server.text(await server.ok('computer', { tabId, action: 'left_click', ref: refOf(page, new RegExp(`button "${name}"`)) }));
    const bold = await click('Bold');
    expect(bold).to.match(/^- in iframe "Rich Text Area":\n {2}- textbox \[ref=ref_\d+\][^\n]*\[value="Hello world Second line"\]\n {4}- text: Hello world\n {4}- … 1 unchanged sibling$/m);
    expect(bold).not.to.include('No change');
    // The frame's ref is the one read_page gives inside the frame.
    const inFrame = /- in iframe "Rich Text Area":\n {2}- textbox \[ref=(ref_\d+)\]/.exec(bold)[1];
    expect(page).to.include(`[ref=${inFrame}]`);
    const clear = await click('Clear');
    expect(clear).to.match(/^- in iframe "Rich Text Area":\n {2}- textbox \[ref=ref_\d+\][^\n]*\[value="Fresh start"\]\n {4}- text: Fresh start$/m);
    // The far frame lies 3,000 px below: its change is not in view, and it was not watched.
    expect(await click('Add to the far frame')).to.match(/\nNo change on the page\.$/);
  });
});
