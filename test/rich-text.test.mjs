// Rich-text fields as editors draw them: names a style sheet draws, the field's text once, a selection the next keys
// replace, and nothing said of a closed picker whose items were re-classed.
import { expect } from 'chai';
import { refOf, useBrowser } from './helpers/browser-suite.mjs';

describe('rich-text fields and their toolbars', function () {
  let fixtures;
  let server;
  let tabId;
  const browser = useBrowser();
  beforeEach(function () {
    ({ fixtures, server, tabId } = browser);
  });

  it('names a picker by the text its style draws, never by an icon font glyph, and lists the field\'s text once', async function () {
    const { snapshot } = (await server.ok('navigate', { tabId, url: fixtures.url('/delta/rich-text.html') })).structuredContent;
    expect(snapshot).to.match(/- button "Normal" \[ref=ref_\d+\] \[expanded=false\]/);
    // The icon's glyph is a private-use character: no name, its box says where it is.
    expect(snapshot).to.match(/- button \[ref=ref_\d+\] \[box=/);
    expect(snapshot).to.match(/- textbox \[ref=ref_\d+\] \[value="Agenda for Monday Second line"\]/);
    expect(snapshot.match(/Second line/g)).to.have.length(1);
  });

  it('says what a double click selected in the field, and nothing of the closed picker when the caret moves', async function () {
    await server.ok('navigate', { tabId, url: fixtures.url('/delta/rich-text.html') });
    const [word] = (await server.ok('find', { tabId, query: 'Second line' })).structuredContent.matches.filter((m) => m.role !== 'textbox');
    // On the word "Second", by its place on the screen: the field's line says what the next keys replace.
    const click = await server.ok('computer', { tabId, action: 'double_click', coordinate: [word.box.x + 10, word.box.y + word.box.height / 2] });
    const text = server.text(click);
    expect(text, text).to.match(/- textbox \[ref=ref_\d+\] \[value="Agenda for Monday Second line"\] \[selected="Second"\]/);
    // The label now says "Heading 1"; the items of the closed list changed class only: not "hidden".
    expect(text).to.match(/button "Heading 1"/);
    expect(text).not.to.match(/hidden:/);
    const key = await server.ok('computer', { tabId, action: 'key', text: 'ctrl+Home' });
    expect(server.text(key)).to.match(/button "Normal"/);
    expect(server.text(key)).not.to.match(/hidden:/);
  });

  it('says a picker\'s list closed by its first item and a count of the others', async function () {
    const { snapshot } = (await server.ok('navigate', { tabId, url: fixtures.url('/delta/rich-text.html') })).structuredContent;
    const opened = await server.ok('computer', { tabId, action: 'left_click', ref: refOf(snapshot, /button "Normal" \[ref=ref_\d+\] \[expanded=false\]/) });
    const heading = refOf(server.text(opened), /button "Heading 1"/);
    const chosen = server.text(await server.ok('computer', { tabId, action: 'left_click', ref: heading }));
    expect(chosen, chosen).to.match(/^- hidden: button "Heading 1" and 1 more$/m);
  });
});
