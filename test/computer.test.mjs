import { expect } from 'chai';
import sharp from 'sharp';
import { useBrowser } from './helpers/browser-suite.mjs';

describe('computer: trusted input aimed by coordinate or ref', function () {
  let fixtures;
  let server;
  let tabId;
  const env = { FIREFOX_USE_TEST_TOOLS: '1' };
  const act = (args) => server.call('computer', { tabId, ...args });
  const ok = (args) => server.ok('computer', { tabId, ...args });
  const ref = async (selector, frame) => (await server.ok('test_ref_for_selector', { tabId, selector, ...(frame === undefined ? {} : { frame }) })).structuredContent.ref;
  const text = async (selector, frame) => (await server.ok('test_text_of_selector', { tabId, selector, ...(frame === undefined ? {} : { frame }) })).structuredContent.text;
  const log = () => text('#log');
  const load = (path) => server.ok('navigate', { tabId, url: fixtures.url(path) });
  const errorOf = (result) => {
    expect(result.isError, server.text(result)).to.equal(true);
    return result.structuredContent.error;
  };

  const browser = useBrowser({ env, page: '/computer/actions.html' });
  beforeEach(function () {
    ({ fixtures, server, tabId } = browser);
  });

  it('left_click at a coordinate is trusted, reports the target and the title change', async function () {
    const result = await ok({ action: 'left_click', coordinate: [80, 40] });
    expect(result.structuredContent).to.include({ delivered: true, title: 'clicked' });
    expect(result.structuredContent.target).to.include({ role: 'button', name: 'Press me' });
    expect(await log()).to.include('click btn none true');
  });

  it('left_click by ref is guarded and delivered', async function () {
    const r = await ref('#btn');
    const result = await ok({ action: 'left_click', ref: r });
    expect(result.structuredContent.delivered).to.equal(true);
    // The text names only the ref (the agent read its role and name where it took it); structured content has both.
    expect(server.text(result)).to.match(/^left_click ref_\d+: delivered\./);
    expect(result.structuredContent.target).to.include({ role: 'button', name: 'Press me' });
    expect(result.structuredContent.point).to.deep.equal({ x: 80, y: 40 });
  });

  for (const [spelling, seen] of [['shift', 'shift'], ['ctrl', 'ctrl'], ['alt', 'alt'], ['cmd', 'meta'], ['meta', 'meta'], ['win', 'meta'], ['windows', 'meta'], ['ctrl+shift', 'ctrl+shift']]) {
    it(`holds modifiers "${spelling}" during a click`, async function () {
      await ok({ action: 'left_click', coordinate: [80, 40], modifiers: spelling });
      expect(await log()).to.include(`click btn ${seen} true`);
    });
  }

  it('right_click fires contextmenu, double_click fires dblclick, hover moves over', async function () {
    await ok({ action: 'right_click', coordinate: [80, 40] });
    await ok({ action: 'double_click', coordinate: [80, 40] });
    const hover = await ok({ action: 'hover', ref: await ref('#tiny') });
    expect(hover.structuredContent.delivered).to.equal(true);
    const lines = await log();
    expect(lines).to.include('hover tiny true');
    expect(lines).to.include('contextmenu btn none true');
    expect(lines).to.include('dblclick btn none true');
  });

  it('triple_click selects the paragraph', async function () {
    await ok({ action: 'triple_click', ref: await ref('#para') });
    await ok({ action: 'key', text: 'ctrl+c' });
    await ok({ action: 'left_click', ref: await ref('#field') });
    await ok({ action: 'key', text: 'ctrl+v' });
    expect((await text('#field')).trim()).to.equal('First sentence of the paragraph. Second sentence follows here.');
  });

  it('type enters unicode intact, newlines as Enter, after clicking the ref', async function () {
    const sample = 'Grüße, 東京 😀👍🏽👨‍👩‍👧 é';
    const result = await ok({ action: 'type', ref: await ref('#field'), text: sample });
    expect(result.structuredContent.delivered).to.equal(true);
    expect(await text('#field')).to.equal(sample);
    await ok({ action: 'type', ref: await ref('#area'), text: 'line one\nline two' });
    expect(await text('#area')).to.equal('line one\nline two');
    expect(await log()).to.include('keydown "Enter"');
  });

  it('key presses chords and sequences with repeat', async function () {
    await ok({ action: 'type', ref: await ref('#field'), text: 'abcdef' });
    await ok({ action: 'key', text: 'BackSpace', repeat: 2 });
    expect(await text('#field')).to.equal('abcd');
    await ok({ action: 'key', text: 'Home shift+End Delete' });
    expect(await text('#field')).to.equal('');
    await ok({ action: 'key', text: 'shift+a' });
    expect(await log()).to.match(/keydown "A" shift/);
  });

  it('refuses zoom chords with invalid_arguments and presses nothing', async function () {
    for (const chord of ['ctrl+-', 'ctrl++', 'cmd+0', 'ctrl+=', 'meta+plus']) {
      const error = errorOf(await act({ action: 'key', text: chord }));
      expect(error.code).to.equal('invalid_arguments');
      expect(error.message).to.match(/zoom/);
    }
    expect(await log()).to.equal('');
  });

  it('scroll moves the nested scroller under the point, not the page', async function () {
    const result = await ok({ action: 'scroll', coordinate: [100, 240], scroll_direction: 'down', scroll_amount: 2 });
    expect(result.structuredContent.scrolled).to.deep.equal({ x: 0, y: 200 });
    expect(server.text(result)).to.include('div#scroller');
    const page = await ok({ action: 'scroll', coordinate: [1000, 600], scroll_direction: 'down' });
    expect(page.structuredContent.scrolled.y).to.equal(300);
  });

  it('scroll_to brings a far element into view and clicks by ref scroll first', async function () {
    const far = await ref('#far');
    const result = await ok({ action: 'scroll_to', ref: far });
    expect(server.text(result)).to.match(/in view/);
    const click = await ok({ action: 'left_click', ref: far });
    expect(click.structuredContent.delivered).to.equal(true);
    expect(await log()).to.include('click far none true');
  });

  it('drags an HTML5 drag-and-drop list item and a pointer-event slider', async function () {
    const drop = await ok({ action: 'left_click_drag', start_coordinate: [100, 370], ref: await ref('#i3') });
    expect(server.text(drop)).to.match(/HTML5 drag/);
    expect(await log()).to.include('order i2,i3,i1');
    await ok({ action: 'left_click_drag', start_coordinate: [270, 370], coordinate: [470, 370] });
    expect(await log()).to.match(/slider (19\d|20\d)/);
  });

  it('a drag without start_coordinate begins where the pointer last was', async function () {
    await ok({ action: 'hover', coordinate: [270, 370] });
    await ok({ action: 'left_click_drag', coordinate: [370, 370] });
    expect(await log()).to.match(/slider (9\d|10\d)/);
  });

  it('refuses hidden targets with ref_hidden and dispatches nothing', async function () {
    for (const selector of ['#hidden-none', '#hidden-vis', '#zero', '#in-details', '#inert-btn']) {
      const error = errorOf(await act({ action: 'left_click', ref: await ref(selector) }));
      expect(error.code, selector).to.equal('ref_hidden');
    }
    expect(await log()).to.equal('');
  });

  it('refuses an occluded target naming the cover, and a removed one as ref_stale', async function () {
    const error = errorOf(await act({ action: 'left_click', ref: await ref('#covered') }));
    expect(error.code).to.equal('target_occluded');
    expect(error.covered_by).to.include('div#overlay.box.cookie-banner');
    const gone = await ref('#gone');
    await ok({ action: 'left_click', ref: gone });
    const stale = errorOf(await act({ action: 'left_click', ref: gone }));
    expect(stale).to.include({ code: 'ref_stale', reason: 'element_removed' });
    expect(errorOf(await act({ action: 'left_click', ref: 'ref_99999' }))).to.include({ code: 'ref_stale', reason: 'not_in_snapshot' });
    expect(await log()).to.equal('click gone none true\n');
  });

  it('hits an element that moved since its ref was issued, and refs of an old document are other_document', async function () {
    const mover = await ref('#mover');
    await ok({ action: 'left_click', coordinate: [80, 40] });
    const result = await ok({ action: 'left_click', ref: mover });
    expect(result.structuredContent.delivered).to.equal(true);
    expect(result.structuredContent.point).to.deep.equal({ x: 950, y: 275 });
    await load('/computer/actions.html');
    expect(errorOf(await act({ action: 'left_click', ref: mover }))).to.include({ code: 'ref_stale', reason: 'other_document' });
  });

  it('clicks a ref inside an iframe at the right place', async function () {
    await load('/computer/frame-host.html');
    const inner = await ref('#inner', 0);
    const result = await ok({ action: 'left_click', ref: inner });
    expect(result.structuredContent.delivered).to.equal(true);
    expect(result.structuredContent.point).to.deep.equal({ x: 205, y: 230 });
    expect(await text('#log', 0)).to.equal('click 100,75\n');
  });

  it('reports the snapshot delta of what the action changed', async function () {
    const result = await ok({ action: 'left_click', ref: await ref('#gone') });
    expect(result.structuredContent.delta).to.be.a('string').and.to.include('Remove me');
    expect(server.text(result).split('\n').slice(1).join('\n')).to.include(result.structuredContent.delta);
  });

  it('writes the zoomed PNG for inspection', async function () {
    const scaled = await ok({ action: 'zoom', region: [590, 290, 690, 320], scale: 4, save_to_disk: true });
    expect(scaled.structuredContent.savedTo).to.match(/\.png$/);
  });

  it('out_of_viewport for coordinates outside the viewport', async function () {
    expect(errorOf(await act({ action: 'left_click', coordinate: [1280, 10] })).code).to.equal('out_of_viewport');
    expect(errorOf(await act({ action: 'left_click_drag', start_coordinate: [-1, 10], coordinate: [10, 10] })).code).to.equal('out_of_viewport');
    expect(await log()).to.equal('');
  });

  it('zoom returns exactly the region, and a scaled render says so', async function () {
    const plain = await ok({ action: 'zoom', region: [600, 290, 700, 330] });
    const image = plain.content.find((c) => c.type === 'image');
    const meta = await sharp(Buffer.from(image.data, 'base64')).metadata();
    expect([meta.width, meta.height]).to.deep.equal([100, 40]);
    const scaled = await ok({ action: 'zoom', region: [600, 290, 700, 330], scale: 3 });
    const big = await sharp(Buffer.from(scaled.content.find((c) => c.type === 'image').data, 'base64')).metadata();
    expect([big.width, big.height]).to.deep.equal([300, 120]);
    expect(server.text(scaled)).to.match(/device pixel ratio 3/);
    const shot = await ok({ action: 'screenshot' });
    const full = await sharp(Buffer.from(shot.content.find((c) => c.type === 'image').data, 'base64')).metadata();
    expect([full.width, full.height]).to.deep.equal([1280, 800]);
  });

  it('wait waits', async function () {
    const started = Date.now();
    await ok({ action: 'wait', duration: 0.2 });
    expect(Date.now() - started).to.be.at.least(190);
  });

  describe('bad arguments: invalid_arguments naming the field, page untouched', function () {
    const cases = [
      [{ action: 'explode' }, 'action'],
      [{ action: 'left_click' }, 'coordinate'],
      [{ action: 'left_click', coordinate: [10] }, 'coordinate'],
      [{ action: 'left_click', coordinate: ['a', 1] }, 'coordinate'],
      [{ action: 'left_click', coordinate: [80, 40], ref: 'ref_1' }, 'coordinate'],
      [{ action: 'left_click', ref: 'button-1' }, 'ref'],
      [{ action: 'left_click', coordinate: [80, 40], modifiers: 'hyper' }, 'modifiers'],
      [{ action: 'left_click', coordinate: [80, 40], modifiers: 3 }, 'modifiers'],
      [{ action: 'type' }, 'text'],
      [{ action: 'type', text: 5 }, 'text'],
      [{ action: 'key', text: 'NoSuchKey' }, 'text'],
      [{ action: 'key', text: 'Enter', repeat: 0 }, 'repeat'],
      [{ action: 'key', text: 'Enter', repeat: 101 }, 'repeat'],
      [{ action: 'key', text: 'Enter', repeat: 1.5 }, 'repeat'],
      [{ action: 'wait' }, 'duration'],
      [{ action: 'wait', duration: 11 }, 'duration'],
      [{ action: 'wait', duration: -1 }, 'duration'],
      [{ action: 'scroll', coordinate: [10, 10] }, 'scroll_direction'],
      [{ action: 'scroll', coordinate: [10, 10], scroll_direction: 'sideways' }, 'scroll_direction'],
      [{ action: 'scroll', coordinate: [10, 10], scroll_direction: 'down', scroll_amount: 11 }, 'scroll_amount'],
      [{ action: 'scroll', coordinate: [10, 10], scroll_direction: 'down', scroll_amount: 0 }, 'scroll_amount'],
      [{ action: 'zoom' }, 'region'],
      [{ action: 'zoom', region: [10, 10, 5, 20] }, 'region'],
      [{ action: 'zoom', region: [0, 0, 1281, 20] }, 'region'],
      [{ action: 'zoom', region: [0, 0, 10] }, 'region'],
      [{ action: 'zoom', region: [0, 0, 10, 10], scale: 5 }, 'scale'],
      [{ action: 'scroll_to' }, 'ref'],
      [{ action: 'scroll_to', coordinate: [1, 1] }, 'coordinate'],
      [{ action: 'screenshot', save_to_disk: 'yes' }, 'save_to_disk'],
      [{ action: 'left_click_drag', coordinate: [10, 10], start_coordinate: [1, 2, 3] }, 'start_coordinate'],
      [{ action: 'left_click', coordinate: [80, 40], bogus: 1 }, 'bogus'],
      // Issue 15 item 20: a field the action does not read is refused, not ignored.
      [{ action: 'type', text: 'hello', coordinate: [80, 40] }, 'coordinate'],
      [{ action: 'type', text: 'hello', modifiers: 'ctrl' }, 'modifiers'],
      [{ action: 'left_click', coordinate: [80, 40], text: 'hello' }, 'text'],
      [{ action: 'left_click', coordinate: [80, 40], duration: 1 }, 'duration'],
      [{ action: 'hover', coordinate: [80, 40], start_coordinate: [1, 1] }, 'start_coordinate'],
      [{ action: 'key', text: 'Enter', coordinate: [80, 40] }, 'coordinate'],
      [{ action: 'key', text: 'a', modifiers: 'ctrl' }, 'modifiers'],
      [{ action: 'scroll', coordinate: [10, 10], scroll_direction: 'down', text: 'x' }, 'text'],
      [{ action: 'wait', duration: 0, text: 'x' }, 'text'],
      [{ action: 'screenshot', coordinate: [1, 1] }, 'coordinate'],
      [{ action: 'zoom', region: [0, 0, 10, 10], repeat: 2 }, 'repeat'],
      [{ action: 'scroll_to', ref: 'ref_1', scroll_amount: 3 }, 'scroll_amount'],
    ];
    for (const [args, field] of cases) {
      it(`${JSON.stringify(args)} → ${field}`, async function () {
        const error = errorOf(await act(args));
        expect(error.code).to.equal('invalid_arguments');
        expect(error.field).to.equal(field);
        expect(error).to.not.have.property('fields');
        expect(error.message).to.include(field);
        expect(await log()).to.equal('');
      });
    }
  });
});
