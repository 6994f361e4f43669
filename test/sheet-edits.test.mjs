// A row named by its cells says its new cells when they change; an empty cell only re-styled gets no line.
import { expect } from 'chai';
import { refOf, useBrowser } from './helpers/browser-suite.mjs';

describe('cells that change inside a re-styled row', function () {
  let fixtures;
  let server;
  let tabId;
  const browser = useBrowser();
  beforeEach(function () {
    ({ fixtures, server, tabId } = browser);
  });

  it('names the row with its new cells, and says nothing of an empty cell a highlight moved to', async function () {
    const { snapshot } = (await server.ok('navigate', { tabId, url: fixtures.url('/delta/sheet.html') })).structuredContent;
    const click = await server.ok('computer', { tabId, action: 'left_click', ref: refOf(snapshot, /button "Raise food"/) });
    const text = server.text(click);
    expect(text, text).to.match(/- row "Food 450 5400" \[ref=ref_\d+\]/);
    expect(text, text).not.to.match(/- cell \[ref=ref_\d+\]$/m);
  });
});
