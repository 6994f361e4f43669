// Text read as it is laid out (found on a date picker and a markdown editor nobody here tests): a span laid out as a
// flex item is a run of its own, an inline box with room around it a word of its own with the text its style sheet
// draws around it; and a click by ref on a code editor's hidden textarea lands in the editor, however wide its pane.
import { expect } from 'chai';
import { useBrowser } from './helpers/browser-suite.mjs';

const html = (body) => (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><meta charset="utf-8">${body}`);

const routes = {
  '/picker': html(`<title>picker</title>
    <style>
      .days { display: flex; flex-wrap: wrap; width: 280px }
      .days span { display: inline-block; width: 40px }
      .bar span { display: inline-block; min-width: 4em; margin-left: 1em }
      .bar .lines::before { content: 'lines: ' }
      .bar .words::before { content: 'words: ' }
      .split span { display: inline-block }
    </style>
    <div class="days">${[29, 30, 1, 2, 3].map((d) => `<span>${d}</span>`).join('')}</div>
    <div class="bar"><span class="lines">1</span><span class="words">0</span></div>
    <p class="split"><span>H</span><span>e</span><span>l</span><span>l</span><span>o</span></p>`),
  '/editor': html(`<title>editor</title>
    <style>
      #pane { position: relative; width: 1200px; height: 400px; border: 1px solid #999; font: 16px monospace }
      #holder { position: absolute; left: 4px; top: 4px; width: 3px; height: 0; overflow: hidden }
      #line { position: absolute; inset: 0; padding: 4px }
    </style>
    <div id="pane"><div id="holder"><textarea id="input"></textarea></div><div id="line">let answer = 42;</div></div>
    <p id="out"></p>
    <script>
      document.getElementById('pane').addEventListener('mousedown', (event) => {
        event.preventDefault();
        document.getElementById('input').focus();
      });
      document.getElementById('input').addEventListener('input', (event) => {
        document.getElementById('out').textContent = 'typed: ' + event.target.value;
      });
    </script>`),
};

describe('text runs as laid out', function () {
  this.timeout(60_000);
  const browser = useBrowser({ routes });

  it('splits flex items into words, reads a status bar with its drawn labels, and keeps a word split by letters whole', async function () {
    const { server, fixtures } = browser;
    const tabId = browser.tabId;
    const page = server.text(await server.ok('navigate', { tabId, url: fixtures.url('/picker') }));
    expect(page).to.include('- text: 29 30 1 2 3');
    expect(page).to.include('- text: lines: 1 words: 0');
    expect(page).to.include('- text: Hello');
    const text = server.text(await server.ok('get_page_text', { tabId }));
    // Each flex item a block of its own: a line each in the page text, as innerText gives them.
    expect(text, text).to.match(/^29\n30\n1\n2\n3$/m);
    expect(text).to.match(/^lines: 1 words: 0$/m);
    expect(text).to.match(/^Hello$/m);
  });

  it('clicks a page-wide code editor by the ref of its hidden textarea, and types there', async function () {
    const { server, fixtures } = browser;
    const tabId = browser.tabId;
    const page = server.text(await server.ok('navigate', { tabId, url: fixtures.url('/editor') }));
    const ref = /- textbox \[ref=(ref_\d+)\]/.exec(page)[1];
    const clicked = await server.call('computer', { tabId, action: 'left_click', ref });
    expect(clicked.isError, server.text(clicked)).to.not.equal(true);
    expect(server.text(clicked)).to.match(/^left_click ref_\d+: delivered\./);
    const typed = await server.ok('computer', { tabId, action: 'type', text: 'x' });
    expect(server.text(typed)).to.include('typed: x');
  });
});
