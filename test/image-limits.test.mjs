// Images a model accepts (issue 39, item 4): no screenshot or zoom larger than --screenshot-max-size (2000x2000 by
// default; Claude refuses an image over 8000 px on a side and over 2000 px when a request holds many), and a reply
// that says when and how much an image was scaled, so a point read off it maps back to CSS pixels.
import { expect } from 'chai';
import sharp from 'sharp';
import { useBrowser } from './helpers/browser-suite.mjs';

const html = (body) => (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><meta charset="utf-8">${body}`);
const rows = Array.from({ length: 500 }, (_, i) => `<p style="margin:0;height:40px">Line ${i} of a long page</p>`).join('');
const routes = {
  '/long': html(`<title>long</title><body style="margin:0">${rows}<div style="width:5000px;height:300px;background:#36c" role="img" aria-label="wide banner"></div>`),
  '/short': html('<title>short</title><p>One line</p>'),
};

async function imageOf(result) {
  const block = result.content.find((part) => part.type === 'image');
  return sharp(Buffer.from(block.data, 'base64')).metadata();
}

describe('images a model accepts', function () {
  describe('by default, within 2000x2000', function () {
    let server;
    let tabId;
    let fixtures;
    const browser = useBrowser({ routes });
    beforeEach(function () {
      ({ fixtures, server, tabId } = browser);
    });

    it('scales a 20,000 px full-page shot down to fit and says by how much', async function () {
      await server.ok('navigate', { tabId, url: fixtures.url('/long') });
      const shot = await server.ok('computer', { tabId, action: 'screenshot', full_page: true });
      const meta = await imageOf(shot);
      expect(Math.max(meta.width, meta.height)).to.equal(2000);
      expect(shot.structuredContent).to.include({ width: meta.width, height: meta.height });
      expect(shot.structuredContent.imageScale).to.be.within(0.09, 0.1);
      expect(server.text(shot)).to.match(/the 5000x20300 CSS pixels scaled down to 9\.9% to fit 2000x2000 \(--screenshot-max-size\): divide a point read off it by 0\.099 for CSS pixels/);
    });

    it('scales an element wider than the max, and caps a zoom at the largest ratio that fits', async function () {
      await server.ok('navigate', { tabId, url: fixtures.url('/long') });
      const [banner] = (await server.ok('find', { tabId, query: 'wide banner' })).structuredContent.matches;
      const element = await server.ok('computer', { tabId, action: 'screenshot', ref: banner.ref, image_format: 'png' });
      expect(await imageOf(element)).to.include({ width: 2000, height: 120 });
      expect(element.structuredContent.imageScale).to.equal(0.4);
      const zoom = await server.ok('computer', { tabId, action: 'zoom', region: [0, 0, 1280, 800], scale: 4 });
      expect(await imageOf(zoom)).to.include({ width: 2000, height: 1250 });
      expect(server.text(zoom)).to.include('1.563 image pixels per CSS pixel, not the 4 asked for');
    });

    it('leaves a viewport within the max untouched and says nothing of scaling', async function () {
      await server.ok('navigate', { tabId, url: fixtures.url('/short') });
      const shot = await server.ok('computer', { tabId, action: 'screenshot' });
      expect(shot.structuredContent.imageScale).to.equal(undefined);
      expect(server.text(shot)).to.not.include('scaled');
    });

    it('refuses a viewport over twice the max, and says a larger one is scaled', async function () {
      const refused = await server.call('resize_window', { tabId, width: 4100, height: 800 });
      expect(refused.structuredContent.error).to.include({ code: 'invalid_arguments', field: 'width' });
      const wide = await server.ok('resize_window', { tabId, width: 3000, height: 800 });
      expect(server.text(wide)).to.include('scaled down to 67% to fit --screenshot-max-size 2000x2000');
      const shot = await server.ok('computer', { tabId, action: 'screenshot' });
      expect(await imageOf(shot)).to.include({ width: 2000, height: 533 });
    });
  });

  describe('--screenshot-max-size 800x600', function () {
    let server;
    let tabId;
    let fixtures;
    const browser = useBrowser({ routes, args: ['--isolated', '--screenshot-max-size', '800x600'] });
    beforeEach(function () {
      ({ fixtures, server, tabId } = browser);
    });

    it('fits the viewport shot of a 1280x800 viewport within 800x600', async function () {
      await server.ok('navigate', { tabId, url: fixtures.url('/short') });
      const shot = await server.ok('computer', { tabId, action: 'screenshot' });
      expect(await imageOf(shot)).to.include({ width: 800, height: 500 });
      expect(server.text(shot)).to.include('to fit 800x600');
    });
  });
});
