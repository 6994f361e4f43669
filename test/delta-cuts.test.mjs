// Issue 36 classes 1, 2, 4: a delta says it was cut only where something was left out; what a style showed or hid (a class on an ancestor, :hover, a pane's fade) is named.
import { expect } from 'chai';
import { refOf, useBrowser } from './helpers/browser-suite.mjs';


describe('delta cuts', function () {
  let fixtures;
  let server;
  let tabId;
  const browser = useBrowser();
  beforeEach(function () {
    ({ fixtures, server, tabId } = browser);
  });

  it('shows a dialog of 1,900 characters whole, with no cut notice, inside a big container', async function () {
    const nav = await server.ok('navigate', { tabId, url: fixtures.url('/delta/cuts.html') });
    const edit = refOf(nav.structuredContent.snapshot, /button "Edit profile"/);
    const click = await server.ok('computer', { tabId, action: 'left_click', ref: edit });
    const { delta } = click.structuredContent;
    expect(delta).to.include('dialog "Profile"');
    for (let i = 1; i <= 30; i++) expect(delta).to.include(`Profile field number ${i}`);
    expect(delta).to.match(/button "Save"/);
    expect(delta).not.to.match(/cut|left out/);
    expect(click.structuredContent.truncated ?? false).to.equal(false);
    // The unchanged links are not listed.
    expect(delta).not.to.include('Unchanged link number');
  });

  it('when a part is cut to leave room for another change, says so without claiming the reply hit its cap, and the named ref reads what was left out', async function () {
    const nav = await server.ok('navigate', { tabId, url: fixtures.url('/delta/cuts.html') });
    const both = refOf(nav.structuredContent.snapshot, /button "Open both"/);
    const click = await server.ok('computer', { tabId, action: 'left_click', ref: both });
    const { delta } = click.structuredContent;
    expect(delta).to.include('Saved a moment ago');
    const notice = delta.split('\n').find((line) => /left out/.test(line));
    expect(notice, delta).to.not.equal(undefined);
    const chars = delta.length;
    if (chars < 3_800) expect(notice).not.to.match(/delta cut at/);
    const ref = /read_page with ref_id \[ref=(ref_\d+)\]/.exec(notice)?.[1];
    expect(ref, notice).to.match(/^ref_\d+$/);
    const shownFields = [...delta.replace(notice, '').matchAll(/Big field number (\d+)/g)].map((m) => Number(m[1]));
    const rest = (await server.ok('read_page', { tabId, ref_id: ref })).structuredContent.snapshot;
    // What the ref reads begins right after the last field the delta showed.
    const firstRead = Number(/Big field number (\d+)/.exec(rest)?.[1]);
    expect(firstRead).to.equal(Math.max(...shownFields) + 1);
  });

  it('lists the items of a menu opened by a class on its parent, and says when it hides again', async function () {
    const nav = await server.ok('navigate', { tabId, url: fixtures.url('/delta/shown-by-style.html') });
    expect(nav.structuredContent.snapshot).not.to.include('Edit item');
    const toggle = refOf(nav.structuredContent.snapshot, /link "Actions"/);
    const opened = (await server.ok('computer', { tabId, action: 'left_click', ref: toggle })).structuredContent.delta;
    for (const item of ['Edit item', 'Copy item', 'Delete item']) expect(opened).to.include(`link "${item}"`);
    expect(opened).not.to.match(/unchanged|restyled/);
    const closed = (await server.ok('computer', { tabId, action: 'left_click', ref: toggle })).structuredContent.delta;
    expect(closed).to.match(/^- hidden: list$/m);
    expect(closed).not.to.include('Edit item" [ref');
  });

  it('lists a button shown by :hover, and a tab panel shown by an attribute on a container', async function () {
    const nav = await server.ok('navigate', { tabId, url: fixtures.url('/delta/shown-by-style.html') });
    const row = refOf((await server.ok('find', { tabId, query: 'Invoice 42' })).content[0].text, /"Invoice 42" \[ref/);
    const hovered = (await server.ok('computer', { tabId, action: 'hover', ref: row })).structuredContent.delta ?? '';
    expect(hovered).to.match(/^ *- button "Archive invoice" \[ref=ref_\d+\]$/m);
    // The pointer leaving the row hides its actions again: said, not "no change".
    const left = (await server.ok('computer', { tabId, action: 'hover', coordinate: [600, 400] })).structuredContent.delta ?? '';
    expect(left).to.match(/- hidden: button "Archive invoice"/);
    const tab = refOf(nav.structuredContent.snapshot, /button "Second tab"/);
    const switched = (await server.ok('computer', { tabId, action: 'left_click', ref: tab })).structuredContent.delta;
    expect(switched).to.include('Second panel text');
    expect(switched).to.include('button "Panel action"');
    expect(switched).to.include('- hidden: text "First panel text"');
  });

  it('form_input says how the page answered (issue 36 class 10), and text set to what it was is no change (class 3)', async function () {
    const nav = await server.ok('navigate', { tabId, url: fixtures.url('/delta/follows.html') });
    const name = refOf(nav.structuredContent.snapshot, /textbox "Name"/);
    const first = server.text(await server.ok('form_input', { tabId, ref: name, value: 'Ada' }));
    expect(first).to.match(/^- heading "Hello, Ada" \[ref=ref_\d+\]/m);
    expect(first).to.match(/^- button "Save" \[ref=ref_\d+\]$/m);
    expect(first).not.to.include('About');
    const again = server.text(await server.ok('form_input', { tabId, ref: name, value: 'Ada' }));
    expect(again.split('\n')).to.have.length(1);
  });
});
