// The tab group on the scripted BiDi link: it resolves only its own tabs, tells lost and refused tabs once, hands
// each popup out once, and ends as one.
import { expect } from 'chai';
import { TabGroup } from '../../dist/browser/group/index.js';
import { browserOnFake } from '../helpers/fake-bidi-link.mjs';

/** The part of a BrowserManager a group uses, on one fake browser; `relaunch` stands in for a new launch after a crash. */
function managerOf(browser) {
  const listeners = new Set();
  return {
    generation: 1,
    lastEnd: 'crashed',
    live: browser,
    async get() {
      return browser;
    },
    onLaunch(listener) {
      listeners.add(listener);
      listener(browser);
      return () => listeners.delete(listener);
    },
    relaunch() {
      this.generation++;
    },
  };
}

async function codeOf(work) {
  try {
    await work();
  } catch (error) {
    return error.code;
  }
  return null;
}

describe('unit: the tab group', function () {
  it('resolves its own tabs and refuses another group\'s with tab_not_in_group', async function () {
    const { browser } = await browserOnFake();
    const group = new TabGroup(managerOf(browser));
    const other = new TabGroup(managerOf(browser));
    const ours = await group.openTab();
    const theirs = await other.openTab();
    expect(group.activeTabId).to.equal(ours.id);
    expect(group.resolveTab(browser, ours.id)).to.equal(ours);
    expect(await codeOf(() => group.resolveTab(browser, theirs.id))).to.equal('tab_not_in_group');
    expect(group.tabsIn(browser).map((tab) => tab.id)).to.deep.equal([ours.id]);
    expect((await group.on(() => Promise.resolve(browser)).tabs()).map((tab) => tab.id)).to.deep.equal([ours.id]);
  });

  it('tells the tabs lost across a relaunch and the popups refused past --max-tabs, each once', async function () {
    const { browser } = await browserOnFake();
    const manager = managerOf(browser);
    const group = new TabGroup(manager);
    await group.browser();
    const tab = await group.openTab();
    tab.markClosed('browser_crashed');
    manager.relaunch();
    await group.browser();
    browser.emit('tabRefused', group.id, 'http://127.0.0.1:9/popup');
    browser.emit('tabRefused', 'another-group', 'http://127.0.0.1:9/popup');
    expect(group.takeNotices()).to.deep.equal([
      `Firefox had stopped and was restarted on the same profile; earlier tabs (${tab.id}) are gone.`,
      "A page opened a tab past this session's tab limit (--max-tabs); closed at once.",
    ]);
    expect(group.takeNotices()).to.deep.equal([]);
  });

  it('hands each tab its pages opened out once, and stops listening once disposed', async function () {
    const { browser, link } = await browserOnFake();
    link.answer('browsingContext.close', (params) => {
      link.emit('browsingContext.contextDestroyed', { context: params.context, url: 'about:blank', children: null, parent: null, userContext: 'default', originalOpener: null, clientWindow: 'w1' });
      return {};
    });
    const group = new TabGroup(managerOf(browser));
    const opener = await group.openTab();
    const popup = await group.openTab();
    browser.emit('tabOpenedByPage', popup, opener);
    expect(group.takeOpenedTabs()).to.deep.equal([popup]);
    expect(group.takeOpenedTabs()).to.deep.equal([]);
    await group.dispose();
    expect(browser.tabsOfGroup(group.id)).to.deep.equal([]);
    browser.emit('tabRefused', group.id, 'http://127.0.0.1:9/late');
    expect(group.takeNotices()).to.deep.equal([]);
  });
});
