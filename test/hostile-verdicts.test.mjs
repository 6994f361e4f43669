// Pages that try to make an action's reply lie: an element swapped under the pointer on hover, a click handler
// that hangs the page, focus moved away in the middle of typing. The reply must say what happened.
import { expect } from 'chai';
import { useBrowser } from './helpers/browser-suite.mjs';
import { waitFor } from './helpers/processes.mjs';

async function refOf(server, tabId, selector) {
  return (await server.ok('test_ref_for_selector', { tabId, selector })).structuredContent.ref;
}

async function textOf(server, tabId, selector, frame) {
  return (await server.ok('test_text_of_selector', { tabId, selector, ...(frame === undefined ? {} : { frame }) })).structuredContent.text;
}

describe('hostile pages: replies that stay true', function () {
  this.timeout(120_000);
  let fixtures;
  let server;
  let tabId;
  const browser = useBrowser({ args: ['--isolated', '--timeout-action', '3000'], env: { FIREFOX_USE_TEST_TOOLS: '1' } });
  beforeEach(function () {
    ({ fixtures, server, tabId } = browser);
  });

  for (const mode of ['replace', 'rename', 'cover']) {
    it(`never presses "Delete account" that the page put under the pointer on hover (${mode})`, async function () {
      await server.ok('navigate', { tabId, url: fixtures.url(`/hostile/swap.html?mode=${mode}`) });
      const ref = await refOf(server, tabId, '#cancel');
      const click = await server.call('computer', { tabId, action: 'left_click', ref });
      const text = server.text(click);
      // An error, never success prose: nothing was pressed.
      expect(click.isError, text).to.equal(true);
      expect(click.structuredContent.error, text).to.include({ code: 'target_occluded', ref, delivered: false });
      expect(text).to.match(/NOT pressed/);
      expect(text).to.include('Delete account');
      expect(await textOf(server, tabId, '#log')).to.equal('nothing yet');
    });
  }

  for (const [mode, paste] of [['replace', false], ['cover', false], ['replace', true]]) {
    it(`types into a field by ref only after the same press check: never presses "Delete account" put there on hover (${mode}${paste ? ', paste' : ''})`, async function () {
      await server.ok('navigate', { tabId, url: fixtures.url(`/hostile/swap.html?mode=${mode}&field=1`) });
      const ref = await refOf(server, tabId, '#cancel');
      const typed = await server.call('computer', { tabId, action: 'type', ref, text: 'hello', ...(paste ? { paste: true } : {}) });
      const text = server.text(typed);
      expect(typed.isError, text).to.equal(true);
      expect(typed.structuredContent.error, text).to.include({ code: 'target_occluded', ref, delivered: false });
      expect(text).to.match(/NOT pressed/);
      expect(text).to.include('Delete account');
      expect(text).to.match(/Nothing was (typed|pasted)/);
      expect(await textOf(server, tabId, '#log')).to.equal('nothing yet');
    });
  }

  it('says the press landed on another element when the page swapped it after the pointer arrived', async function () {
    await server.ok('navigate', { tabId, url: fixtures.url('/hostile/swap.html?mode=late') });
    const ref = await refOf(server, tabId, '#cancel');
    // Hover first; the swap comes 150 ms later, after the check: the press reaches the new button.
    await server.ok('computer', { tabId, action: 'hover', ref });
    expect(await waitFor(async () => (await server.call('test_text_of_selector', { tabId, selector: '#delete' })).structuredContent?.text === 'Delete account', 5_000)).to.equal(true);
    const click = await server.call('computer', { tabId, action: 'left_click', coordinate: [100, 60] });
    expect(server.text(click)).to.include('Delete account');
  });

  for (const when of ['click', 'later', 'settle']) {
    it(`answers timeout with unknown_effects: true when the page hangs (${{ click: 'in its click handler', later: 'right after the click', settle: 'while the reply waits for it to settle' }[when]}), and clicks once`, async function () {
      await server.ok('navigate', { tabId, url: fixtures.url(`/hostile/hang-on-click.html?ms=7000&when=${when}`) });
      const ref = await refOf(server, tabId, '#go');
      const click = await server.call('computer', { tabId, action: 'left_click', ref });
      const text = server.text(click);
      expect(click.isError, text).to.equal(true);
      expect(click.structuredContent.error, text).to.include({ code: 'timeout', unknown_effects: true });
      expect(text).to.match(/may have happened/);
      let count = null;
      await waitFor(async () => {
        const read = await server.call('test_text_of_selector', { tabId, selector: '#count' });
        count = read.isError ? null : read.structuredContent.text;
        return count !== null;
      }, 30_000);
      expect(count).to.equal('1');
    });
  }

  it('answers focus_moved when the page moves focus after the first key, and the rest of the keys reach nothing', async function () {
    await server.ok('navigate', { tabId, url: fixtures.url('/hostile/focus-thief.html') });
    const ref = await refOf(server, tabId, '#name');
    const typed = await server.call('computer', { tabId, action: 'type', ref, text: 'Ann Smith' });
    const text = server.text(typed);
    expect(typed.isError, text).to.equal(true);
    expect(typed.structuredContent.error, text).to.include({ code: 'focus_moved', ref, delivered: false });
    expect(text).to.include('after key 1 of 9 the page moved focus to textbox "Amount" (input#amount); the other 8 were stopped before the page saw them');
    expect(await textOf(server, tabId, '#name')).to.equal('A');
    // The key gate stopped them: the field the page moved focus to got none.
    expect(await textOf(server, tabId, '#amount')).to.equal('');
  });

  it('answers focus_moved when the page moves focus into a frame after the first key, takes focus back and stops the rest', async function () {
    await server.ok('navigate', { tabId, url: fixtures.url('/hostile/focus-thief-frame.html') });
    const ref = await refOf(server, tabId, '#name');
    // The read-back goes out with the keys and waits for their keyups; those typed into the frame never come.
    const typed = await server.call('computer', { tabId, action: 'type', ref, text: 'Ann Smith' });
    const text = server.text(typed);
    expect(typed.isError, text).to.equal(true);
    expect(typed.structuredContent.error, text).to.include({ code: 'focus_moved', delivered: false });
    expect(text).to.include('after key 1 of 9 the page moved focus into iframe (iframe#pay) (firefox-use took focus back from it); the other 8 were stopped');
    expect(await textOf(server, tabId, '#name')).to.equal('A');
    // Focus was taken back from the frame before the next key: the frame's field got none of them.
    expect(await textOf(server, tabId, '#card', 0)).to.equal('');
  });

  it('answers focus_moved for typing without a ref when the page moves focus after the first key', async function () {
    await server.ok('navigate', { tabId, url: fixtures.url('/hostile/focus-thief.html') });
    await server.ok('computer', { tabId, action: 'left_click', ref: await refOf(server, tabId, '#name') });
    const typed = await server.call('computer', { tabId, action: 'type', text: 'Ann' });
    const text = server.text(typed);
    expect(typed.structuredContent.error, text).to.include({ code: 'focus_moved', delivered: false });
    expect(text).to.include('textbox "Amount"');
    expect(await textOf(server, tabId, '#amount')).to.equal('');
  });
});
