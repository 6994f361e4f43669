// An action that starts a navigation, when the machine is busy: the document request can reach the network after
// the action's read-back has answered, and a read-back in the document being replaced never answers at all.
// Scripted events stand in for the tab (the order is what a loaded machine produced; the e2e tests cover the rest).
import { EventEmitter } from 'node:events';
import { expect } from 'chai';
import { DownloadLog, downloadsDuring } from '../../dist/browser/downloads.js';
import { Tab } from '../../dist/browser/tab.js';

function fakeTab() {
  const tab = new EventEmitter();
  tab.context = 'top';
  tab.network = new EventEmitter();
  tab.downloads = new DownloadLog();
  return tab;
}

function loadStarts(tab, id) {
  tab.network.emit('started', { context: 'top', request: { request: id, destination: 'document' } });
}

function loadEnds(tab, id) {
  tab.network.emit('ended', { context: 'top', request: { request: id }, response: { status: 200, mimeType: 'text/html', headers: [] } });
  tab.emit('navigation', 'committed', { context: 'top', navigation: id, url: 'http://127.0.0.1:9/next', timestamp: 0 });
}

const later = (ms, fn) => setTimeout(fn, ms);

describe('unit: an action that leaves the page', function () {
  it('waits for the new page the page said it was leaving for, when its request comes after the read-back', async function () {
    const tab = fakeTab();
    const startedAt = Date.now();
    const { pageLoaded } = await downloadsDuring(
      tab,
      async () => {
        later(150, () => loadStarts(tab, 'r1'));
        later(250, () => loadEnds(tab, 'r1'));
        return { leaving: true };
      },
      { navigationWaitMs: 2_000, expectsLoad: (result) => result.leaving },
    );
    expect(pageLoaded, 'the reply shows the new page').to.equal(true);
    expect(Date.now() - startedAt).to.be.below(1_500);
  });

  it('does not wait when the page started no navigation', async function () {
    const tab = fakeTab();
    const startedAt = Date.now();
    const { pageLoaded } = await downloadsDuring(tab, async () => ({ leaving: false }), { navigationWaitMs: 2_000, expectsLoad: (result) => result.leaving });
    expect(pageLoaded).to.equal(false);
    expect(Date.now() - startedAt).to.be.below(100);
  });

  it('gives up on an announced navigation that never reaches the network, within its bound', async function () {
    const tab = fakeTab();
    const startedAt = Date.now();
    const { pageLoaded } = await downloadsDuring(tab, async () => ({ leaving: true }), { navigationWaitMs: 300, expectsLoad: (result) => result.leaving });
    expect(pageLoaded).to.equal(false);
    expect(Date.now() - startedAt).to.be.within(250, 1_000);
  });

  it('answers a read-back whose document a new page replaced, which Firefox never answers', async function () {
    const tab = fakeTab();
    const never = new Promise(() => undefined);
    later(50, () => tab.emit('navigation', 'committed', { context: 'top', navigation: 'n', url: 'http://127.0.0.1:9/next', timestamp: 0 }));
    expect(await Tab.prototype.orWhenReplaced.call(tab, never, null)).to.equal(null);
    expect(tab.listenerCount('navigation'), 'no listener left behind').to.equal(0);
  });
});
