// Replies an agent can trust on pages nobody here tested (issue 36): hover-only controls show as under a desktop
// mouse, console entries of a page the tab left say which page made them, and find marks cut names and shows values.
import { expect } from 'chai';
import { useBrowser } from './helpers/browser-suite.mjs';
import { waitFor } from './helpers/processes.mjs';

const html = (body) => (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><meta charset="utf-8">${body}`);

const LONG = `Quarterly revenue report for the northern region ${'with every figure spelled out '.repeat(5)}end of name`;

const routes = {
  '/hover': html(`<title>calendar</title>
    <style>
      .actions, .handle { display: none; }
      @media (hover: hover) { .event:hover .actions { display: inline; } }
      @media (hover: hover) and (pointer: fine) { .handle { display: block; } }
    </style>
    <div class="event" id="event">Standup 9:00 <span class="actions"><button>Edit event</button></span></div>
    <div class="handle"><button>Resize event</button></div>
    <pre id="media"></pre>
    <script>
      document.getElementById('media').textContent = ['(hover: hover)', '(any-hover: hover)', '(pointer: fine)', '(pointer: none)']
        .map((query) => query + '=' + matchMedia(query).matches).join(' ');
    </script>`),
  '/page-a': html(`<title>A</title><p>A</p><script>console.error('error on A');</script>`),
  '/page-b': html(`<title>B</title><p>B</p><script>console.error('error on B');</script>`),
  '/fields': html(`<title>fields</title>
    <a href="#r">${LONG}</a>
    <label>Quantity <input type="number" value="3"></label>
    <label>Volume <input type="range" min="0" max="100" value="40"></label>
    <label>City <input type="text" value="Lisbon"></label>
    <label>Size <select><option>Small</option><option selected>Large</option></select></label>
    <label>Notes <textarea>first line
second line</textarea></label>`),
};

describe('trusted replies on untested pages', function () {
  let fixtures;
  let server;
  let tabId;
  const browser = useBrowser({ routes });
  beforeEach(function () {
    ({ fixtures, server, tabId } = browser);
  });
  const find = async (query) => server.ok('find', { tabId, query });

  describe('a desktop mouse', function () {
    it('answers the media queries as a mouse: hover and a fine pointer', async function () {
      await server.ok('navigate', { tabId, url: fixtures.url('/hover') });
      const { text } = (await server.ok('get_page_text', { tabId })).structuredContent;
      expect(text).to.include('(hover: hover)=true (any-hover: hover)=true (pointer: fine)=true (pointer: none)=false');
    });

    it('shows controls kept for hover-capable pointers, and the ones a hover reveals', async function () {
      await server.ok('navigate', { tabId, url: fixtures.url('/hover') });
      const [handle] = (await find('resize event button')).structuredContent.matches;
      expect(handle).to.include({ role: 'button', name: 'Resize event', visible: true });
      const row = (await find('standup')).structuredContent.matches[0];
      expect((await find('edit event button')).structuredContent.matches.filter((m) => m.visible)).to.have.length(0);
      // (The hover's own reply does not list it yet: a :hover rule changes no DOM, and deltas follow mutations.)
      await server.ok('computer', { tabId, action: 'hover', ref: row.ref });
      expect((await find('edit event button')).structuredContent.matches[0]).to.include({ name: 'Edit event', visible: true });
    });
  });

  describe('console entries of earlier pages', function () {
    it("marks page A's error with A's URL once the tab is on B, and leaves B's plain", async function () {
      await server.ok('navigate', { tabId, url: fixtures.url('/page-a') });
      await server.ok('navigate', { tabId, url: fixtures.url('/page-b') });
      const read = async () => (await server.ok('read_console_messages', { tabId })).structuredContent.messages;
      expect(await waitFor(async () => (await read()).some((m) => m.text === 'error on B'), 10_000)).to.equal(true);
      const messages = await read();
      const a = messages.find((m) => m.text === 'error on A');
      const b = messages.find((m) => m.text === 'error on B');
      expect(a.page).to.equal(fixtures.url('/page-a'));
      expect(b).not.to.have.property('page');
      const text = server.text(await server.ok('read_console_messages', { tabId }));
      const lines = text.split('\n');
      const at = (needle) => lines.findIndex((line) => line.includes(needle));
      expect(lines[at('error on A') - 1]).to.equal(`from an earlier page: ${fixtures.url('/page-a')}`);
      expect(lines[at('error on B') - 1]).to.equal('from this page:');
    });

    it('says a reload is an earlier load of this page', async function () {
      await server.ok('navigate', { tabId, url: fixtures.url('/page-b') });
      await server.ok('navigate', { tabId, url: fixtures.url('/page-b') });
      const read = async () => (await server.ok('read_console_messages', { tabId })).structuredContent.messages;
      expect(await waitFor(async () => (await read()).length === 2, 10_000)).to.equal(true);
      const [first, second] = await read();
      expect(first.page).to.equal(fixtures.url('/page-b'));
      expect(second).not.to.have.property('page');
      const text = server.text(await server.ok('read_console_messages', { tabId }));
      expect(text).to.include(`from an earlier load of this page: ${fixtures.url('/page-b')}\n`);
    });

    it('adds nothing when every entry is the current page\'s', async function () {
      await server.ok('navigate', { tabId, url: fixtures.url('/page-b') });
      expect(await waitFor(async () => server.text(await server.ok('read_console_messages', { tabId })).includes('error on B'), 10_000)).to.equal(true);
      const text = server.text(await server.ok('read_console_messages', { tabId }));
      expect(text).not.to.include('from ');
    });
  });

  describe('find lines as snapshot lines', function () {
    beforeEach(async function () {
      await server.ok('navigate', { tabId, url: fixtures.url('/fields') });
    });

    it('marks a cut name [cut], and read_page by its ref gives it whole', async function () {
      const result = await find('quarterly revenue report');
      const [match] = result.structuredContent.matches;
      expect(match).to.include({ role: 'link', cut: true });
      expect(match.name.endsWith('…')).to.equal(true);
      expect(server.text(result)).to.match(/- link "Quarterly revenue[^"]*…" \[ref=ref_\d+\] \[box=[\d,x-]+\] \[cut\]/);
      const whole = server.text(await server.ok('read_page', { tabId, ref_id: match.ref }));
      expect(whole).to.include(LONG);
    });

    it('shows the value of a spinbutton, a slider, a textbox and a combobox', async function () {
      const expectations = [
        ['quantity', 'spinbutton', '3'],
        ['volume', 'slider', '40'],
        ['city', 'textbox', 'Lisbon'],
        ['size', 'combobox', 'Large'],
      ];
      for (const [query, role, value] of expectations) {
        const result = await find(query);
        expect(result.structuredContent.matches[0], query).to.include({ role, value });
        expect(server.text(result)).to.match(new RegExp(`- ${role} "[^"]+" \\[ref=ref_\\d+\\] \\[value="${value}"\\] \\[box=`));
      }
      const notes = await find('notes');
      expect(server.text(notes)).to.include('[value="first line\\nsecond line"]');
      // A short name is not marked.
      expect(server.text(notes)).not.to.include('[cut]');
    });
  });
});
