import { expect } from 'chai';
import sharp from 'sharp';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { startServer, firstTab } from './helpers/mcp-client.mjs';

describe('foundation: MCP over stdio with an owned Firefox', function () {
  let fixtures;
  let server;
  before(async function () {
    fixtures = await startFixtureServer();
    server = await startServer();
  });
  after(async function () {
    await server?.close();
    await fixtures?.close();
  });

  it('starts Firefox with the server; a launch that fails reaches the first call as its coded error', async function () {
    // /bin/false exits at once: the launch begun before any call fails, and the first call is told why.
    const broken = await startServer({ args: ['--isolated', '--firefox', '/bin/false'] });
    try {
      const result = await broken.call('tabs_context_mcp', { createIfEmpty: true });
      expect(result.isError, broken.text(result)).to.equal(true);
      expect(result.structuredContent.error.code).to.equal('launch_failed');
      expect(broken.text(result)).to.match(/^launch_failed: Firefox exited before it was ready/);
    } finally {
      await broken.close();
    }
  });

  it('opens the first tab ahead, unlisted until a call asks for one; then that tab is the only one', async function () {
    const fresh = await startServer();
    try {
      // Whether or not the tab opened ahead is ready yet, the group has no tab until one is asked for.
      expect((await fresh.ok('tabs_context_mcp', {})).structuredContent.tabs).to.deep.equal([]);
      const created = (await fresh.ok('tabs_context_mcp', { createIfEmpty: true })).structuredContent.tabs;
      expect(created).to.have.length(1);
      expect(created[0]).to.include({ url: 'about:blank', active: true });
      const listed = (await fresh.ok('tabs_context_mcp', {})).structuredContent.tabs;
      expect(listed.map((tab) => tab.tabId)).to.deep.equal([created[0].tabId]);
      // A second tab is made as usual.
      const second = await fresh.ok('tabs_create_mcp', {});
      expect(second.structuredContent.tabId).to.not.equal(created[0].tabId);
      expect((await fresh.ok('tabs_context_mcp', {})).structuredContent.tabs).to.have.length(2);
    } finally {
      await fresh.close();
    }
  });

  it('lists the tools with their input and output schemas', async function () {
    const { tools } = await server.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).to.include.members(['tabs_context_mcp', 'tabs_create_mcp', 'tabs_close_mcp', 'navigate', 'computer']);
    const computer = tools.find((t) => t.name === 'computer');
    expect(computer.inputSchema.required).to.have.members(['action', 'tabId']);
    expect(Object.keys(computer.inputSchema.properties)).to.include.members([
      'action', 'tabId', 'coordinate', 'ref', 'text', 'region', 'repeat', 'duration', 'modifiers', 'save_to_disk', 'scroll_amount', 'scroll_direction', 'start_coordinate',
    ]);
    for (const tool of tools) expect(tool.outputSchema, tool.name).to.have.property('type', 'object');
  });

  it('opens a tab, navigates to a local page and takes a 1280x800 screenshot: JPEG by default, PNG when asked', async function () {
    const tabId = await firstTab(server);
    const nav = await server.ok('navigate', { tabId, url: fixtures.url('/index.html') });
    expect(nav.structuredContent.url).to.equal(fixtures.url('/index.html'));
    expect(nav.structuredContent.title).to.equal('firefox-use fixture');
    const blueAt = async (image) => {
      const { data } = await sharp(Buffer.from(image.data, 'base64')).extract({ left: 60, top: 200, width: 4, height: 4 }).raw().toBuffer({ resolveWithObject: true });
      return [data[0], data[1], data[2]];
    };
    const shot = await server.ok('computer', { tabId, action: 'screenshot' });
    const jpeg = shot.content.find((c) => c.type === 'image');
    expect(jpeg.mimeType).to.equal('image/jpeg');
    expect(server.text(shot)).to.include('JPEG quality 80');
    const meta = await sharp(Buffer.from(jpeg.data, 'base64')).metadata();
    expect([meta.format, meta.width, meta.height]).to.deep.equal(['jpeg', 1280, 800]);
    // The blue box is where the page put it: the picture shows the page, not a blank (JPEG: within a few levels).
    const lossy = await blueAt(jpeg);
    [0x2b, 0x6c, 0xb0].forEach((want, i) => expect(Math.abs(lossy[i] - want), `channel ${i} of ${lossy}`).to.be.at.most(12));
    const lossless = (await server.ok('computer', { tabId, action: 'screenshot', image_format: 'png' })).content.find((c) => c.type === 'image');
    expect(lossless.mimeType).to.equal('image/png');
    expect(await blueAt(lossless)).to.deep.equal([0x2b, 0x6c, 0xb0]);
  });
});
