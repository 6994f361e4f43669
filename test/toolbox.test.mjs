import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { useBrowser } from './helpers/browser-suite.mjs';
import { startServer } from './helpers/mcp-client.mjs';
import { waitFor } from './helpers/processes.mjs';

const errorOf = (result) => result.structuredContent.error;

describe('toolbox: text, forms, uploads, script, console, network, window, downloads', function () {
  let fixtures;
  let server;
  let tabId;
  const refOf = async (selector) => {
    const result = await server.ok('javascript_tool', { tabId, text: `document.querySelector(${JSON.stringify(selector)})` });
    return result.structuredContent.value.ref;
  };
  const js = async (text) => (await server.ok('javascript_tool', { tabId, text })).structuredContent.value;

  const browser = useBrowser({ args: ['--isolated', '--allow-javascript'], routes: {
      '/download/report.csv': (req, res) => {
        res.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="report.csv"' });
        res.end('a,b\n1,2\n');
      },
      '/files/notes.txt': (req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('Shipping notes: all boxes sent.'),
      '/files/data.json': (req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"rows":[1,2]}'),
    } });
  beforeEach(function () {
    ({ fixtures, server, tabId } = browser);
  });

  describe('get_page_text', function () {
    beforeEach(async function () {
      await server.ok('navigate', { tabId, url: fixtures.url('/toolbox/text.html') });
    });

    it('puts main content first, page chrome after, and leaves hidden text out', async function () {
      await server.ok('navigate', { tabId, url: fixtures.url('/toolbox/text.html') });
      const result = await server.ok('get_page_text', { tabId, max_chars: 100_000 });
      const { text, title, url, truncated } = result.structuredContent;
      expect(title).to.equal('Text fixture');
      expect(url).to.equal(fixtures.url('/toolbox/text.html'));
      expect(truncated).to.equal(false);
      expect(text.startsWith('# Article title\nFirst paragraph of the main content.')).to.equal(true, text.slice(0, 200));
      expect(text).to.include('- Point alpha').and.include('Cell A | Cell B');
      expect(text).not.to.include('Hidden by display none');
      expect(text).not.to.include('Screen reader only');
      expect(text.indexOf('Nav item one')).to.be.greaterThan(text.indexOf('word399'));
      expect(text.indexOf('Footer copyright text')).to.be.greaterThan(text.indexOf('word399'));
    });

    it('truncates at max_chars and continues from nextOffset', async function () {
      const first = (await server.ok('get_page_text', { tabId, max_chars: 500 })).structuredContent;
      expect(first.truncated).to.equal(true);
      expect(first.text.length).to.be.at.most(500);
      const second = (await server.ok('get_page_text', { tabId, max_chars: 100_000, offset: first.nextOffset })).structuredContent;
      expect(second.truncated).to.equal(false);
      expect(first.text.length + second.text.length).to.equal(first.totalChars);
    });

    it('refuses bad max_chars and offset', async function () {
      for (const args of [{ max_chars: 5 }, { max_chars: 'many' }, { offset: -1 }, { extra: 1 }]) {
        const result = await server.call('get_page_text', { tabId, ...args });
        expect(result.isError, JSON.stringify(args)).to.equal(true);
        expect(errorOf(result).code).to.equal('invalid_arguments');
      }
    });
  });

  describe('form_input', function () {
    beforeEach(async function () {
      await server.ok('navigate', { tabId, url: fixtures.url('/toolbox/forms.html') });
    });

    it('sets a text input and fires input and change like a user', async function () {
      const ref = await refOf('#name');
      const result = await server.ok('form_input', { tabId, ref, value: 'Ann' });
      expect(result.structuredContent).to.include({ ref, field: 'input[type=text]', value: 'Ann', valid: true });
      // Named as a snapshot line names it, so the reply reads like the rest.
      expect(server.text(result)).to.match(new RegExp(`^textbox "Name" \\[ref=${ref}\\] is now "Ann"`));
      expect(await js('window.events.filter((e) => e.endsWith(":name"))')).to.deep.equal(['input:name', 'change:name']);
      expect(await js('document.querySelector("#name").value')).to.equal('Ann');
    });

    it('sets a textarea, a checkbox, a radio, a range, a date and a contenteditable', async function () {
      expect((await server.ok('form_input', { tabId, ref: await refOf('#bio'), value: 'Line one\nLine two' })).structuredContent.value).to.equal('Line one\nLine two');
      expect((await server.ok('form_input', { tabId, ref: await refOf('#agree'), value: true })).structuredContent.value).to.equal(true);
      expect(await js('document.querySelector("#agree").checked')).to.equal(true);
      expect((await server.ok('form_input', { tabId, ref: await refOf('#r2'), value: true })).structuredContent.value).to.equal(true);
      expect((await server.ok('form_input', { tabId, ref: await refOf('#vol'), value: 7 })).structuredContent.value).to.equal('7');
      expect((await server.ok('form_input', { tabId, ref: await refOf('#day'), value: '2026-02-03' })).structuredContent.value).to.equal('2026-02-03');
      expect((await server.ok('form_input', { tabId, ref: await refOf('#ed'), value: 'new text' })).structuredContent.value).to.equal('new text');
    });

    it('selects by label or value, several for a multiple select', async function () {
      const color = await refOf('#color');
      expect((await server.ok('form_input', { tabId, ref: color, value: 'Green' })).structuredContent.value).to.equal('Green');
      expect((await server.ok('form_input', { tabId, ref: color, value: 'r' })).structuredContent.value).to.equal('Red');
      const many = await refOf('#many');
      expect((await server.ok('form_input', { tabId, ref: many, value: ['One', 'Three'] })).structuredContent.value).to.deep.equal(['One', 'Three']);
    });

    it('refuses a missing option and names the options', async function () {
      const result = await server.call('form_input', { tabId, ref: await refOf('#color'), value: 'Purple' });
      expect(result.isError).to.equal(true);
      const error = errorOf(result);
      expect(error.code).to.equal('invalid_arguments');
      expect(error.message).to.include('Purple').and.include('Red');
      expect(error.allowed).to.include.members(['Red (value r)', 'Green (value g)']);
      const disabled = await server.call('form_input', { tabId, ref: await refOf('#color'), value: 'Blue' });
      expect(errorOf(disabled).code).to.equal('invalid_arguments');
      expect(errorOf(disabled).message).to.include('disabled');
    });

    it('refuses values a field cannot take, leaving it as it was', async function () {
      // Values to keep: a refused write must leave each of them as it is.
      for (const [selector, value] of [['#name', 'Ann'], ['#r2', true], ['#day', '2026-02-03']]) await server.ok('form_input', { tabId, ref: await refOf(selector), value });
      const cases = [
        ['#agree', 'maybe'],
        ['#vol', 11],
        ['#day', 'tomorrow'],
        ['#name', 'far too long for ten'],
        ['#name', true],
        ['#color', ['Red', 'Green']],
        ['#r2', false],
        ['#ro', 'x'],
        ['#off', 'x'],
        ['#f1', 'x'],
        ['#btn', 'x'],
      ];
      for (const [selector, value] of cases) {
        const result = await server.call('form_input', { tabId, ref: await refOf(selector), value });
        expect(result.isError, `${selector} ${JSON.stringify(value)}`).to.equal(true);
        expect(errorOf(result).code, selector).to.equal('invalid_arguments');
      }
      expect(await js('document.querySelector("#day").value')).to.equal('2026-02-03');
      expect(await js('document.querySelector("#name").value')).to.equal('Ann');
      expect(await js('document.querySelector("#r2").checked')).to.equal(true);
    });

    it('refuses bad arguments: ref shape, unknown ref, value type', async function () {
      for (const args of [{ ref: 'name', value: 'x' }, { ref: 'ref_999999', value: 'x' }, { ref: await refOf('#name'), value: { a: 1 } }, { ref: await refOf('#name') }]) {
        const result = await server.call('form_input', { tabId, ...args });
        expect(result.isError, JSON.stringify(args)).to.equal(true);
        expect(['invalid_arguments', 'ref_stale']).to.include(errorOf(result).code);
      }
    });

    it('answers ref_stale with its reason for a field the page removed, and sets nothing', async function () {
      const ref = await refOf('#name');
      await js('document.querySelector("#name").remove(); 1');
      const result = await server.call('form_input', { tabId, ref, value: 'Ann' });
      expect(result.isError).to.equal(true);
      expect(errorOf(result)).to.include({ code: 'ref_stale', reason: 'element_removed', ref });
      expect(server.text(result)).to.include('Call read_page or find for current refs.');
    });

    it('sets a field inside a frame and says how the page answered there', async function () {
      await js(`document.body.insertAdjacentHTML('beforeend', '<iframe id="f" srcdoc="<label>City <input id=c oninput=&quot;document.querySelector(\\'p\\').textContent=\\'Shipping to \\'+this.value&quot;></label><p>No city yet</p>"></iframe>'); 1`);
      let snapshot = '';
      let ref;
      for (let i = 0; i < 40 && !ref; i++) {
        snapshot = server.text(await server.ok('read_page', { tabId, filter: 'all' }));
        ref = /textbox "City" \[ref=(ref_\d+)\]/.exec(snapshot)?.[1];
        if (!ref) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(ref, snapshot).to.be.a('string');
      const reply = server.text(await server.ok('form_input', { tabId, ref, value: 'Oslo' }));
      expect(reply).to.include('is now "Oslo"');
      expect(reply).to.include('Shipping to Oslo');
    });

    it('never echoes a password', async function () {
      const result = await server.ok('form_input', { tabId, ref: await refOf('#pw'), value: 'hunter2secret' });
      expect(result.structuredContent).to.include({ masked: true, length: 13 });
      expect(JSON.stringify(result)).not.to.include('hunter2secret');
    });
  });

  describe('file_upload', function () {
    let file;
    beforeEach(async function () {
      file = join(server.outputDir, 'upload-me.txt');
      writeFileSync(file, 'hello upload');
      await server.ok('navigate', { tabId, url: fixtures.url('/toolbox/forms.html') });
    });

    it('is ambiguous without a ref when the page has several file inputs', async function () {
      const result = await server.call('file_upload', { tabId, paths: [file] });
      expect(errorOf(result).code).to.equal('ambiguous_target');
      expect(errorOf(result).candidates).to.have.length(2);
    });

    it('sets files by ref, and refuses several on a single input', async function () {
      const result = await server.ok('file_upload', { tabId, ref: await refOf('#f2'), paths: [file, file] });
      expect(result.structuredContent.files).to.deep.equal(['upload-me.txt', 'upload-me.txt']);
      const single = await server.call('file_upload', { tabId, ref: await refOf('#f1'), paths: [file, file] });
      expect(errorOf(single).code).to.equal('invalid_arguments');
      const notFile = await server.call('file_upload', { tabId, ref: await refOf('#name'), paths: [file] });
      expect(errorOf(notFile).code).to.equal('invalid_arguments');
    });

    it('uses the only (hidden) file input without a ref and fires change', async function () {
      await server.ok('navigate', { tabId, url: fixtures.url('/toolbox/upload.html') });
      const result = await server.ok('file_upload', { tabId, paths: [file] });
      expect(result.structuredContent.files).to.deep.equal(['upload-me.txt']);
      expect(await js('window.changes')).to.equal(1);
      expect(await js('document.querySelector("#up").files[0].text()')).to.equal('hello upload');
    });

    it('refuses a missing file, a path outside the roots, a symlink out of them, and a directory', async function () {
      await server.ok('navigate', { tabId, url: fixtures.url('/toolbox/upload.html') });
      const missing = await server.call('file_upload', { tabId, paths: [join(server.outputDir, 'nope.txt')] });
      expect(errorOf(missing)).to.include({ code: 'invalid_arguments', field: 'paths.0' });
      expect(errorOf(missing).message).to.include('nope.txt');
      const outsideDir = mkdtempSync(join(tmpdir(), 'fu-outside-'));
      const outside = join(outsideDir, 'secret.txt');
      writeFileSync(outside, 'secret');
      const refused = await server.call('file_upload', { tabId, paths: [outside] });
      expect(errorOf(refused).code).to.equal('invalid_arguments');
      expect(errorOf(refused).message).to.include('outside the upload roots');
      const link = join(server.outputDir, 'sneaky-link.txt');
      symlinkSync(outside, link);
      const viaLink = await server.call('file_upload', { tabId, paths: [link] });
      expect(errorOf(viaLink).message).to.include('outside the upload roots');
      const directory = await server.call('file_upload', { tabId, paths: [file, server.outputDir] });
      expect(errorOf(directory)).to.include({ code: 'invalid_arguments', field: 'paths.1' });
      // Nothing refused reached the page.
      expect(await js('window.changes')).to.equal(0);
    });
  });

  describe('javascript_tool', function () {
    it('serializes promises, nodes as refs, cycles, bigint and undefined', async function () {
      await server.ok('navigate', { tabId, url: fixtures.url('/toolbox/forms.html') });
      const result = await server.ok('javascript_tool', {
        tabId,
        text: 'const o = { n: 10n, u: undefined, el: document.querySelector("#btn"), p: 1 }; o.self = o; Promise.resolve(o)',
      });
      const { result: rendered, type } = result.structuredContent;
      expect(type).to.equal('object');
      expect(rendered).to.match(/n: 10n/).and.match(/u: undefined/).and.match(/self: \[Circular\]/).and.match(/<button id="btn"> ref_\d+/);
      const awaited = await server.ok('javascript_tool', { tabId, text: 'const r = await fetch("/toolbox/data.json"); return (await r.json()).answer' });
      expect(awaited.structuredContent.value).to.equal(42);
    });

    it('gives a thrown exception as javascript_error with its message', async function () {
      const result = await server.call('javascript_tool', { tabId, text: 'throw new TypeError("no way")' });
      expect(errorOf(result).code).to.equal('javascript_error');
      expect(errorOf(result).message).to.include('no way');
      const syntax = await server.call('javascript_tool', { tabId, text: 'this is not code' });
      expect(errorOf(syntax).code).to.equal('javascript_error');
      // A const declared again in the page's global scope is an error, never `undefined` from a wrapped rerun.
      expect((await server.ok('javascript_tool', { tabId, text: 'const declaredOnce = 7; declaredOnce' })).structuredContent.value).to.equal(7);
      const again = await server.call('javascript_tool', { tabId, text: 'const declaredOnce = 7; declaredOnce' });
      expect(errorOf(again).code).to.equal('javascript_error');
      expect(errorOf(again).message).to.match(/redeclaration/);
      expect((await server.ok('javascript_tool', { tabId, text: 'return 5' })).structuredContent.value).to.equal(5);
      const empty = await server.call('javascript_tool', { tabId, text: '' });
      expect(errorOf(empty).code).to.equal('invalid_arguments');
    });
  });

  describe('read_console_messages and read_network_requests', function () {
    beforeEach(async function () {
      await server.ok('navigate', { tabId, url: fixtures.url('/toolbox/console.html') });
      // The page logs after its fetches and a timer: wait for the last entries, not for a fixed time.
      const settled = await waitFor(async () => {
        const texts = (await server.ok('read_console_messages', { tabId })).structuredContent.messages.map((m) => m.text);
        const requests = (await server.ok('read_network_requests', { tabId, urlPattern: 'json' })).structuredContent.requests;
        return texts.includes('data 42') && texts.some((t) => t.includes('uncaught boom')) && requests.filter((r) => r.status !== undefined).length === 2;
      }, 20_000);
      expect(settled, 'the console fixture logged everything').to.equal(true);
    });

    it('reads console entries and uncaught errors, filtered', async function () {
      const all = (await server.ok('read_console_messages', { tabId })).structuredContent;
      const texts = all.messages.map((m) => m.text);
      expect(texts).to.include('hello from the page').and.include('something broke').and.include('data 42');
      const errors = (await server.ok('read_console_messages', { tabId, onlyErrors: true })).structuredContent.messages;
      expect(errors.every((m) => m.level === 'error')).to.equal(true);
      expect(errors.some((m) => m.kind === 'exception' && m.text.includes('uncaught boom'))).to.equal(true);
      const matched = (await server.ok('read_console_messages', { tabId, pattern: 'WARN' })).structuredContent.messages;
      expect(matched.map((m) => m.text)).to.deep.equal(['a warning']);
      const bad = await server.call('read_console_messages', { tabId, pattern: '(' });
      expect(errorOf(bad)).to.include({ code: 'invalid_arguments', field: 'pattern' });
      const badType = await server.call('read_console_messages', { tabId, onlyErrors: 'yes' });
      expect(errorOf(badType).code).to.equal('invalid_arguments');
    });

    it('reads requests with status, type and size, filtered by urlPattern', async function () {
      const all = (await server.ok('read_network_requests', { tabId })).structuredContent.requests;
      const page = all.find((r) => r.url.endsWith('/toolbox/console.html'));
      expect(page).to.include({ method: 'GET', status: 200, type: 'document' });
      const data = (await server.ok('read_network_requests', { tabId, urlPattern: 'data\\.json' })).structuredContent.requests;
      expect(data[0]).to.include({ status: 200 });
      expect(data[0].size).to.be.greaterThan(0);
      const missing = (await server.ok('read_network_requests', { tabId, urlPattern: 'missing' })).structuredContent.requests;
      expect(missing[0].status).to.equal(404);
      const bad = await server.call('read_network_requests', { tabId, urlPattern: '[' });
      expect(errorOf(bad)).to.include({ code: 'invalid_arguments', field: 'urlPattern' });
      const cleared = await server.ok('read_network_requests', { tabId, clear: true });
      expect(cleared.structuredContent.cleared).to.equal(true);
      expect((await server.ok('read_network_requests', { tabId })).structuredContent.matched).to.equal(0);
    });

    it('drops the oldest console entries past the ring size and says how many', async function () {
      await server.ok('read_console_messages', { tabId, clear: true });
      await js('for (let i = 0; i < 1100; i++) console.log("line " + i)');
      // Every entry has arrived once the last one has.
      const last = await waitFor(async () => (await server.ok('read_console_messages', { tabId, pattern: '^line 1099$' })).structuredContent.messages.length === 1, 20_000);
      expect(last, 'line 1099 arrived').to.equal(true);
      const result = await server.ok('read_console_messages', { tabId, limit: 1000 });
      const { messages, dropped } = result.structuredContent;
      expect(dropped).to.equal(100);
      expect(messages).to.have.length(1000);
      expect(messages[0].text).to.equal('line 100');
      expect(server.text(result)).to.include('100 older messages were dropped');
    });
  });

  describe('resize_window and downloads', function () {
    it('resizes the viewport and screenshots follow', async function () {
      const result = await server.ok('resize_window', { tabId, width: 390, height: 844 });
      expect(result.structuredContent).to.deep.equal({ width: 390, height: 844 });
      const shot = await server.ok('computer', { tabId, action: 'screenshot' });
      const meta = await sharp(Buffer.from(shot.content.find((c) => c.type === 'image').data, 'base64')).metadata();
      expect([meta.width, meta.height]).to.deep.equal([390, 844]);
      const bad = await server.call('resize_window', { tabId, width: 10, height: 844 });
      expect(errorOf(bad).code).to.equal('invalid_arguments');
      await server.ok('resize_window', { tabId, width: 1280, height: 800 });
    });

    it('puts a page-triggered download in the output dir and says its path', async function () {
      await server.ok('navigate', { tabId, url: fixtures.url('/toolbox/download.html') });
      const result = await server.ok('javascript_tool', { tabId, text: 'document.getElementById("dl").click()' });
      if (!result.structuredContent.downloads) {
        // A script's click starts its navigation after the script returns; on a loaded machine the report can
        // miss it (the computer-click test below asserts the report). The file must still land in the output dir.
        // The file appears empty first and is filled as the download completes: wait for its content.
        const path = join(server.outputDir, 'report.csv');
        const landed = await waitFor(() => existsSync(path) && readFileSync(path, 'utf8') === 'a,b\n1,2\n', 10_000);
        expect(landed, `${path} holds the download`).to.equal(true);
        return;
      }
      const [download] = result.structuredContent.downloads;
      expect(download.status).to.equal('complete');
      expect(dirname(download.path)).to.equal(server.outputDir);
      expect(existsSync(download.path)).to.equal(true);
      expect(readFileSync(download.path, 'utf8')).to.equal('a,b\n1,2\n');
      expect(server.text(result)).to.include(download.path);
    });

    it('says where a download went when a computer click started it', async function () {
      await server.ok('navigate', { tabId, url: fixtures.url('/toolbox/download.html') });
      const ref = (await server.ok('find', { tabId, query: 'Get the report' })).structuredContent.matches[0].ref;
      const result = await server.ok('computer', { tabId, action: 'left_click', ref });
      const [download] = result.structuredContent.downloads;
      expect(download.status).to.equal('complete');
      expect(dirname(download.path)).to.equal(server.outputDir);
      expect(readFileSync(download.path, 'utf8')).to.equal('a,b\n1,2\n');
      expect(server.text(result)).to.include(download.path);
    });

    for (const [name, path] of [['Read the notes', '/files/notes.txt'], ['See the data', '/files/data.json']]) {
      it(`answers at once when a click opens a file the tab shows (${path})`, async function () {
        await server.ok('navigate', { tabId, url: fixtures.url('/toolbox/download.html') });
        const ref = (await server.ok('find', { tabId, query: name })).structuredContent.matches[0].ref;
        const startedAt = Date.now();
        const result = await server.ok('computer', { tabId, action: 'left_click', ref });
        const took = Date.now() - startedAt;
        expect(result.structuredContent.downloads, 'no download is reported').to.equal(undefined);
        expect(server.text(result)).to.include(fixtures.url(path));
        // A file shown inline is not a download: the click does not wait the 5 s a download is given to begin.
        expect(took, 'ms to answer').to.be.below(4_000);
      });
    }
  });
});

describe('toolbox: javascript_tool is off by default', function () {
  let server;
  before(async function () {
    server = await startServer();
  });
  after(async function () {
    await server?.close();
  });

  it('is not listed and cannot be called without --allow-javascript', async function () {
    const { tools } = await server.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).not.to.include('javascript_tool');
    expect(names).to.include.members(['get_page_text', 'form_input', 'file_upload', 'read_console_messages', 'read_network_requests', 'resize_window']);
    const result = await server.call('javascript_tool', { tabId: 1, text: '1' });
    expect(result.isError).to.equal(true);
  });
});
