import { expect } from 'chai';
import { useBrowser } from './helpers/browser-suite.mjs';

describe('computer: delivery checked into cross-origin frames, late renders, drags, focus', function () {
  let fixtures;
  let server;
  let tabId;
  let frameUrl;
  const ok = (args) => server.ok('computer', { tabId, ...args });
  const act = (args) => server.call('computer', { tabId, ...args });
  const ref = async (selector, frame) => (await server.ok('test_ref_for_selector', { tabId, selector, ...(frame === undefined ? {} : { frame }) })).structuredContent.ref;
  const text = async (selector, frame) => (await server.ok('test_text_of_selector', { tabId, selector, ...(frame === undefined ? {} : { frame }) })).structuredContent.text;
  const load = (path) => server.ok('navigate', { tabId, url: fixtures.url(path) });
  // The frame comes from another site (localhost against 127.0.0.1), so Firefox puts it in another process.
  const loadFrameHost = (extra = '') => load(`/computer/frame-cross.html?src=${encodeURIComponent(frameUrl)}${extra}`);

  const browser = useBrowser({ env: { FIREFOX_USE_TEST_TOOLS: '1' } });
  beforeEach(function () {
    ({ fixtures, server, tabId } = browser);
    frameUrl = fixtures.url('/computer/frame-app.html').replace('127.0.0.1', 'localhost');
  });

  describe('in a cross-origin iframe', function () {
    beforeEach(async function () {
      await loadFrameHost();
      // The frame's document loads after the host's.
      for (let i = 0; i < 40 && (await server.call('test_text_of_selector', { tabId, selector: '#log', frame: 0 })).isError; i++) await new Promise((r) => setTimeout(r, 50));
    });

    it('a click by ref is hit-tested in the frame and in the host, and checked in the frame', async function () {
      const result = await ok({ action: 'left_click', ref: await ref('#go', 0) });
      expect(result.structuredContent.delivered, server.text(result)).to.equal(true);
      expect(result.structuredContent.point).to.deep.equal({ x: 185, y: 190 });
      expect(await text('#log', 0)).to.equal('click go true\n');
    });

    it('a click by coordinate over the frame is checked in the frame', async function () {
      const result = await ok({ action: 'left_click', coordinate: [185, 190] });
      expect(result.structuredContent.delivered, server.text(result)).to.equal(true);
      expect(result.structuredContent.target).to.include({ role: 'button', name: 'Go' });
    });

    it('types into a frame field by ref, and key follows focus into the frame', async function () {
      const typed = await ok({ action: 'type', ref: await ref('#name', 0), text: 'Zoë 東京' });
      expect(typed.structuredContent.delivered, server.text(typed)).to.equal(true);
      const pressed = await ok({ action: 'key', text: 'Backspace' });
      expect(pressed.structuredContent.delivered, server.text(pressed)).to.equal(true);
      expect(pressed.structuredContent.target).to.include({ role: 'textbox', name: 'Frame name' });
      expect(await text('#name', 0)).to.equal('Zoë 東');
    });

    it('a drag inside the frame reports the press and the release delivered', async function () {
      const result = await ok({ action: 'left_click_drag', start_coordinate: [145, 305], coordinate: [355, 305] });
      expect(result.structuredContent.delivered, server.text(result)).to.equal(true);
      expect(await text('#log', 0)).to.match(/^down 40\nup 250\n/);
    });

    it('a drag from the host page into the out-of-process frame says the release did not arrive, as an error', async function () {
      const result = await server.call('computer', { tabId, action: 'left_click_drag', start_coordinate: [50, 50], coordinate: [185, 305] });
      expect(result.isError, server.text(result)).to.equal(true);
      expect(result.structuredContent.error, server.text(result)).to.include({ code: 'target_occluded', delivered: false });
      expect(server.text(result), server.text(result)).to.match(/NOT delivered.*the release saw nothing/);
    });

    it('refuses a frame target covered by the host page, dispatching nothing', async function () {
      await loadFrameHost('&covered=1');
      for (let i = 0; i < 40 && (await server.call('test_text_of_selector', { tabId, selector: '#log', frame: 0 })).isError; i++) await new Promise((r) => setTimeout(r, 50));
      const result = await act({ action: 'left_click', ref: await ref('#zone', 0) });
      expect(result.isError, server.text(result)).to.equal(true);
      expect(result.structuredContent.error.code).to.equal('target_occluded');
      expect(result.structuredContent.error.covered_by).to.include('div#banner');
      expect(await text('#log', 0)).to.equal('');
    });
  });

  describe('late renders land in the delta', function () {
    beforeEach(async function () {
      await load('/computer/render.html');
    });
    for (const [button, rendered] of [
      ['#micro', 'rendered in a microtask'],
      ['#task', 'rendered in the next task'],
      ['#slices', 'rendered after three slices'],
      ['#timer', 'rendered after a zero timer'],
    ]) {
      it(`${button}: ${rendered}`, async function () {
        const result = await ok({ action: 'left_click', ref: await ref(button) });
        expect(result.structuredContent.delta, server.text(result)).to.include(rendered);
      });
    }
  });

  it('type by ref types nothing when the click does not focus the field, and says so', async function () {
    await load('/computer/render.html');
    await ok({ action: 'left_click', ref: await ref('#nofocus') });
    const result = await ok({ action: 'type', ref: await ref('#field'), text: 'abc' });
    expect(result.structuredContent.ok).to.equal(false);
    expect(server.text(result)).to.include('nothing was typed');
    expect(await text('#field')).to.equal('');
  });

  it('drags report delivery honestly, and an HTML5 drop says the server fired it', async function () {
    await load('/computer/actions.html');
    const drop = await ok({ action: 'left_click_drag', start_coordinate: [100, 370], ref: await ref('#i3') });
    expect(drop.structuredContent.delivered, server.text(drop)).to.equal(true);
    expect(drop.structuredContent.note).to.match(/html5 drop completed \(drop and dragend fired by the server\)/);
    expect(await text('#log')).to.include('order i2,i3,i1');
    const slide = await ok({ action: 'left_click_drag', start_coordinate: [270, 370], coordinate: [470, 370] });
    expect(slide.structuredContent.delivered, server.text(slide)).to.equal(true);
    expect(slide.structuredContent.note).to.equal(undefined);
  });
});
