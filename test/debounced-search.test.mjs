// Keys into a field that filters other content answer with the filtered content, read once the page's debounce
// has run; keys into a plain field do not wait for it.
import { expect } from 'chai';
import { refOf, useBrowser } from './helpers/browser-suite.mjs';

describe('typing into a search box that filters after a pause', function () {
  let fixtures;
  let server;
  let tabId;
  const browser = useBrowser();
  beforeEach(function () {
    ({ fixtures, server, tabId } = browser);
  });

  it('answers with the filtered list, though the box re-set its own value attribute at once', async function () {
    const { snapshot } = (await server.ok('navigate', { tabId, url: fixtures.url('/delta/debounced-search.html') })).structuredContent;
    const typed = await server.ok('computer', { tabId, action: 'type', ref: refOf(snapshot, /searchbox "Filter customers"/), text: 'oslo' });
    const text = server.text(typed);
    expect(text).to.match(/searchbox "Filter customers" \[ref=ref_\d+\] \[value="oslo"\]/);
    expect(text, text).to.match(/text: Eve from Oslo/).and.match(/removed: 4 listitems/);
    const plain = await server.ok('computer', { tabId, action: 'type', ref: refOf(snapshot, /textbox "Note"/), text: 'hi' });
    expect(server.text(plain)).to.match(/textbox "Note" \[ref=ref_\d+\] \[value="hi"\]/);
  });
});
