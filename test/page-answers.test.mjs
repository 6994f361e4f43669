// Issue 36 class 10: replies that said nothing of how the page reacted. A dialog's answer says what the page did
// once it closed, file_upload what the page did with the file, and a hover the tooltip that shows after its delay,
// also when the last hover's tooltip is leaving meanwhile.
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { refOf, useBrowser } from './helpers/browser-suite.mjs';

const UPLOADS = fileURLToPath(new URL('./fixtures/delta/upload/', import.meta.url));

describe('replies say how the page reacted', function () {
  let fixtures;
  let server;
  let tabId;
  const browser = useBrowser({ args: ['--isolated', '--upload-root', UPLOADS] });
  beforeEach(function () {
    ({ fixtures, server, tabId } = browser);
  });
  const open = async () => (await server.ok('navigate', { tabId, url: fixtures.url('/delta/reactions.html') })).structuredContent.snapshot;
  const act = (args) => server.ok('computer', { tabId, ...args });

  it('firefox_dialog dismiss and accept: what the page did once the confirm closed ("Cancelled", the row deleted)', async function () {
    const page = await open();
    const remove = refOf(page, /button "Delete Apollo"/);
    expect(server.text(await act({ action: 'left_click', ref: remove }))).to.include('a confirm dialog opened: "Delete Apollo?"');
    const dismissed = server.text(await server.ok('firefox_dialog', { tabId, action: 'dismiss' }));
    expect(dismissed).to.match(/^Dismissed the confirm dialog "Delete Apollo\?" on tab \d+\.\n- status \[ref=ref_\d+\]\n {2}- text: Cancelled$/);
    await act({ action: 'left_click', ref: remove });
    const accepted = server.text(await server.ok('firefox_dialog', { tabId, action: 'accept' }));
    expect(accepted).to.include('- text: Deleted Apollo');
    expect(accepted).to.match(/^- removed: row "Apollo Delete Apollo" from table \[ref=ref_\d+\]$/m);
    expect(accepted).not.to.include('Gemini');
  });

  it('an accepted prompt: the heading it renamed; an alert that changes nothing: no change', async function () {
    const page = await open();
    await act({ action: 'left_click', ref: refOf(page, /button "Rename"/) });
    const renamed = server.text(await server.ok('firefox_dialog', { tabId, action: 'accept', text: 'Missions' }));
    expect(renamed).to.match(/^- heading "Missions" \[ref=ref_\d+\] \[level=1\]$/m);
    // The same prompt dismissed: the page does nothing, and the reply says so.
    await act({ action: 'left_click', ref: refOf(page, /button "Rename"/) });
    expect(server.text(await server.ok('firefox_dialog', { tabId, action: 'dismiss' }))).to.match(/\nNo change on the page\.$/);
  });

  it('file_upload: the textarea the page filled from the file, the button it enabled, its status', async function () {
    const page = await open();
    const file = refOf(page, /file "Attachment"/);
    const reply = await server.ok('file_upload', { tabId, ref: file, paths: [`${UPLOADS}notes.txt`] });
    const text = server.text(reply);
    expect(text).to.match(new RegExp(`^${file} now holds: notes\\.txt`));
    expect(text).to.match(/^- button "Upload" \[ref=ref_\d+\]$/m);
    expect(text).to.match(/^- textbox "Contents" \[ref=ref_\d+\] \[multiline\] \[value="Minutes of the launch review\\n"\]$/m);
    expect(text).to.include('- text: Read notes.txt');
    expect(reply.structuredContent.delta).to.include('button "Upload"');
  });

  it('hover: a tooltip shown 400 ms after the pointer arrives, also while the last one fades out; no repeated trigger line', async function () {
    const page = await open();
    const first = server.text(await act({ action: 'hover', ref: refOf(page, /button "Danger"/) }));
    expect(first).to.match(/^- tooltip "Deletes the project forever" \[ref=ref_\d+\]$/m);
    // The trigger's aria-describedby shows nowhere: its line is not repeated as a change.
    expect(first).not.to.include('button "Danger"');
    const second = server.text(await act({ action: 'hover', ref: refOf(page, /button "Archive"/) }));
    expect(second).to.match(/^- tooltip "Keeps a copy in the archive" \[ref=ref_\d+\]$/m);
    expect(second).to.match(/^- removed: tooltip "Deletes the project forever"$/m);
    const away = server.text(await act({ action: 'hover', ref: refOf(page, /heading "Projects"/) }));
    expect(away).to.match(/^- removed: tooltip "Keeps a copy in the archive"$/m);
    expect(away).not.to.include('No change');
  });
});
