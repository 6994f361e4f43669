// Navigate answers with the page drawn, not half-way (issue 38): these pages would be read half-drawn by a shorter
// quiet window (50 and 100 ms were tried), and each must come back whole. A page that renders in timed steps after
// load; a custom element defined late, on a page no script has changed yet; data fetched after load, until the
// request ends and its answer is drawn, also when a timer starts the request a moment (90 ms) after the page last
// changed, as Grid.js does.
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

const slowJson = (req, res) => setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('[101, 102, 103]'), 400);

describe('navigate: settled from the page', function () {
  this.timeout(60_000);
  const browser = useBrowser({
    routes: { '/steps': steps, '/late-element': lateElement, '/fetched': fetched, '/deferred': deferred, '/orders.json': slowJson },
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
});
