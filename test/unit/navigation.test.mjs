// navigate's bookkeeping of superseded navigations, against a scripted BiDi peer: which navigation won, whether
// the agent's is re-issued, and what the reply says.
import { expect } from 'chai';
import { BidiConnection } from '../../dist/bidi/connection.js';
import { navigateTab } from '../../dist/browser/tab/navigation.js';
import { Browser } from '../../dist/browser/browser.js';
import { pageAnswer, startFakeBidi } from './fake-bidi.mjs';

const CONTEXT = 'top';
const TARGET = 'http://127.0.0.1:9/wanted';
const PAGE_OWN = 'http://127.0.0.1:9/page-own';
const OPTIONS = { allowedOrigins: [], blockedOrigins: [] };

/** What a Browser asks when it attaches and opens a tab (its events then reach the tab through the Browser). */
function answerAttach(method, reply) {
  if (method === 'browsingContext.getTree') return reply.result({ contexts: [] });
  if (method === 'script.addPreloadScript') return reply.result({ script: 'preload' });
  if (method === 'browsingContext.create') return reply.result({ context: CONTEXT });
  if (method === 'session.subscribe' || method === 'browsingContext.setViewport') return reply.result({});
  reply.error('unknown command', method);
}

/** A Browser attached to the scripted peer, and its one tab. */
async function tabOnPeer(peer, navigationTimeout) {
  const bidi = await BidiConnection.connect(peer.url);
  const host = { pid: -1, onExit() {}, killNow() {}, async shutdown() {}, async waitForExit() {} };
  const options = { timeouts: { action: 2_000, navigation: navigationTimeout }, viewport: { width: 800, height: 600 } };
  const browser = await Browser.attach(bidi, host, options, 'fake');
  return { bidi, tab: await browser.createTab('unit') };
}

/** A Tab over a fake peer whose navigate answers follow `attempts` (one function per navigate command, in order). */
async function tabOver(attempts) {
  let current = { url: 'http://127.0.0.1:9/start', title: 'start' };
  let navigations = 0;
  const peer = await startFakeBidi((method, params, reply) => {
    if (method === 'browsingContext.navigate') {
      const attempt = attempts[navigations++];
      const id = `ours-${navigations}`;
      reply.event('browsingContext.navigationStarted', { context: CONTEXT, navigation: id, url: params.url, timestamp: 0 });
      const outcome = attempt(reply, id);
      current = outcome.now;
      if (outcome.error) reply.error('unknown error', outcome.error);
      else reply.result({ navigation: id, url: params.url });
      return;
    }
    if (method === 'script.callFunction') return reply.result(pageAnswer({ ...current, readyState: 'complete' }));
    answerAttach(method, reply);
  });
  const { bidi, tab } = await tabOnPeer(peer, 5_000);
  return { tab, peer, close: async () => (bidi.close(), await peer.close()) };
}

/** The page's own navigation starts and supersedes ours before ours committed. */
const pageWins = (reply, id) => {
  reply.event('browsingContext.navigationStarted', { context: CONTEXT, navigation: `page-${id}`, url: PAGE_OWN, timestamp: 0 });
  reply.event('browsingContext.navigationFailed', { context: CONTEXT, navigation: id, url: TARGET, timestamp: 0 });
  reply.event('browsingContext.navigationCommitted', { context: CONTEXT, navigation: `page-${id}`, url: PAGE_OWN, timestamp: 0 });
  return { now: { url: PAGE_OWN, title: 'page own' }, error: 'Error: NS_BINDING_ABORTED' };
};
const oursArrives = (reply, id) => {
  reply.event('browsingContext.navigationCommitted', { context: CONTEXT, navigation: id, url: TARGET, timestamp: 0 });
  return { now: { url: TARGET, title: 'wanted' } };
};

describe('unit: navigate when the page navigates too (scripted BiDi peer)', function () {
  let fake;
  afterEach(async function () {
    await fake?.close();
  });

  it('arrives plainly when nothing interferes', async function () {
    fake = await tabOver([oursArrives]);
    const arrival = await navigateTab(fake.tab, TARGET, OPTIONS);
    expect(arrival).to.deep.equal({ url: TARGET, title: 'wanted' });
    expect(fake.peer.commands.filter((c) => c.method === 'browsingContext.navigate')).to.have.length(1);
  });

  it('re-issues once when the page won before ours committed, and says so', async function () {
    fake = await tabOver([pageWins, oursArrives]);
    const arrival = await navigateTab(fake.tab, TARGET, OPTIONS);
    expect(arrival).to.include({ url: TARGET, outcome: 'reissued' });
    expect(arrival.note).to.include('re-issued');
    expect(fake.peer.commands.filter((c) => c.method === 'browsingContext.navigate')).to.have.length(2);
  });

  it('reports superseded, and where the tab is, when the page wins twice; never a third try', async function () {
    fake = await tabOver([pageWins, pageWins]);
    const arrival = await navigateTab(fake.tab, TARGET, OPTIONS);
    expect(arrival).to.include({ url: PAGE_OWN, outcome: 'superseded' });
    expect(arrival.note).to.include(TARGET);
    expect(fake.peer.commands.filter((c) => c.method === 'browsingContext.navigate')).to.have.length(2);
  });

  it('says reissued, not superseded, when Firefox answers "aborted" for a re-issued load that then arrives', async function () {
    const abortedYetArrives = (reply, id) => {
      setTimeout(() => reply.event('browsingContext.navigationCommitted', { context: CONTEXT, navigation: id, url: TARGET, timestamp: 0 }), 50);
      return { now: { url: TARGET, title: 'wanted' }, error: 'Error: NS_BINDING_ABORTED' };
    };
    fake = await tabOver([pageWins, abortedYetArrives]);
    const started = Date.now();
    const arrival = await navigateTab(fake.tab, TARGET, OPTIONS);
    expect(arrival).to.include({ url: TARGET, outcome: 'reissued' });
    // Its commit ends the wait for a replacement that never came (2 s otherwise).
    expect(Date.now() - started).to.be.below(1_500);
    expect(fake.peer.commands.filter((c) => c.method === 'browsingContext.navigate')).to.have.length(2);
  });

  it('reports navigated_on, without re-issuing, when ours committed and the page then moved on', async function () {
    fake = await tabOver([
      (reply, id) => {
        reply.event('browsingContext.navigationCommitted', { context: CONTEXT, navigation: id, url: TARGET, timestamp: 0 });
        return pageWins(reply, id);
      },
    ]);
    const arrival = await navigateTab(fake.tab, TARGET, OPTIONS);
    expect(arrival).to.include({ url: PAGE_OWN, outcome: 'navigated_on' });
    expect(fake.peer.commands.filter((c) => c.method === 'browsingContext.navigate')).to.have.length(1);
  });

  it('still fails with navigation_failed on a real load error', async function () {
    fake = await tabOver([() => ({ now: { url: 'about:neterror', title: '' }, error: 'Error: NS_ERROR_CONNECTION_REFUSED' })]);
    const error = await navigateTab(fake.tab, TARGET, OPTIONS).then(() => null, (e) => e);
    expect(error?.code).to.equal('navigation_failed');
    expect(error.details.reason).to.equal('NS_ERROR_CONNECTION_REFUSED');
  });
});

/**
 * A tab whose navigate is answered at once with the document still loading ('interactive'): `load()` then makes it
 * complete and sends browsingContext.load, as Firefox does at the document's load event; `event()` sends any other.
 */
async function loadingTab(navigationTimeout = 5_000) {
  let current = { url: 'http://127.0.0.1:9/start', title: 'start', readyState: 'complete' };
  let send = null;
  let pageInfoCalls = 0;
  const peer = await startFakeBidi((method, params, reply) => {
    send = reply.event;
    if (method === 'browsingContext.navigate') {
      reply.event('browsingContext.navigationStarted', { context: CONTEXT, navigation: 'n1', url: params.url, timestamp: 0 });
      reply.event('browsingContext.navigationCommitted', { context: CONTEXT, navigation: 'n1', url: params.url, timestamp: 0 });
      current = { url: params.url, title: 'wanted', readyState: 'interactive' };
      return reply.result({ navigation: 'n1', url: params.url });
    }
    if (method === 'script.callFunction') {
      pageInfoCalls++;
      return reply.result(pageAnswer(current));
    }
    answerAttach(method, reply);
  });
  const { bidi, tab } = await tabOnPeer(peer, navigationTimeout);
  return {
    tab,
    peer,
    get pageInfoCalls() {
      return pageInfoCalls;
    },
    load: () => {
      current = { ...current, readyState: 'complete' };
      send('browsingContext.load', { context: CONTEXT, navigation: 'n1', url: current.url, timestamp: 0 });
    },
    event: (name, params) => send(name, params),
    close: async () => (bidi.close(), await peer.close()),
  };
}

describe('unit: navigate waits for the load event, not a timer (scripted BiDi peer)', function () {
  let fake;
  afterEach(async function () {
    await fake?.close();
  });

  it('answers as soon as the document loads, without polling the page meanwhile', async function () {
    fake = await loadingTab();
    setTimeout(() => fake.load(), 400);
    const started = Date.now();
    const arrival = await navigateTab(fake.tab, TARGET, OPTIONS);
    const took = Date.now() - started;
    expect(arrival).to.deep.equal({ url: TARGET, title: 'wanted' });
    expect(took).to.be.within(390, 900);
    // One look before the load (loading), one after it: not one every 25 ms.
    expect(fake.pageInfoCalls).to.be.at.most(3);
  });

  it('ends the wait at once with dialog_open when the page opens a dialog while loading', async function () {
    fake = await loadingTab();
    setTimeout(() => fake.event('browsingContext.userPromptOpened', { context: CONTEXT, handler: 'ignore', message: 'Leave?', type: 'confirm' }), 200);
    const started = Date.now();
    const error = await navigateTab(fake.tab, TARGET, OPTIONS).then(() => null, (e) => e);
    expect(error?.code).to.equal('dialog_open');
    expect(Date.now() - started).to.be.below(900);
  });

  it('fails with navigation_timeout, saying where the tab is, when the document never loads', async function () {
    fake = await loadingTab(1_500);
    const started = Date.now();
    const error = await navigateTab(fake.tab, TARGET, OPTIONS).then(() => null, (e) => e);
    expect(error?.code).to.equal('navigation_timeout');
    expect(error.message).to.equal(`Tab ${fake.tab.id} did not finish loading in time (at ${TARGET}).`);
    expect(Date.now() - started).to.be.within(1_400, 2_500);
  });
});

// The soak's heap snapshots showed none, but a waiter left on a tab would be a leak of one closure per call: each
// way a navigate ends must take its listeners (TabChange, NavigationWatch) off the tab again.
describe('unit: navigate leaves nothing listening on the tab (scripted BiDi peer)', function () {
  let fake;
  afterEach(async function () {
    await fake?.close();
  });
  const listeners = (tab) => Object.fromEntries(['navigation', 'dialog', 'closed', 'blocked'].map((event) => [event, tab.listenerCount(event)]));
  const refused = () => ({ now: { url: 'about:neterror', title: '' }, error: 'Error: NS_ERROR_CONNECTION_REFUSED' });

  for (const [how, attempts] of [
    ['arrives', [oursArrives]],
    ['is re-issued', [pageWins, oursArrives]],
    ['is superseded twice', [pageWins, pageWins]],
    ['fails', [refused]],
  ]) {
    it(`when it ${how}`, async function () {
      fake = await tabOver(attempts);
      const before = listeners(fake.tab);
      await navigateTab(fake.tab, TARGET, OPTIONS).catch(() => null);
      expect(listeners(fake.tab)).to.deep.equal(before);
    });
  }

  it('when a dialog ends its wait for the load', async function () {
    fake = await loadingTab();
    const before = listeners(fake.tab);
    setTimeout(() => fake.event('browsingContext.userPromptOpened', { context: CONTEXT, handler: 'ignore', message: 'Leave?', type: 'confirm' }), 100);
    const error = await navigateTab(fake.tab, TARGET, OPTIONS).then(() => null, (e) => e);
    expect(error?.code).to.equal('dialog_open');
    expect(listeners(fake.tab)).to.deep.equal(before);
  });
});

// Firefox's own answers that never come: a navigate whose document loaded (microsoft/playwright#42183, and one CI run
// here), and a page's own navigation it answered and then showed nothing for (a top-level data: URL it refuses).
describe('unit: navigate when Firefox leaves something unanswered (scripted BiDi peer)', function () {
  let fake;
  afterEach(async function () {
    await fake?.close();
  });

  async function peerTab(onNavigate) {
    let current = { url: 'http://127.0.0.1:9/start', title: 'start', readyState: 'complete' };
    const peer = await startFakeBidi((method, params, reply) => {
      if (method === 'browsingContext.navigate') {
        current = { url: params.url, title: 'wanted', readyState: 'complete' };
        return onNavigate(params, reply);
      }
      if (method === 'script.callFunction') return reply.result(pageAnswer(current));
      answerAttach(method, reply);
    });
    const { bidi, tab } = await tabOnPeer(peer, 8_000);
    return { tab, peer, close: async () => (bidi.close(), await peer.close()) };
  }

  const arrived = (reply, url) => {
    reply.event('browsingContext.navigationStarted', { context: CONTEXT, navigation: 'n1', url, timestamp: 0 });
    reply.event('browsingContext.navigationCommitted', { context: CONTEXT, navigation: 'n1', url, timestamp: 0 });
    reply.event('browsingContext.load', { context: CONTEXT, navigation: 'n1', url, timestamp: 0 });
  };

  it('arrives when the document loaded though the navigate command is never answered, well before the timeout', async function () {
    fake = await peerTab((params, reply) => arrived(reply, params.url));
    const listeners = fake.tab.listenerCount('navigation');
    const started = Date.now();
    const arrival = await navigateTab(fake.tab, TARGET, OPTIONS);
    expect(arrival).to.deep.equal({ url: TARGET, title: 'wanted' });
    expect(Date.now() - started).to.be.below(6_000);
    expect(fake.tab.listenerCount('navigation')).to.equal(listeners);
  });

  it('stops waiting for a page navigation that got its answer and no document, and says the page it stayed on', async function () {
    fake = await peerTab((params, reply) => {
      arrived(reply, params.url);
      const dataUrl = 'data:text/html,<title>refused</title>';
      reply.event('browsingContext.navigationStarted', { context: CONTEXT, navigation: 'n2', url: dataUrl, timestamp: 0 });
      const request = { request: 'r2', url: dataUrl, method: 'GET', headers: [], cookies: [], headersSize: 0, bodySize: 0, destination: 'document', initiatorType: null, timings: {} };
      const response = { url: dataUrl, protocol: 'data', status: 200, statusText: 'OK', fromCache: false, headers: [], mimeType: 'text/html', bytesReceived: 0, headersSize: 0, bodySize: 0, content: { size: 0 } };
      reply.event('network.responseCompleted', { context: CONTEXT, navigation: 'n2', isBlocked: false, redirectCount: 0, request, response, timestamp: 0 });
      reply.result({ navigation: 'n1', url: params.url });
    });
    const started = Date.now();
    const arrival = await navigateTab(fake.tab, TARGET, OPTIONS);
    expect(arrival).to.deep.equal({ url: TARGET, title: 'wanted' });
    expect(Date.now() - started).to.be.below(6_000);
  });
});
