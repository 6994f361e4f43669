// Replies on page shapes met in apps nobody here tested (issue 36): rich-text fields and their toolbars (Quill),
// cells inside a re-styled row (jspreadsheet), a search box that filters after a pause (Grid.js), what an action
// shows or hides far from its target (pdf.js, Swagger UI). One browser for them all.
import { expect } from 'chai';
import { refOf, useBrowser } from './helpers/browser-suite.mjs';

describe('replies on the shapes of apps nobody here tested', function () {
  let fixtures;
  let server;
  let tabId;
  const browser = useBrowser();
  beforeEach(function () {
    ({ fixtures, server, tabId } = browser);
  });

  // Rich-text fields as editors draw them: names a style sheet draws, the field's text once, a selection the next keys
  // replace, and nothing said of a closed picker whose items were re-classed.
  describe('rich-text fields and their toolbars', function () {
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
    it('says nothing of a text that went and came back, nor the field\'s text twice', async function () {
      const { snapshot } = (await server.ok('navigate', { tabId, url: fixtures.url('/delta/rich-text.html') })).structuredContent;
      const checked = server.text(await server.ok('computer', { tabId, action: 'left_click', ref: refOf(snapshot, /button "Check spelling"/) }));
      expect(checked, checked).not.to.match(/No changes|Checking/);
      const [word] = (await server.ok('find', { tabId, query: 'Second line' })).structuredContent.matches.filter((m) => m.role !== 'textbox');
      await server.ok('computer', { tabId, action: 'double_click', coordinate: [word.box.x + 10, word.box.y + word.box.height / 2] });
      const typed = server.text(await server.ok('computer', { tabId, action: 'type', text: 'Third' }));
      expect(typed, typed).to.match(/^- textbox \[ref=ref_\d+\] \[value="Agenda for Monday Third line"\]/m);
      // The field's line gives its whole text: the paragraph that changed is not listed again under it.
      expect(typed.match(/Third line/g), typed).to.have.length(1);
    });
  });

  // A row named by its cells says its new cells when they change; an empty cell only re-styled gets no line.
  describe('cells that change inside a re-styled row', function () {
    it('names the row with its new cells, and says nothing of an empty cell a highlight moved to', async function () {
      const { snapshot } = (await server.ok('navigate', { tabId, url: fixtures.url('/delta/sheet.html') })).structuredContent;
      const click = await server.ok('computer', { tabId, action: 'left_click', ref: refOf(snapshot, /button "Raise food"/) });
      const text = server.text(click);
      expect(text, text).to.match(/- row "Food 450 5400" \[ref=ref_\d+\]/);
      expect(text, text).not.to.match(/- cell \[ref=ref_\d+\]$/m);
    });
  });

  // Keys into a field that filters other content answer with the filtered content, read once the page's debounce
  // has run; keys into a plain field do not wait for it.
  describe('typing into a search box that filters after a pause', function () {
    it('answers with the filtered list, though the box re-set its own value attribute at once', async function () {
      const { snapshot } = (await server.ok('navigate', { tabId, url: fixtures.url('/delta/debounced-search.html') })).structuredContent;
      const typed = await server.ok('computer', { tabId, action: 'type', ref: refOf(snapshot, /searchbox "Filter customers"/), text: 'oslo' });
      const text = server.text(typed);
      expect(text).to.match(/searchbox "Filter customers" \[ref=ref_\d+\] \[value="oslo"\]/);
      // The list was rebuilt: the items still there are the same to the agent (their refs hold); those gone are named.
      expect(text, text).to.match(/^- removed: listitem \(Bob from Lima\) from list/m).and.match(/^- removed: listitem \(Ivo from Pune\)/m);
      expect(text, text).not.to.match(/Oslo/);
      const eve = /- listitem \[ref=(ref_\d+)\]\n\s+- text: Eve from Oslo/.exec(snapshot)[1];
      expect(server.text(await server.ok('read_page', { tabId, ref_id: eve }))).to.include('Eve from Oslo');
      const plain = await server.ok('computer', { tabId, action: 'type', ref: refOf(snapshot, /textbox "Note"/), text: 'hi' });
      expect(server.text(plain)).to.match(/textbox "Note" \[ref=ref_\d+\] \[value="hi"\]/);
    });
  });

  // Pages that draw again what they show: a table rebuilt whole, a menu taken out of a holder taken out after it, a
  // modal that gives up its role as it closes, a text a virtual DOM put in anew.
  describe('what a page rebuilt', function () {
    it('names the one row a confirm let go when the table is drawn again, and the refs of the rows kept still work', async function () {
      const { snapshot } = (await server.ok('navigate', { tabId, url: fixtures.url('/delta/rebuilds.html') })).structuredContent;
      const remove = async (name) => {
        await server.ok('computer', { tabId, action: 'left_click', ref: refOf(snapshot, new RegExp(`button "Remove ${name}"`)) });
        return server.text(await server.ok('firefox_dialog', { tabId, action: 'accept' }));
      };
      const removed = await remove('Bob Stone');
      expect(removed, removed).to.match(/^- removed: row "Bob Stone Remove Bob Stone" from table "Users"/m);
      expect(removed, removed).not.to.match(/Ann Lee|Cy Young|Dee Park/);
      // A ref read before the table was drawn again leads to the same row's button.
      const again = await remove('Dee Park');
      expect(again, again).to.match(/^- removed: row "Dee Park Remove Dee Park"/m);
    });

    it('says a menu closed though it left its holder before the holder left the page', async function () {
      const { snapshot } = (await server.ok('navigate', { tabId, url: fixtures.url('/delta/rebuilds.html') })).structuredContent;
      const opened = server.text(await server.ok('computer', { tabId, action: 'left_click', ref: refOf(snapshot, /button "Actions"/) }));
      expect(opened, opened).to.match(/menuitem "Export"/);
      const closed = server.text(await server.ok('computer', { tabId, action: 'key', text: 'Escape' }));
      expect(closed, closed).to.match(/^- closed: menu "Actions"$/m);
    });

    it('says a dialog closed though it gave up its role as it closed', async function () {
      const { snapshot } = (await server.ok('navigate', { tabId, url: fixtures.url('/delta/rebuilds.html') })).structuredContent;
      const opened = server.text(await server.ok('computer', { tabId, action: 'left_click', ref: refOf(snapshot, /button "Settings"/) }));
      const closed = server.text(await server.ok('computer', { tabId, action: 'left_click', ref: refOf(opened, /button "Close"/) }));
      expect(closed, closed).to.match(/^- closed: dialog "Preferences"$/m);
      expect(closed, closed).not.to.match(/hidden:/);
    });

    it('counts the rows drawn anew though the first of them is hidden', async function () {
      const { snapshot } = (await server.ok('navigate', { tabId, url: fixtures.url('/delta/rebuilds.html') })).structuredContent;
      const next = server.text(await server.ok('computer', { tabId, action: 'left_click', ref: refOf(snapshot, /button "Next week"/) }));
      const listed = (next.match(/^- row "\d+ am"/gm) ?? []).length;
      const counted = Number(/^- \((\d+) more rows added/m.exec(next)?.[1] ?? 0);
      expect(listed + counted, next).to.be.at.least(8);
    });

    it('names the one control a roleless holder drawn again held', async function () {
      const { snapshot } = (await server.ok('navigate', { tabId, url: fixtures.url('/delta/rebuilds.html') })).structuredContent;
      const typed = server.text(await server.ok('computer', { tabId, action: 'type', ref: refOf(snapshot, /searchbox "Search the wiki"/), text: 'b' }));
      expect(typed, typed).to.match(/^- removed: button "Advanced search"$/m).and.match(/^- button "Clear search" \[ref=ref_\d+\]/m);
    });

    it('names the field a key went to, though the key took the field out of the page', async function () {
      const { snapshot } = (await server.ok('navigate', { tabId, url: fixtures.url('/delta/rebuilds.html') })).structuredContent;
      await server.ok('computer', { tabId, action: 'left_click', ref: refOf(snapshot, /textbox "Cell editor"/) });
      const committed = server.text(await server.ok('computer', { tabId, action: 'key', text: 'Enter' }));
      expect(committed, committed).to.match(/^key on textbox "Cell editor": delivered\./);
    });

    it('says nothing of a text put in anew the same', async function () {
      const { snapshot } = (await server.ok('navigate', { tabId, url: fixtures.url('/delta/rebuilds.html') })).structuredContent;
      const touched = server.text(await server.ok('computer', { tabId, action: 'left_click', ref: refOf(snapshot, /button "Touch"/) }));
      expect(touched, touched).to.match(/\nNo change on the page\.$/);
    });
  });

  // What an action shows or hides far from its target: the element a toggle names in aria-controls, shown and hidden
  // by a class on <body>; and what a wrapper without a role held when it was taken out.
  describe('changes far from the target', function () {
    it('says what the toggle\'s aria-controls showed and hid, though a class on <body> did it', async function () {
      const { snapshot } = (await server.ok('navigate', { tabId, url: fixtures.url('/delta/far-toggle.html') })).structuredContent;
      const toggle = refOf(snapshot, /button "Toggle Sidebar"/);
      const opened = server.text(await server.ok('computer', { tabId, action: 'left_click', ref: toggle }));
      expect(opened, opened).to.match(/button "Thumbnails" \[ref=ref_\d+\]/).and.match(/link "Page 2" \[ref=ref_\d+\]/);
      const closed = server.text(await server.ok('computer', { tabId, action: 'left_click', ref: toggle }));
      expect(closed, closed).to.match(/- hidden: button "Thumbnails" and 3 more/);
    });

    it('says what a control that collapsed names in aria-controls went hidden, though a key elsewhere closed it', async function () {
      const { snapshot } = (await server.ok('navigate', { tabId, url: fixtures.url('/delta/far-toggle.html') })).structuredContent;
      const opened = server.text(await server.ok('computer', { tabId, action: 'left_click', ref: refOf(snapshot, /button "Find"/) }));
      expect(opened, opened).to.match(/textbox "Find in document"/);
      const closed = server.text(await server.ok('computer', { tabId, action: 'key', text: 'Escape' }));
      expect(closed, closed).to.match(/^- button "Find" \[ref=ref_\d+\] \[expanded=false\]/m).and.match(/^- hidden: textbox "Find in document" and 2 more$/m);
    });

    it('names the parts a roleless wrapper held when they were taken out', async function () {
      const { snapshot } = (await server.ok('navigate', { tabId, url: fixtures.url('/delta/far-toggle.html') })).structuredContent;
      const text = server.text(await server.ok('computer', { tabId, action: 'left_click', ref: refOf(snapshot, /button "Collapse"/) }));
      expect(text, text).to.match(/- removed: heading "Parameters", button "Try it out", table\b/);
    });
  });
});
