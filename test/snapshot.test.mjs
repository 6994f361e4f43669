import { expect } from 'chai';
import { useBrowser } from './helpers/browser-suite.mjs';

const refOf = (snapshot, pattern) => {
  const line = snapshot.split('\n').find((l) => pattern.test(l));
  if (!line) throw new Error(`no line matches ${pattern} in:\n${snapshot}`);
  return /\[ref=(ref_\d+)\]/.exec(line)[1];
};

describe('read_page: accessibility-style snapshots with lasting refs', function () {
  let fixtures;
  let other;
  let server;
  let tabId;
  const read = async (args = {}) => (await server.ok('read_page', { tabId, ...args })).structuredContent;
  const go = (path) => server.ok('navigate', { tabId, url: fixtures.url(path) });

  const browser = useBrowser({ otherOrigin: true });
  beforeEach(function () {
    ({ fixtures, other, server, tabId } = browser);
  });

  it('holds a long menu to a share of the budget when the page does not fit, so the content after it is shown', async function () {
    const { snapshot } = (await go('/snapshot/sidebar.html')).structuredContent;
    expect(snapshot).to.match(/- heading "Orders" \[ref=ref_\d+\] \[level=1\]/);
    expect(snapshot).to.match(/- button "Export orders" \[ref=ref_\d+\]/);
    const count = /- \((\d+) more elements in this (?:complementary|navigation); read_page with ref_id \[ref=(ref_\d+)\] lists them\)/.exec(snapshot);
    expect(count, snapshot).to.not.equal(null);
    // A header row of th cells without a thead heads columns.
    expect(snapshot).to.match(/- columnheader "Order" \[ref=ref_\d+\]/);
    const shown = snapshot.match(/link "Menu section number \d+"/g).length;
    expect(shown).to.be.above(3);
    // The ref on the count line reads the menu itself, from its first link on.
    const menu = await read({ ref_id: count[2], max_chars: 20000 });
    expect(menu.snapshot.match(/link "Menu section number \d+"/g)).to.have.length(80);
  });

  it('puts short runs of one kind on one line (day numbers, chart labels), and keeps prose and SVG labels apart', async function () {
    const { snapshot } = (await go('/snapshot/runs.html')).structuredContent;
    expect(snapshot).to.match(/^- text: No changes yet$/m);
    expect(snapshot).to.match(/^- text: Design Build$/m);
    expect(snapshot).to.match(/^- text: December$/m);
    expect(snapshot).to.match(/^- text: 01 02 03 04 05 .* 31$/m);
    expect(snapshot).to.match(/^- text: A paragraph of prose long enough to stand on its own line, as prose does\.$/m);
  });

  it('renders roles, names, states and values in the contract line format', async function () {
    const nav = await go('/snapshot/roles.html');
    // Page landmarks carry no ref (as in the contract's `- main` line); controls and headings do.
    expect(nav.structuredContent.snapshot).to.match(/^- main$/m);
    const { snapshot, truncated } = await read({ filter: 'all' });
    expect(truncated).to.equal(false);
    const lines = snapshot.split('\n');
    expect(lines).to.include('- main');
    expect(snapshot).to.match(/^ {2}- heading "Welcome" \[ref=ref_\d+\] \[level=1\]$/m);
    expect(snapshot).to.match(/^ {4}- textbox "Email" \[ref=ref_\d+\] \[required\] \[value="ann@example\.com"\]$/m);
    expect(snapshot).to.match(/^ {4}- button "Log in" \[ref=ref_\d+\]$/m);
    expect(snapshot).to.match(/- navigation "Primary"$/m);
    expect(snapshot).to.match(/- link "About us" \[ref=ref_\d+\] \[url=\/about\?x=1\]/);
    expect(snapshot).to.match(/- checkbox "Remember me" \[ref=ref_\d+\] \[checked\]/);
    expect(snapshot).to.match(/- radio "Pro" \[ref=ref_\d+\] \[checked\]/);
    expect(snapshot).to.match(/- combobox "Country" \[ref=ref_\d+\] \[value="Japan"\]/);
    expect(snapshot).to.match(/- button "Close" \[ref=ref_\d+\]/);
    expect(snapshot).to.match(/- button "Disabled button" \[ref=ref_\d+\] \[disabled\]/);
    expect(snapshot).to.match(/- button "Toggle" \[ref=ref_\d+\] \[pressed\]/);
    expect(snapshot).to.match(/- switch "Dark mode" \[ref=ref_\d+\]/);
    expect(snapshot).to.match(/- tab "One" \[ref=ref_\d+\] \[selected\]/);
    expect(snapshot).to.match(/- button "Actions" \[ref=ref_\d+\] \[expanded=false\] \[haspopup=menu\]/);
    expect(snapshot).to.match(/- img "A tiny picture" \[ref=ref_\d+\]/);
    expect(snapshot).to.match(/- searchbox "Search the docs" \[ref=ref_\d+\]/);
    expect(snapshot).to.match(/- dialog "Cookie notice" \[ref=ref_\d+\]/);
    expect(snapshot).to.match(/- table "Prices" \[ref=ref_\d+\]/);
    // An unlabelled field still gets a line and a ref.
    expect(snapshot).to.match(/^ {4}- textbox \[ref=ref_\d+\]$/m);
    expect(snapshot).to.include('- text: Plain words in a paragraph with bold text and a');
    // Hidden things are left out; visually hidden (screen reader) text is kept.
    for (const hidden of ['Never shown', 'Invisible button', 'Aria hidden button', 'Hidden details text']) expect(snapshot).not.to.include(hidden);
    expect(snapshot).to.include('Screen reader text');
    // Page text can never pose as a ref.
    expect(snapshot).not.to.include('[ref=ref_1] should');
  });

  it('never shows a password value', async function () {
    await go('/snapshot/roles.html');
    const all = await read({ filter: 'all' });
    expect(all.snapshot).to.match(/- textbox "Password" \[ref=ref_\d+\] \[password\]$/m);
    expect(all.snapshot).not.to.include('hunter2');
    const found = await server.ok('find', { tabId, query: 'hunter2' });
    expect(JSON.stringify(found)).not.to.include('hunter2-secret');
  });

  it('gives the same ref to the same element across snapshots and find', async function () {
    await go('/snapshot/roles.html');
    const first = await read({ filter: 'all' });
    const second = await read();
    const login = refOf(first.snapshot, /button "Log in"/);
    expect(refOf(second.snapshot, /button "Log in"/)).to.equal(login);
    const found = await server.ok('find', { tabId, query: 'log in' });
    expect(found.structuredContent.matches[0]).to.include({ ref: login, role: 'button', name: 'Log in' });
    expect(found.structuredContent.matches[0].box.width).to.be.greaterThan(0);
    const email = await server.ok('find', { tabId, query: 'email' });
    expect(email.structuredContent.matches[0]).to.include({ role: 'textbox', name: 'Email' });
  });

  it('keeps controls and their landmarks with filter "interactive"', async function () {
    await go('/snapshot/roles.html');
    const { snapshot } = await read({ filter: 'interactive' });
    expect(snapshot).to.match(/^- main$/m);
    expect(snapshot).to.match(/^ {4}- button "Log in"/m);
    expect(snapshot).not.to.include('- text:');
    expect(snapshot).not.to.include('heading "Welcome"');
  });

  it('reads open shadow roots and slotted content as part of the page', async function () {
    await go('/snapshot/shadow.html');
    const { snapshot } = await read();
    expect(snapshot).to.match(/- region "Card"$/m);
    expect(snapshot).to.match(/- heading "Slotted title" \[ref=ref_\d+\] \[level=2\]/);
    expect(snapshot).to.match(/- button "Shadow button" \[ref=ref_\d+\]/);
    expect(snapshot).to.match(/- textbox "Shadow field" \[ref=ref_\d+\] \[value="in shadow"\]/);
    expect(snapshot).to.match(/- link "Deep link" \[ref=ref_\d+\]/);
    // Text given to a slot, or in an element without a box of its own, is text of the page like any other.
    expect(snapshot).to.match(/^- text: Text given to a default slot$/m);
    expect(snapshot).to.match(/^ {2}- text: Footnote$/m);
    expect(snapshot).to.match(/^- text: Text of a box-less div$/m);
    // A label that names a control (here by aria-labelledby) is that control's name, not a text line of its own.
    expect(snapshot).to.match(/^- combobox "Plan" \[ref=ref_\d+\] \[expanded=false\] \[value="Free"\]$/m);
    expect(snapshot).to.not.match(/^- text: Plan$/m);
    const slotted = (await server.ok('find', { tabId, query: 'given to a default slot' })).structuredContent.matches[0];
    expect(slotted).to.include({ name: 'Text given to a default slot', visible: true });
    const inner = refOf(snapshot, /button "Shadow button"/);
    const sub = await read({ ref_id: inner });
    expect(sub.snapshot).to.match(/^- button "Shadow button"/);
    const found = await server.ok('find', { tabId, query: 'deep link' });
    expect(found.structuredContent.matches[0]).to.include({ role: 'link', name: 'Deep link' });
    // A closed shadow root is out of the sandbox's reach (docs/snapshot.md says why).
    expect((await read({ filter: 'all' })).snapshot).not.to.include('Closed button');
    expect((await server.ok('find', { tabId, query: 'closed button' })).structuredContent.matches).to.deep.equal([]);
  });

  it('stitches same- and cross-origin frames under their iframe lines, with refs that resolve', async function () {
    await go(`/snapshot/frames.html?other=${encodeURIComponent(other.origin)}`);
    let snapshot = '';
    for (let i = 0; i < 20 && (snapshot.match(/Frame button/g) ?? []).length < 2; i++) {
      snapshot = (await read()).snapshot;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const lines = snapshot.split('\n');
    const same = lines.findIndex((l) => l.startsWith('- iframe "Same origin frame"'));
    const cross = lines.findIndex((l) => l.startsWith('- iframe "Cross origin frame"'));
    expect(same).to.be.greaterThan(-1);
    expect(cross).to.be.greaterThan(same);
    expect(lines[same + 1]).to.match(/^ {2}- button "Frame button" \[ref=ref_\d+\]$/);
    expect(lines[cross + 1]).to.match(/^ {2}- button "Frame button" \[ref=ref_\d+\]$/);
    const crossRef = /\[ref=(ref_\d+)\]/.exec(lines[cross + 1])[1];
    const sub = await read({ ref_id: crossRef });
    expect(sub.snapshot).to.equal(`- button "Frame button" [ref=${crossRef}]`);
    // find reaches into both frames and reports boxes in top-level viewport pixels.
    const found = await server.ok('find', { tabId, query: 'frame button' });
    const matches = found.structuredContent.matches.filter((m) => m.name === 'Frame button');
    expect(matches.map((m) => m.ref)).to.include(crossRef);
    for (const m of matches) expect(m.box.x).to.be.greaterThan(30);
    const boxes = matches.map((m) => m.box.y).sort((a, b) => a - b);
    expect(boxes[1] - boxes[0]).to.be.greaterThan(100);
  });

  it('caps a 2,000-row table at max_chars with a hint that pages through it by ref_id', async function () {
    await go('/snapshot/table.html');
    const visible = await read();
    expect(visible.snapshot.length).to.be.at.most(4000);
    expect(visible.snapshot).to.match(/outside the viewport: \d+ elements above, \d+ below/);
    const all = await read({ filter: 'all' });
    expect(all.truncated).to.equal(true);
    expect(all.snapshot.length).to.be.at.most(4000);
    expect(all.omitted).to.be.greaterThan(500);
    const next = /ref_id "(ref_\d+)"/.exec(all.hint)?.[1];
    expect(next, all.hint).to.be.a('string');
    const lastShown = Math.max(...[...all.snapshot.matchAll(/row "(\d+) Customer/g)].map((m) => Number(m[1])));
    const page2 = await read({ ref_id: next });
    const firstOfPage2 = Number(/row "(\d+) Customer/.exec(page2.snapshot)[1]);
    expect(firstOfPage2).to.be.within(lastShown, lastShown + 1);
    expect(page2.snapshot.length).to.be.at.most(4000);
    expect(page2.truncated).to.equal(true);
    const small = await read({ filter: 'all', max_chars: 500 });
    expect(small.snapshot.length).to.be.at.most(500);
    // The whole reply the model reads (head line, tree, hint) stays within the budget, not only the tree.
    for (const args of [{}, { filter: 'all' }, { filter: 'all', max_chars: 500 }]) {
      const reply = server.text(await server.ok('read_page', { tabId, ...args }));
      expect(reply.length, JSON.stringify(args)).to.be.at.most(args.max_chars ?? 4000);
    }
    const nav = server.text(await server.ok('navigate', { tabId, url: fixtures.url('/snapshot/table.html') }));
    expect(nav.length).to.be.at.most(4000);
    const shallow = await read({ filter: 'all', depth: 0 });
    expect(shallow.snapshot).not.to.match(/^ {2}-/m);
  });

  it('keeps refs of rows a re-render kept and reports removed ones as element_removed', async function () {
    await go('/snapshot/list.html');
    const before = (await read()).snapshot;
    const beta = refOf(before, /button "Beta"/);
    const delta = refOf(before, /button "Delta"/);
    const alpha = refOf(before, /button "Alpha"/);
    await go('/snapshot/list.html#again');
    const after = (await read()).snapshot;
    expect(refOf(after, /button "Beta"/)).to.equal(beta);
    expect(refOf(after, /button "Delta"/)).to.equal(delta);
    expect(after).to.include('button "Epsilon"');
    const stale = await server.call('read_page', { tabId, ref_id: alpha });
    expect(stale.isError).to.equal(true);
    expect(stale.structuredContent.error).to.include({ code: 'ref_stale', reason: 'element_removed' });
  });

  it('makes refs of an earlier document other_document, and refuses refs of other tabs and never-issued refs', async function () {
    await go('/snapshot/list.html');
    const old = refOf((await read()).snapshot, /button "Beta"/);
    await go('/snapshot/roles.html');
    const gone = await server.call('read_page', { tabId, ref_id: old });
    expect(gone.structuredContent.error).to.include({ code: 'ref_stale', reason: 'other_document' });
    const login = refOf((await read()).snapshot, /button "Log in"/);
    const second = (await server.ok('tabs_create_mcp', { url: fixtures.url('/snapshot/roles.html') })).structuredContent;
    const otherTab = second.tabId ?? second.tab?.tabId;
    const foreign = await server.call('read_page', { tabId: otherTab, ref_id: login });
    expect(foreign.structuredContent.error).to.include({ code: 'ref_stale', reason: 'other_document' });
    const never = await server.call('read_page', { tabId, ref_id: 'ref_999999' });
    expect(never.structuredContent.error).to.include({ code: 'ref_stale', reason: 'not_in_snapshot' });
    const bad = await server.call('read_page', { tabId, ref_id: 'e12' });
    expect(bad.structuredContent.error.code).to.equal('invalid_arguments');
  });
});
