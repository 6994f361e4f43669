import { expect } from 'chai';
import { useBrowser } from './helpers/browser-suite.mjs';

describe('find: scored matches with refs and boxes, across shadow roots and frames', function () {
  let fixtures;
  let other;
  let server;
  let tabId;
  const find = async (query, extra = {}) => (await server.ok('find', { tabId, query, ...extra })).structuredContent.matches;

  const browser = useBrowser({ otherOrigin: true, page: '/snapshot/find.html' });
  beforeEach(function () {
    ({ fixtures, other, server, tabId } = browser);
  });

  it('ranks an exact name above a partial one, and both above plain text', async function () {
    const matches = await find('save');
    expect(matches[0]).to.include({ role: 'button', name: 'Save', visible: true });
    expect(matches[1]).to.include({ role: 'button', name: 'Save draft' });
    const text = matches.findIndex((m) => m.name.startsWith('Save your work'));
    expect(text).to.be.greaterThan(1);
  });

  it('calls a link wrapped over two lines shown, though its box has a gap at the centre', async function () {
    const [match] = await find('the wrapped contents link');
    expect(match).to.include({ role: 'link', name: 'the wrapped contents link', visible: true });
    expect(match.box.height).to.be.above(25);
  });

  it('ranks a shown element above a hidden one of the same name, and says which is hidden', async function () {
    const matches = (await find('export')).filter((m) => m.name === 'Export');
    expect(matches).to.have.length(2);
    expect(matches[0].visible).to.equal(true);
    expect(matches[1].visible).to.equal(false);
    const text = server.text(await server.ok('find', { tabId, query: 'export' }));
    expect(text).to.match(/- button "Export" \[ref=ref_\d+\] \[box=[\d,x-]+\] \[hidden\]/);
  });

  it('ranks a control above static content of the same name, even when the static one comes first', async function () {
    const matches = await find('reports');
    expect(matches[0]).to.include({ role: 'button', name: 'Reports' });
    expect(matches.map((m) => m.role)).to.include('heading');
  });

  it('matches role words, labels, placeholders and visible text', async function () {
    expect((await find('checkbox'))[0]).to.include({ role: 'checkbox', name: 'I agree' });
    expect((await find('link terms'))[0]).to.include({ role: 'link', name: 'Terms of use' });
    expect((await find('email address'))[0]).to.include({ role: 'textbox', name: 'Email address' });
    // The placeholder is matched even though the field is named by aria-label.
    expect((await find('search orders'))[0]).to.include({ role: 'textbox', name: 'Order search' });
    // A search box is a text box to whoever asks; two-word role names are the role.
    expect((await find('site search textbox'))[0]).to.include({ role: 'searchbox', name: 'Site search' });
    expect((await find('browser column header'))[0]).to.include({ role: 'columnheader', name: 'Browser' });
    const text = await find('shipping free');
    expect(text[0].name).to.include('Shipping is free over 50 EUR');
  });

  it('reports bounding boxes in viewport CSS pixels', async function () {
    const [pinned] = await find('pinned button');
    expect(pinned.name).to.equal('Pinned button');
    expect(pinned.box).to.deep.equal({ x: 600, y: 300, width: 140, height: 32 });
  });

  it('finds inside open shadow roots, and the ref clicks the shadow element', async function () {
    const [match] = await find('shadow action');
    expect(match).to.include({ role: 'button', name: 'Shadow action', visible: true });
    expect(match.box.width).to.be.greaterThan(0);
    const click = await server.ok('computer', { tabId, action: 'left_click', ref: match.ref });
    expect(click.structuredContent.delivered).to.equal(true);
    expect(click.structuredContent.delta).to.include('shadow clicked');
  });

  it('finds in same- and cross-origin iframes, with top-level boxes and refs that click in the frame', async function () {
    await server.ok('navigate', { tabId, url: fixtures.url(`/snapshot/frames.html?other=${encodeURIComponent(other.origin)}`) });
    let matches = [];
    for (let i = 0; i < 30 && matches.length < 2; i++) {
      matches = (await find('frame button')).filter((m) => m.name === 'Frame button');
      if (matches.length < 2) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(matches).to.have.length(2);
    // frames.html: each iframe sits 30px + 5px border + 3px padding from the left.
    for (const m of matches) expect(m.box.x).to.equal(10 + 30 + 5 + 3);
    const [first, second] = [...matches].sort((a, b) => a.box.y - b.box.y);
    expect(second.box.y - first.box.y).to.be.greaterThan(150);
    for (const [m, where] of [[first, 'same'], [second, 'cross']]) {
      const click = await server.ok('computer', { tabId, action: 'left_click', ref: m.ref });
      expect(click.structuredContent.delivered).to.equal(true);
      const after = (await server.ok('read_page', { tabId, ref_id: m.ref })).structuredContent.snapshot;
      expect(after).to.equal(`- button "Clicked ?${where}" [ref=${m.ref}] [focused]`);
    }
  });

  it('on a long page scrolled halfway, ranks the matches in view first', async function () {
    await server.ok('navigate', { tabId, url: fixtures.url('/snapshot/table.html') });
    const [row] = await find('open 1000');
    expect(row).to.include({ role: 'button', name: 'Open 1000' });
    await server.ok('computer', { tabId, action: 'scroll_to', ref: row.ref });
    const matches = await find('button', { max_results: 5 });
    expect(matches).to.have.length(5);
    for (const m of matches) {
      expect(m.name).to.match(/^Open \d+$/);
      // In the 1280x800 viewport, at least partly.
      expect(m.box.y + m.box.height).to.be.greaterThan(0);
      expect(m.box.y).to.be.below(800);
    }
  });

  it('answers bad input with invalid_arguments naming the field, touching nothing', async function () {
    for (const [args, field] of [
      [{}, 'query'],
      [{ query: '' }, 'query'],
      [{ query: '   ' }, 'query'],
      [{ query: 'x'.repeat(201) }, 'query'],
      [{ query: 42 }, 'query'],
      [{ query: 'save', max_results: 0 }, 'max_results'],
      [{ query: 'save', max_results: 101 }, 'max_results'],
      [{ query: 'save', max_results: 2.5 }, 'max_results'],
      [{ query: 'save', bogus: true }, 'bogus'],
    ]) {
      const result = await server.call('find', { tabId, ...args });
      expect(result.isError, JSON.stringify(args)).to.equal(true);
      const { error } = result.structuredContent;
      expect(error.code, JSON.stringify(args)).to.equal('invalid_arguments');
      expect(error.field, JSON.stringify(args)).to.equal(field);
      expect(error, JSON.stringify(args)).to.not.have.property('fields');
      expect(error.message, JSON.stringify(args)).to.include(field);
    }
    const none = await server.ok('find', { tabId, query: 'zzqx nothing like this' });
    expect(none.structuredContent.matches).to.deep.equal([]);
    expect(server.text(none)).to.equal('No element matches "zzqx nothing like this".');
  });
});
