import { expect } from 'chai';
import { useBrowser } from './helpers/browser-suite.mjs';
import { waitFor } from './helpers/processes.mjs';

describe('dialogs: firefox_dialog and dialog_open', function () {
  // Real Firefox on a shared 2-core machine: launches can take tens of seconds under load.
  this.timeout(180_000);
  let fixtures;
  let server;
  let tabId;

  // A long navigation timeout, so a navigate that waited for it could not pass for one that ended at once.
  const browser = useBrowser({ args: ['--isolated', '--timeout-navigation', '20000'] });
  beforeEach(function () {
    ({ fixtures, server, tabId } = browser);
  });

  const page = (query) => fixtures.url(`/dialogs/open.html?${new URLSearchParams(query)}`);
  const errorOf = (result) => result.structuredContent?.error;

  async function tabInfo(id = tabId) {
    const result = await server.ok('tabs_context_mcp');
    return result.structuredContent.tabs.find((tab) => tab.tabId === id);
  }

  /** Loads the dialog page, then clicks it: the dialog opens once the page is there, never during the navigate. */
  async function openDialog(query, id = tabId) {
    await server.ok('navigate', { tabId: id, url: page(query) });
    await server.ok('computer', { tabId: id, action: 'left_click', coordinate: [100, 100] });
    const info = await waitFor(async () => ((await tabInfo(id))?.dialog ? tabInfo(id) : null), 5_000);
    expect(info?.dialog, 'a dialog should have opened').to.exist;
    return info;
  }

  it('answers no_dialog, doing nothing, when no dialog is open', async function () {
    await server.ok('navigate', { tabId, url: fixtures.url('/index.html') });
    const result = await server.call('firefox_dialog', { tabId, action: 'accept' });
    expect(result.isError).to.equal(true);
    expect(errorOf(result).code).to.equal('no_dialog');
    expect((await tabInfo()).url).to.equal(fixtures.url('/index.html'));
  });

  it('shows an alert in tabs_context_mcp, refuses other tools with dialog_open, and accepts it', async function () {
    const info = await openDialog({ type: 'alert', message: 'Careful now' });
    expect(info.dialog).to.deep.equal({ type: 'alert', message: 'Careful now' });
    const text = server.text(await server.ok('tabs_context_mcp'));
    expect(text).to.include('dialog open: alert "Careful now"');

    for (const [name, args] of [
      ['computer', { tabId, action: 'screenshot' }],
      ['navigate', { tabId, url: fixtures.url('/second.html') }],
    ]) {
      const refused = await server.call(name, args);
      expect(refused.isError, name).to.equal(true);
      const error = errorOf(refused);
      expect(error.code, name).to.equal('dialog_open');
      expect(error.dialog).to.deep.equal({ type: 'alert', message: 'Careful now' });
      expect(refused.content[0].text).to.match(/^dialog_open: .*firefox_dialog/);
    }

    const closed = await server.ok('firefox_dialog', { tabId, action: 'accept' });
    expect(closed.structuredContent.closed).to.deep.equal({ type: 'alert', message: 'Careful now' });
    expect(closed.structuredContent.action).to.equal('accept');
    const after = await waitFor(async () => ((await tabInfo()).title.startsWith('answered') ? tabInfo() : null), 5_000);
    expect(after.title).to.equal('answered alert: null');
    expect(after.dialog).to.equal(undefined);
  });

  it('accepts and dismisses a confirm', async function () {
    await openDialog({ type: 'confirm', message: 'Delete it?' });
    const accepted = await server.ok('firefox_dialog', { tabId, action: 'accept' });
    expect(accepted.structuredContent.closed).to.deep.equal({ type: 'confirm', message: 'Delete it?' });
    expect((await waitFor(async () => ((await tabInfo()).title.startsWith('answered') ? tabInfo() : null), 5_000)).title).to.equal('answered confirm: true');

    await openDialog({ type: 'confirm', message: 'Really?' });
    await server.ok('firefox_dialog', { tabId, action: 'dismiss' });
    expect((await waitFor(async () => ((await tabInfo()).title.startsWith('answered') ? tabInfo() : null), 5_000)).title).to.equal('answered confirm: false');
  });

  it('answers a prompt with text, and dismisses one to null', async function () {
    const info = await openDialog({ type: 'prompt', message: 'Your name?', default: 'Ann' });
    expect(info.dialog).to.deep.equal({ type: 'prompt', message: 'Your name?', defaultValue: 'Ann' });
    const answered = await server.ok('firefox_dialog', { tabId, action: 'accept', text: 'Grace Hopper' });
    expect(answered.structuredContent.closed.type).to.equal('prompt');
    expect(answered.structuredContent.text).to.equal('Grace Hopper');
    expect((await waitFor(async () => ((await tabInfo()).title.startsWith('answered') ? tabInfo() : null), 5_000)).title).to.equal('answered prompt: "Grace Hopper"');

    await openDialog({ type: 'prompt', message: 'Again?' });
    const wrong = await server.call('firefox_dialog', { tabId, action: 'dismiss', text: 'ignored' });
    expect(errorOf(wrong).code).to.equal('invalid_arguments');
    expect((await tabInfo()).dialog?.type, 'a refused call leaves the dialog open').to.equal('prompt');
    await server.ok('firefox_dialog', { tabId, action: 'dismiss' });
    expect((await waitFor(async () => ((await tabInfo()).title.startsWith('answered') ? tabInfo() : null), 5_000)).title).to.equal('answered prompt: null');
  });

  it('ends navigate at once with dialog_open when the page alerts while loading', async function () {
    const started = Date.now();
    const result = await server.call('navigate', { tabId, url: fixtures.url('/dialogs/while-loading.html') });
    const elapsed = Date.now() - started;
    expect(errorOf(result)?.code).to.equal('dialog_open');
    expect(errorOf(result).dialog).to.deep.equal({ type: 'alert', message: 'Loading interrupted' });
    // Far below the 20 s navigation timeout: the call did not wait for it.
    expect(elapsed).to.be.below(5_000);
    await server.ok('firefox_dialog', { tabId, action: 'accept' });
    const info = await waitFor(async () => ((await tabInfo()).title === 'alert while loading' ? tabInfo() : null), 5_000);
    expect(info?.url).to.equal(fixtures.url('/dialogs/while-loading.html'));
  });

  it('answers navigate with the page it reached and the dialog the page opened once loaded, not an error', async function () {
    const result = await server.ok('navigate', { tabId, url: fixtures.url('/dialogs/after-load.html') });
    expect(result.structuredContent).to.include({ url: fixtures.url('/dialogs/after-load.html'), title: 'alert after load' });
    expect(result.structuredContent.dialog).to.deep.equal({ type: 'alert', message: 'Welcome back' });
    expect(server.text(result)).to.include('The page loaded, then opened an alert dialog: "Welcome back". Call firefox_dialog');
    await server.ok('firefox_dialog', { tabId, action: 'accept' });
    expect(server.text(await server.ok('read_page', { tabId }))).to.include('drawing');
  });

  it('ends navigate with dialog_open on a beforeunload dialog; dismiss stays, accept leaves', async function () {
    await server.ok('navigate', { tabId, url: fixtures.url('/dialogs/beforeunload.html') });
    const started = Date.now();
    const result = await server.call('navigate', { tabId, url: fixtures.url('/second.html') });
    expect(Date.now() - started).to.be.below(5_000);
    expect(errorOf(result)?.code).to.equal('dialog_open');
    expect(errorOf(result).dialog.type).to.equal('beforeunload');

    const stayed = await server.ok('firefox_dialog', { tabId, action: 'dismiss' });
    expect(stayed.structuredContent.closed.type).to.equal('beforeunload');
    expect((await tabInfo()).url).to.equal(fixtures.url('/dialogs/beforeunload.html'));

    const again = await server.call('navigate', { tabId, url: fixtures.url('/second.html') });
    expect(errorOf(again)?.code).to.equal('dialog_open');
    await server.ok('firefox_dialog', { tabId, action: 'accept' });
    const left = await waitFor(async () => ((await tabInfo()).url === fixtures.url('/second.html') ? tabInfo() : null), 5_000);
    expect(left, 'accepting lets the navigation go on').to.exist;
  });

  it('surfaces beforeunload when tabs_close_mcp closes a tab: dismiss keeps it, accept closes it', async function () {
    const created = await server.ok('tabs_create_mcp', { url: fixtures.url('/dialogs/beforeunload.html') });
    const id = created.structuredContent.tabId;
    const refused = await server.call('tabs_close_mcp', { tabId: id });
    expect(errorOf(refused)?.code).to.equal('dialog_open');
    expect(errorOf(refused).dialog.type).to.equal('beforeunload');
    expect((await tabInfo(id))?.dialog?.type).to.equal('beforeunload');

    await server.ok('firefox_dialog', { tabId: id, action: 'dismiss' });
    const kept = await tabInfo(id);
    expect(kept, 'dismiss keeps the tab').to.exist;
    expect(kept.dialog).to.equal(undefined);

    await server.call('tabs_close_mcp', { tabId: id });
    const accepted = await server.ok('firefox_dialog', { tabId: id, action: 'accept' });
    expect(accepted.structuredContent.tabClosed).to.equal(true);
    expect(await tabInfo(id)).to.equal(undefined);
    const next = await server.call('computer', { tabId: id, action: 'screenshot' });
    expect(errorOf(next).code).to.equal('tab_closed');
  });

  it('closes a tab that has an alert open, with the alert', async function () {
    const id = (await server.ok('tabs_create_mcp', {})).structuredContent.tabId;
    await openDialog({ type: 'alert', message: 'stuck' }, id);
    const closed = await server.ok('tabs_close_mcp', { tabId: id });
    expect(closed.structuredContent.closed).to.equal(id);
    expect(await tabInfo(id)).to.equal(undefined);
  });
});
