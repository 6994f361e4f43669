// An action that starts a navigation, when the machine is busy: the document request can reach the network after
// the action's read-back has answered, and a read-back in the document being replaced never answers at all.
// Scripted events stand in for the tab (the order is what a loaded machine produced; the e2e tests cover the rest).
import { EventEmitter } from 'node:events';
import { expect } from 'chai';
import { DownloadLog, downloadsDuring } from '../../dist/browser/group/downloads.js';
import { Tab } from '../../dist/browser/tab/tab.js';

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

/** Runs `work` under the action's watch, as `dispatch` does: its result's `leaving` says the page started a navigation. */
async function watched(tab, work, navigationWaitMs = 2_000) {
  const startedAt = Date.now();
  const { pageLoaded } = await downloadsDuring(tab, work, { navigationWaitMs, expectsLoad: (result) => result.leaving });
  return { pageLoaded, took: Date.now() - startedAt };
}

describe('unit: an action that leaves the page', function () {
  it('waits for the new page the page said it was leaving for, when its request comes after the read-back', async function () {
    const tab = fakeTab();
    const { pageLoaded } = await watched(tab, async () => {
      later(150, () => loadStarts(tab, 'r1'));
      later(250, () => loadEnds(tab, 'r1'));
      return { leaving: true };
    });
    expect(pageLoaded, 'the reply shows the new page').to.equal(true);
  });

  it('does not wait when the page started no navigation', async function () {
    const tab = fakeTab();
    // A late load that nothing announced is not waited for: the action answers first.
    later(1_000, () => loadStarts(tab, 'r2'));
    const { pageLoaded, took } = await watched(tab, async () => ({ leaving: false }), 5_000);
    expect(pageLoaded).to.equal(false);
    expect(took, 'ms: well under the 5 s wait an announced navigation gets').to.be.below(1_000);
  });

  it('gives up on an announced navigation that never reaches the network, at its bound', async function () {
    const { pageLoaded, took } = await watched(fakeTab(), async () => ({ leaving: true }), 300);
    expect(pageLoaded).to.equal(false);
    expect(took, 'ms: the bound, not the 10 s action timeout').to.be.at.least(290).and.below(5_000);
  });

  it('answers a read-back whose document a new page replaced, which Firefox never answers', async function () {
    const tab = fakeTab();
    const never = new Promise(() => undefined);
    later(50, () => tab.emit('navigation', 'committed', { context: 'top', navigation: 'n', url: 'http://127.0.0.1:9/next', timestamp: 0 }));
    expect(await Tab.prototype.orWhenReplaced.call(tab, never, null)).to.equal(null);
    expect(tab.listenerCount('navigation'), 'no listener left behind').to.equal(0);
  });

  it('keeps the read-back when it answers before any new document', async function () {
    const tab = fakeTab();
    expect(await Tab.prototype.orWhenReplaced.call(tab, Promise.resolve('read'), null)).to.equal('read');
    expect(tab.listenerCount('navigation')).to.equal(0);
  });
});
