// Navigate answers with the page drawn, not half-way (issue 38): these pages would be read half-drawn by a shorter
// quiet window (50 and 100 ms were tried), and each must come back whole. A page that renders in timed steps after
// load; a custom element defined late, on a page no script has changed yet; data fetched after load, until the
// request ends and its answer is drawn, also when a timer starts the request a moment (90 ms) after the page last
// changed, as Grid.js does. A page with nothing scheduled is answered on a short window (session 23): frame
// callbacks, a scheduler yielding through messages, and the page's own functions left working, are checked here too.
import { expect } from 'chai';
import { useBrowser } from './helpers/browser-suite.mjs';

const html = (body) => (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><meta charset="utf-8">${body}`);

const steps = html(`<title>steps</title><ul id="list"></ul><script>
  // A render that slows down as it goes (40, 45, 60, 80, 110 ms between steps): a 100 ms window would stop at step 5.
  const pauses = [40, 45, 60, 80, 110];
  addEventListener('load', () => setTimeout(() => {
    let step = 0;
    const next = () => {
      step += 1;
      const item = document.createElement('li');
      item.textContent = 'Step ' + step;
      document.getElementById('list').append(item);
      if (step <= pauses.length) setTimeout(next, pauses[step - 1]);
    };
    next();
  }, 0));
</script>`);

const lateElement = html(`<title>late element</title><user-card></user-card><script>
  setTimeout(() => customElements.define('user-card', class extends HTMLElement {
    connectedCallback() {
      this.attachShadow({ mode: 'open' }).innerHTML = '<button>Follow Ada</button>';
    }
  }), 120);
</script>`);

const fetched = html(`<title>fetched</title><main id="out">Loading orders</main><script>
  addEventListener('load', () => {
    fetch('/orders.json').then((r) => r.json()).then((orders) => {
      document.getElementById('out').innerHTML = orders.map((o) => '<p>Order ' + o + '</p>').join('');
    });
  });
</script>`);

// Grid.js's way: the page draws its frame at load, then a timer 90 ms later starts the request for its rows.
const deferred = html(`<title>deferred</title><main id="out"></main><script>
  addEventListener('load', () => {
    document.getElementById('out').textContent = 'Table frame';
    setTimeout(() => fetch('/orders.json').then((r) => r.json()).then((orders) => {
      document.getElementById('out').innerHTML = orders.map((o) => '<p>Row ' + o + '</p>').join('');
    }), 90);
  });
</script>`);

// Frame callbacks: a render that adds a row every other frame for 12 frames after load.
const frames = html(`<title>frames</title><ul id="list"></ul><script>
  addEventListener('load', () => {
    let frame = 0;
    const tick = () => {
      frame += 1;
      if (frame % 2 === 0) document.getElementById('list').insertAdjacentHTML('beforeend', '<li>Frame row ' + frame + '</li>');
      if (frame < 12) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
</script>`);

// A scheduler that yields through MessageChannel, as React's does: 150 ms of work in 5 ms slices that change
// nothing, then one commit.
const scheduler = html(`<title>scheduler</title><main id="out">Shell</main><script>
  addEventListener('load', () => {
    const channel = new MessageChannel();
    const until = performance.now() + 150;
    channel.port1.onmessage = () => {
      const slice = performance.now() + 5;
      while (performance.now() < slice) {}
      if (performance.now() < until) channel.port2.postMessage(null);
      else document.getElementById('out').textContent = 'Committed view';
    };
    channel.port2.postMessage(null);
  });
</script>`);

// What the page's realm is given to count its work must change nothing the page sees of its own functions.
const ownFunctions = html(`<title>own functions</title><p id="out">running</p><script>
  const results = [];
  const check = (name, ok) => results.push(ok ? 'ok' : 'FAILED ' + name);
  check('native source', /native code/.test(String(setTimeout)) && setTimeout.name === 'setTimeout' && requestAnimationFrame.length === 1);
  const cleared = setTimeout(() => check('cleared timeout ran', false), 10);
  clearTimeout(cleared);
  const ticks = [];
  const interval = setInterval((a) => { ticks.push(a); if (ticks.length === 3) clearInterval(interval); }, 5, 'x');
  const frame = requestAnimationFrame(() => check('cancelled frame ran', false));
  cancelAnimationFrame(frame);
  Promise.all([
    new Promise((resolve) => setTimeout(function (a, b) { check('timeout arguments', a === 1 && b === 2 && this === window); resolve(); }, 5, 1, 2)),
    new Promise((resolve) => requestAnimationFrame((t) => { check('frame time', typeof t === 'number'); resolve(); })),
    fetch('/orders.json').then((r) => r.json()).then((orders) => check('fetch', orders.length === 3)),
    new Promise((resolve) => { const x = new XMLHttpRequest(); x.open('GET', '/orders.json'); x.onload = () => { check('xhr', JSON.parse(x.responseText)[2] === 103); resolve(); }; x.send(); }),
    new Promise((resolve) => { const c = new MessageChannel(); c.port1.onmessage = (e) => { check('message', e.data === 'hi'); resolve(); }; c.port2.postMessage('hi'); }),
    new Promise((resolve) => setTimeout(resolve, 80)),
  ]).then(() => {
    check('interval', ticks.join() === 'x,x,x');
    check('probe kept', (() => { try { window.__firefoxUseActivity = null; } catch {} return typeof window.__firefoxUseActivity === 'function'; })());
    const failed = results.filter((r) => r !== 'ok');
    document.getElementById('out').textContent = failed.length ? failed.join('; ') : 'All ' + results.length + ' checks passed';
  });
</script>`);

// A fetch that fails, its rejection left unhandled: the page's console says so, as it would without firefox-use.
const unhandled = html(`<title>unhandled</title><p>Unhandled fetch</p><script>
  fetch('http://127.0.0.1:1/nothing-listens-here');
</script>`);

const slowJson = (req, res) => setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('[101, 102, 103]'), 400);

describe('navigate: settled from the page', function () {
  this.timeout(60_000);
  const browser = useBrowser({
    routes: { '/steps': steps, '/late-element': lateElement, '/fetched': fetched, '/deferred': deferred, '/frames': frames, '/scheduler': scheduler, '/own-functions': ownFunctions, '/unhandled': unhandled, '/orders.json': slowJson },
  });

  it('waits out a page that draws in timed steps after load', async function () {
    const { server, fixtures, tabId } = browser;
    const reply = server.text(await server.ok('navigate', { tabId, url: fixtures.url('/steps') }));
    expect(reply).to.include('Step 6');
    expect(reply).not.to.include('Still changing');
  });

  it('waits for a custom element its script defines late', async function () {
    const { server, fixtures, tabId } = browser;
    const reply = server.text(await server.ok('navigate', { tabId, url: fixtures.url('/late-element') }));
    expect(reply).to.include('button "Follow Ada"');
  });

  it('waits for data fetched after load and what is drawn from it', async function () {
    const { server, fixtures, tabId } = browser;
    const reply = server.text(await server.ok('navigate', { tabId, url: fixtures.url('/fetched') }));
    expect(reply).to.include('Order 103');
    expect(reply).not.to.include('Loading orders');
  });

  it('waits for a request a timer starts a moment after the page last changed', async function () {
    const { server, fixtures, tabId } = browser;
    const reply = server.text(await server.ok('navigate', { tabId, url: fixtures.url('/deferred') }));
    expect(reply).to.include('Row 103');
  });

  it('waits for a render driven by frame callbacks', async function () {
    const { server, fixtures, tabId } = browser;
    const reply = server.text(await server.ok('navigate', { tabId, url: fixtures.url('/frames') }));
    expect(reply).to.include('Frame row 12');
  });

  it('waits for a scheduler that yields through messages before it commits', async function () {
    const { server, fixtures, tabId } = browser;
    const reply = server.text(await server.ok('navigate', { tabId, url: fixtures.url('/scheduler') }));
    expect(reply).to.include("Committed view");
  });

  it("leaves the page's own timers, frames, fetches and messages as they were", async function () {
    const { server, fixtures, tabId } = browser;
    const reply = server.text(await server.ok('navigate', { tabId, url: fixtures.url('/own-functions') }));
    expect(reply).to.include("All 8 checks passed");
  });

  it("still reports a fetch rejection the page left unhandled in the page's console", async function () {
    const { server, fixtures, tabId } = browser;
    await server.ok('navigate', { tabId, url: fixtures.url('/unhandled') });
    const log = server.text(await server.ok('read_console_messages', { tabId, onlyErrors: true }));
    expect(log).to.match(/Uncaught.*NetworkError/);
  });
});
