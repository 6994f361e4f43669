// Artifacts an agent asks for: the page as a PDF (--caps pdf) written only inside the output dir, full-page and
// element screenshots, and --device-scale-factor with screenshots whose pixels are the coordinates computer takes.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { startRealAppServer } from './helpers/real-apps.mjs';
import { firstTab, startServer } from './helpers/mcp-client.mjs';

const html = (body) => (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>${body}`);

const TALL = html(`<title>Tall</title><style>body{margin:0}</style>
  <div style="height:2400px;background:linear-gradient(#fff,#ccc)"><h1 style="margin:0">Top of a tall page</h1></div>
  <div role="status" aria-label="Badge" style="position:absolute;top:1800px;left:100px;width:240px;height:60px;background:rgb(0,160,0)"></div>`);

const TARGET = html(`<title>Target</title><style>body{margin:0}</style><p id="dpr">?</p><p id="log">no click yet</p>
  <button id="go" style="position:absolute;left:420px;top:260px;width:90px;height:40px;background:rgb(255,0,0);border:0"></button>
  <script>
    document.getElementById('dpr').textContent = 'devicePixelRatio=' + window.devicePixelRatio;
    document.getElementById('go').addEventListener('click', (e) => (document.getElementById('log').textContent = 'clicked the red button at ' + e.clientX + ',' + e.clientY));
  </script>`);

/** The bounding box of the pixels that are (nearly) this colour in an image. */
async function boxOf(base64, [r, g, b]) {
  const { data, info } = await sharp(Buffer.from(base64, 'base64')).raw().toBuffer({ resolveWithObject: true });
  let box = null;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const at = (y * info.width + x) * info.channels;
      if (Math.abs(data[at] - r) + Math.abs(data[at + 1] - g) + Math.abs(data[at + 2] - b) > 30) continue;
      box = box ? { x0: Math.min(box.x0, x), y0: Math.min(box.y0, y), x1: Math.max(box.x1, x), y1: Math.max(box.y1, y) } : { x0: x, y0: y, x1: x, y1: y };
    }
  }
  return box;
}

const imageOf = (result) => result.content.find((c) => c.type === 'image');

describe('artifacts: PDF, full-page and element screenshots, device scale factor', function () {
  this.timeout(180_000);
  let site;
  before(async function () {
    site = await startRealAppServer({
      '/invoice': html('<title>Invoice 42</title><h1>Invoice 42</h1><p>Total: 99 EUR</p>'),
      '/tall': TALL,
      '/target': TARGET,
    });
  });
  after(async function () {
    await site?.close();
  });

  it('writes a PDF of the page into the output dir only, a whole PDF of the page', async function () {
    const server = await startServer({ args: ['--isolated', '--caps', 'pdf'] });
    try {
      const tabId = await firstTab(server);
      await server.ok('navigate', { tabId, url: site.url('/invoice') });
      const saved = await server.ok('save_pdf', { tabId, filename: 'invoice' });
      const { path, bytes } = saved.structuredContent;
      expect(dirname(path)).to.equal(server.outputDir);
      expect(path.endsWith('invoice.pdf')).to.equal(true);
      const file = readFileSync(path);
      expect(file.subarray(0, 5).toString()).to.equal('%PDF-');
      expect(file.length).to.equal(bytes).and.be.greaterThan(1000);
      expect(server.text(saved)).to.include(path);
      // A name is kept to one segment inside the output dir.
      const outside = await server.ok('save_pdf', { tabId, filename: '../escape' });
      expect(outside.structuredContent.path).to.equal(join(server.outputDir, 'escape.pdf'));
      // That the PDF reads back as the page (in Debian's pdf.js viewer) is checked by test/slow/real-apps.test.mjs.
      // A whole file with text drawn in it: a font, and the end-of-file marker after the cross-reference table.
      expect(file.toString('latin1')).to.include('/Type /Font');
      expect(file.toString('latin1').trimEnd().endsWith('%%EOF')).to.equal(true);
    } finally {
      await server.close();
    }
  });

  it('takes the whole page and one element by ref, the element even where it is scrolled out of view', async function () {
    const server = await startServer({
      // Pixel-exact boxes need the page unscaled: test/image-limits.test.mjs covers the scaling to the default max.
      args: ['--isolated', '--screenshot-format', 'png', '--screenshot-max-size', '4000x4000'],
    });
    try {
      const tabId = await firstTab(server);
      await server.ok('navigate', { tabId, url: site.url('/tall') });
      const viewport = await server.ok('computer', { tabId, action: 'screenshot' });
      expect(viewport.structuredContent).to.include({ width: 1280, height: 800 });

      const whole = await server.ok('computer', { tabId, action: 'screenshot', full_page: true, save_to_disk: true });
      // The document's width: the viewport's less the vertical scrollbar, which the whole page does not include.
      expect(whole.structuredContent.height).to.equal(2400);
      expect(whole.structuredContent.width).to.be.within(1240, 1280);
      const meta = await sharp(Buffer.from(imageOf(whole).data, 'base64')).metadata();
      expect([meta.width, meta.height]).to.deep.equal([whole.structuredContent.width, 2400]);
      expect(dirname(whole.structuredContent.savedTo)).to.equal(server.outputDir);
      expect(server.text(whole)).to.match(/whole page/);
      // The badge sits at y 1800, far below the viewport; the full page shows it there.
      expect(await boxOf(imageOf(whole).data, [0, 160, 0])).to.deep.equal({ x0: 100, y0: 1800, x1: 339, y1: 1859 });

      const found = await server.ok('find', { tabId, query: 'status Badge' });
      const ref = /\[ref=(ref_\d+)\]/.exec(server.text(found))[1];
      const element = await server.ok('computer', { tabId, action: 'screenshot', ref });
      expect(element.structuredContent).to.include({ width: 240, height: 60 });
      expect(await boxOf(imageOf(element).data, [0, 160, 0])).to.deep.equal({ x0: 0, y0: 0, x1: 239, y1: 59 });
      expect(server.text(element)).to.include(ref);

      const both = await server.call('computer', { tabId, action: 'screenshot', ref, full_page: true });
      expect(both.isError).to.equal(true);
      expect(both.structuredContent.error).to.include({ code: 'invalid_arguments', field: 'full_page' });
    } finally {
      await server.close();
    }
  });

  it('--device-scale-factor 2: the page sees it, screenshots stay in CSS pixels, and a click at a point read off one lands there', async function () {
    const server = await startServer({ args: ['--isolated', '--device-scale-factor', '2', '--screenshot-format', 'png'] });
    try {
      const tabId = await firstTab(server);
      await server.ok('navigate', { tabId, url: site.url('/target') });
      expect(server.text(await server.ok('get_page_text', { tabId }))).to.include('devicePixelRatio=2');

      const shot = await server.ok('computer', { tabId, action: 'screenshot' });
      expect(shot.structuredContent).to.include({ width: 1280, height: 800 });
      expect(server.text(shot)).to.match(/device pixel ratio 2/);
      const red = await boxOf(imageOf(shot).data, [255, 0, 0]);
      expect(red.x0).to.be.within(419, 421);
      expect(red.y0).to.be.within(259, 261);
      const point = [Math.round((red.x0 + red.x1) / 2), Math.round((red.y0 + red.y1) / 2)];
      await server.ok('computer', { tabId, action: 'left_click', coordinate: point });
      expect(server.text(await server.ok('get_page_text', { tabId }))).to.include(`clicked the red button at ${point[0]},${point[1]}`);

      // zoom shows the detail: 2 image pixels per CSS pixel by default at this scale.
      const zoom = await server.ok('computer', { tabId, action: 'zoom', region: [400, 250, 520, 310] });
      expect(zoom.structuredContent).to.include({ width: 240, height: 120 });

      // A tab opened later gets the same ratio.
      const second = (await server.ok('tabs_create_mcp', { url: site.url('/target') })).structuredContent.tabId;
      expect(server.text(await server.ok('get_page_text', { tabId: second }))).to.include('devicePixelRatio=2');
    } finally {
      await server.close();
    }
  });
});
