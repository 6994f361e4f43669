// What an agent reads after acting on real third-party apps: no false "NOT delivered", no false occlusion, what a
// coordinate hit, icon buttons it can find, and the tabs and downloads an action or navigate caused.
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { NPM_APPS, missingApps, startRealAppServer } from './helpers/real-apps.mjs';
import { firstTab, startServer } from './helpers/mcp-client.mjs';

describe('real apps: delivery verdicts and what actions report', function () {
  let apps;
  let server;
  let tabId;

  before(async function () {
    expect(missingApps(NPM_APPS), 'run npm ci').to.deep.equal([]);
    apps = await startRealAppServer({
      '/files/report.csv': (req, res) => res.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="report.csv"' }).end('id,total\n1,42\n'),
    });
    server = await startServer();
    tabId = await firstTab(server);
  });
  after(async function () {
    await server?.close();
    await apps?.close();
  });

  const act = (args) => server.call('computer', { tabId, ...args });
  const text = (result) => server.text(result);

  /** Polls `read` (bounded) until `done` holds: apps render and log after load. */
  async function until(read, done, what) {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`${what} did not happen; last: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const pageText = async () => text(await server.ok('get_page_text', { tabId }));
  const readPage = async () => text(await server.ok('read_page', { tabId, max_chars: 20_000 }));

  /** The ref of the first line of read_page matching `pattern`, once one does. */
  async function ref(pattern) {
    const tree = await until(readPage, (t) => pattern.test(t), `a line matching ${pattern}`);
    const line = tree.split('\n').find((l) => pattern.test(l));
    return /\[ref=(ref_\d+)\]/.exec(line)[1];
  }

  async function open(path, ready) {
    await server.ok('navigate', { tabId, url: apps.url(path) });
    await until(readPage, (t) => ready.test(t), `${path} to render`);
  }

  describe('Shoelace', function () {
    it('clicks sl-checkbox by ref twice: delivered both times, checked then unchecked, never occluded by its own check mark', async function () {
      await open('/apps/shoelace.html', /- checkbox/);
      const box = await ref(/- checkbox/);
      const first = await act({ action: 'left_click', ref: box });
      expect(first.isError, text(first)).to.not.equal(true);
      expect(text(first)).to.match(/^left_click ref_\d+: delivered\./);
      expect(first.structuredContent.delivered).to.equal(true);
      const second = await act({ action: 'left_click', ref: box });
      expect(second.isError, text(second)).to.not.equal(true);
      expect(text(second)).to.match(/^left_click ref_\d+: delivered\./);
      expect(await until(pageText, (t) => t.includes('change terms false'), 'the second change')).to.include('change terms true');
    });

    it('sl-switch by ref is delivered', async function () {
      await open('/apps/shoelace.html', /- switch/);
      const result = await act({ action: 'left_click', ref: await ref(/- switch/) });
      expect(text(result)).to.match(/: delivered\./);
      expect(await until(pageText, (t) => t.includes('change news true'), 'the switch change')).to.include('change news true');
    });

    it('names the icon-only sl-icon-button from its sl-tooltip and gives its line a box', async function () {
      await open('/apps/shoelace.html', /- checkbox/);
      const tree = await readPage();
      const line = tree.split('\n').find((l) => l.includes('Add a teammate'));
      expect(line, tree).to.match(/- button "Add a teammate" \[ref=ref_\d+\] \[box=\d+,\d+,\d+x\d+\]/);
      const result = await act({ action: 'left_click', ref: /\[ref=(ref_\d+)\]/.exec(line)[1] });
      expect(text(result)).to.match(/: delivered\./);
      expect(await until(pageText, (t) => t.includes('teammate added'), 'the click')).to.include('teammate added');
    });
  });

  describe('ag-grid-community', function () {
    it('picking "Shipped" in the select cell editor: the editor opens collapsed, its list on a click, the pick is delivered', async function () {
      await open('/apps/grid.html', /gridcell "Pending"/);
      // agSelectCellEditor opens as a collapsed combobox: no option exists in the page until its list is opened.
      const edit = await act({ action: 'double_click', ref: await ref(/gridcell "Pending"/) });
      expect(text(edit)).to.match(/- combobox[^\n]*\[ref=ref_\d+\][^\n]*\[expanded=false\]/);
      // The editor draws its choice as text: that is its value, on its line and not again as a text line under it.
      expect(text(edit)).to.match(/- combobox \[ref=ref_\d+\][^\n]* \[value="Pending"\]$/m);
      expect(text(edit)).to.not.match(/^ *- text: Pending$/m);
      expect(text(edit)).to.not.include('option "Shipped"');
      const combo = /- combobox[^\n]*\[ref=(ref_\d+)\][^\n]*\[expanded=false\]/.exec(text(edit))[1];
      const opened = await act({ action: 'left_click', ref: combo });
      expect(opened.structuredContent.delivered, text(opened)).to.equal(true);
      expect(text(opened)).to.match(/option "Shipped" \[ref=ref_\d+\]/);
      const shipped = /option "Shipped" \[ref=(ref_\d+)\]/.exec(text(opened))[1];
      const result = await act({ action: 'left_click', ref: shipped });
      expect(result.structuredContent.delivered, text(result)).to.equal(true);
      expect(text(result)).to.not.include('NOT delivered');
      // The list went with its wrapper: said once, as closed, not again as removed.
      expect(text(result)).to.include('- closed: listbox');
      expect(text(result)).to.not.include('removed: listbox');
      expect(await until(pageText, (t) => t.includes('order 1 status: Pending -> Shipped'), 'the change')).to.include('Shipped');
    });
  });

  describe('CodeMirror 5', function () {
    it('types by the ref of its hidden textarea through the editor: delivered, and the delta shows the code line, not the typing buffer', async function () {
      await open('/apps/codemirror.html', /- textbox/);
      const result = await act({ action: 'type', ref: await ref(/- textbox/), text: 'let done = true;' });
      expect(result.isError, text(result)).to.not.equal(true);
      expect(text(result)).to.match(/^type ref_\d+: delivered\./);
      // The caret was at the start of the snippet: the typed text goes before its code, as the line shows.
      expect(text(result)).to.match(/^- text: let done = true;const answer = 41;$/m);
      // The hidden textarea only buffers keys; a value on its line would say the editor holds just that.
      expect(text(result)).to.not.include('[value=');
      expect(text(result)).to.not.include('removed');
      expect(await pageText()).to.match(/^let done = true;const answer = 41;$/m);
    });
  });

  describe('Monaco', function () {
    it('types by the ref of its zero-size textarea through the editor box, at the caret; Enter and Delete show the lines, no removals', async function () {
      await open('/apps/monaco.html', /Editor content/);
      await until(pageText, (t) => t.includes('function greet'), 'the editor text');
      // Its textarea is empty until typed into: the lines it draws are what the snapshot gives as its value.
      const tree = server.text(await server.ok('read_page', { tabId }));
      expect(tree, tree).to.match(/- textbox "Editor content" \[ref=ref_\d+\] \[multiline\] \[value="function greet\(name\) \{\\n {2}return \\"Hello, \\" \+ name;\\n\}"\]/);
      const editor = await ref(/textbox "Editor content"/);
      // find places the editor where a person sees it: the box around its sizeless input.
      const [match] = (await server.ok('find', { tabId, query: 'Editor content' })).structuredContent.matches;
      expect(match.visible, JSON.stringify(match)).to.equal(true);
      expect(match.box.width).to.be.above(300);
      const typed = await act({ action: 'type', ref: editor, text: 'abc' });
      expect(typed.isError, text(typed)).to.not.equal(true);
      expect(text(typed)).to.match(/^type ref_\d+: delivered\./);
      expect(text(typed)).to.match(/\[value="abcfunction greet\(name\) \{\\n/);
      const enter = await act({ action: 'key', text: 'Return' });
      expect(text(enter)).to.match(/\[value="abc\\nfunction greet/);
      expect(text(enter)).to.not.include('removed');
      const del = await act({ action: 'key', text: 'Delete Delete Delete' });
      expect(text(del)).to.match(/\[value="abc\\nction greet/);
      expect(text(del)).to.not.include('removed');
      // Monaco reuses its line elements out of DOM order: the text reads them top to bottom. It draws them at its
      // next animation frame, after the textarea's value has changed (under load, after the reply).
      await until(pageText, (t) => /^abc\nction greet\(name\) \{\nreturn "Hello, " \+ name;\n\}$/m.test(t), 'the lines drawn in order');
    });

    it('a click into the editor text by coordinate is delivered', async function () {
      await open('/apps/monaco.html', /Editor content/);
      await until(pageText, (t) => t.includes('function greet'), 'the editor text');
      // The editor's box starts below the heading (body margin 16, h1); its first lines are at y 80-130.
      const result = await act({ action: 'left_click', coordinate: [300, 110] });
      expect(result.structuredContent.delivered, text(result)).to.equal(true);
      expect(text(result)).to.not.include('NOT delivered');
    });
  });

  describe('flow editor (SVG canvas, HTML5 palette, context menu, mask, new-tab link)', function () {
    it('a right click by ref that opens a menu under the pointer is delivered', async function () {
      await open('/apps/flow.html', /application "Canvas"/);
      const result = await act({ action: 'right_click', ref: await ref(/application "Canvas"/) });
      expect(result.structuredContent.delivered, text(result)).to.equal(true);
      expect(await until(pageText, (t) => t.includes('menu opened'), 'the menu')).to.include('menu opened');
    });

    it('a drag from the palette onto the canvas is delivered and makes a node', async function () {
      await open('/apps/flow.html', /application "Canvas"/);
      const task = (await server.ok('find', { tabId, query: 'Task' })).structuredContent.matches[0].box;
      const result = await act({ action: 'left_click_drag', start_coordinate: [task.x + 20, task.y + 10], coordinate: [600, 300] });
      expect(result.structuredContent.delivered, text(result)).to.equal(true);
      expect(await until(pageText, (t) => t.includes('node task 1'), 'the node')).to.include('node task 1');
    });

    it('a drag that lands on an invisible full-viewport mask says so', async function () {
      await open('/apps/flow.html', /button "Settings"/);
      await act({ action: 'left_click', ref: await ref(/button "Settings"/) });
      const result = await act({ action: 'left_click_drag', start_coordinate: [80, 72], coordinate: [350, 200] });
      expect(text(result)).to.match(/^left_click_drag on generic \(div#mask\) at \(350, 200\) \(an overlay covering 100% of the viewport\)/);
      expect(result.structuredContent.target).to.include({ selector: 'div#mask', overlay: true, covers: 100 });
    });

    it('a click on a target=_blank link reports the new tab, its URL and title, in the group', async function () {
      await open('/apps/flow.html', /link "Help/);
      const result = await act({ action: 'left_click', ref: await ref(/link "Help/) });
      const opened = result.structuredContent.opened_tabs;
      expect(opened, text(result)).to.have.length(1);
      expect(opened[0]).to.include({ url: apps.url('/apps/shoelace.html'), title: 'Shoelace sign-up' });
      expect(text(result)).to.include(`Opened tab ${opened[0].tabId} (joined this group; use tabId ${opened[0].tabId}): Shoelace sign-up — ${apps.url('/apps/shoelace.html')}`);
      const tabs = (await server.ok('tabs_context_mcp', {})).structuredContent.tabs.map((t) => t.tabId);
      expect(tabs).to.include(opened[0].tabId);
      await server.ok('tabs_close_mcp', { tabId: opened[0].tabId });
    });
  });

  it('a navigate that turns into a download says so and where the file is', async function () {
    await open('/apps/flow.html', /application "Canvas"/);
    const result = await server.ok('navigate', { tabId, url: apps.url('/files/report.csv') });
    expect(text(result)).to.match(/^That URL is a download, not a page\. Downloaded report(\(\d+\))?\.csv to \S+/);
    expect(text(result)).to.include(`stays on Flow editor — ${apps.url('/apps/flow.html')}`);
    const [download] = result.structuredContent.downloads;
    expect(download.status).to.equal('complete');
    expect(existsSync(download.path)).to.equal(true);
  });

  describe('failing requests and leaving a guarded page', function () {
    it('reports CORS and WebSocket failures as what they are, not as Uncaught exceptions', async function () {
      const other = apps.url('/').replace('127.0.0.1', 'localhost').replace(/\/$/, '');
      await server.ok('read_console_messages', { tabId, clear: true });
      await server.ok('navigate', { tabId, url: apps.url(`/apps/failures.html?other=${encodeURIComponent(other)}`) });
      const log = await until(
        async () => text(await server.ok('read_console_messages', { tabId, onlyErrors: true })),
        (t) => t.includes('CORS blocked:') && t.includes('WebSocket failed:'),
        'both failures logged',
      );
      expect(log).to.not.include('Uncaught');
      const kinds = (await server.ok('read_console_messages', { tabId, onlyErrors: true })).structuredContent.messages.map((m) => m.kind);
      expect(kinds).to.include.members(['cors', 'websocket']);
    });

    it('names the tab behind a beforeunload dialog and says where accepting it took the tab', async function () {
      await open('/apps/failures.html', /button "Guard leaving"/);
      await act({ action: 'left_click', ref: await ref(/button "Guard leaving"/) });
      const blocked = await server.call('navigate', { tabId, url: apps.url('/apps/flow.html') });
      expect(blocked.structuredContent.error.code).to.equal('dialog_open');
      const listed = text(await server.ok('tabs_context_mcp', {}));
      expect(listed).to.match(new RegExp(`tab ${tabId} \\(active\\): Failing requests — `));
      const accepted = await server.ok('firefox_dialog', { tabId, action: 'accept' });
      expect(text(accepted)).to.include(`Tab ${tabId} is now at Flow editor — ${apps.url('/apps/flow.html')}.`);
      expect(accepted.structuredContent).to.include({ url: apps.url('/apps/flow.html'), title: 'Flow editor' });
    });
  });
});
