// What an action shows or hides far from its target: the element a toggle names in aria-controls, shown and hidden
// by a class on <body>; and what a wrapper without a role held when it was taken out.
import { expect } from 'chai';
import { refOf, useBrowser } from './helpers/browser-suite.mjs';

describe('changes far from the target', function () {
  let fixtures;
  let server;
  let tabId;
  const browser = useBrowser();
  beforeEach(function () {
    ({ fixtures, server, tabId } = browser);
  });

  it('says what the toggle\'s aria-controls showed and hid, though a class on <body> did it', async function () {
    const { snapshot } = (await server.ok('navigate', { tabId, url: fixtures.url('/delta/far-toggle.html') })).structuredContent;
    const toggle = refOf(snapshot, /button "Toggle Sidebar"/);
    const opened = server.text(await server.ok('computer', { tabId, action: 'left_click', ref: toggle }));
    expect(opened, opened).to.match(/button "Thumbnails" \[ref=ref_\d+\]/).and.match(/link "Page 2" \[ref=ref_\d+\]/);
    const closed = server.text(await server.ok('computer', { tabId, action: 'left_click', ref: toggle }));
    expect(closed, closed).to.match(/- hidden: button "Thumbnails" and 3 more/);
  });

  it('names the parts a roleless wrapper held when they were taken out', async function () {
    const { snapshot } = (await server.ok('navigate', { tabId, url: fixtures.url('/delta/far-toggle.html') })).structuredContent;
    const text = server.text(await server.ok('computer', { tabId, action: 'left_click', ref: refOf(snapshot, /button "Collapse"/) }));
    expect(text, text).to.match(/- removed: heading "Parameters", button "Try it out", table\b/);
  });
});
