// Issue 36 class 4: moved elements read as moved (from which place to which), not as new, and never as removed;
// places without a name (jKanban's columns: unnamed banner, main, footer) are told apart by the text heading them.
import { expect } from 'chai';
import { refOf, useBrowser } from './helpers/browser-suite.mjs';

describe('moved elements in a delta', function () {
  let fixtures;
  let server;
  let tabId;
  const browser = useBrowser();
  beforeEach(function () {
    ({ fixtures, server, tabId } = browser);
  });
  const open = async () => (await server.ok('navigate', { tabId, url: fixtures.url('/delta/board.html') })).structuredContent.snapshot;
  const boxOf = async (text) => (await server.ok('find', { tabId, query: text })).structuredContent.matches[0].box;
  const centre = (box) => [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)];
  const drag = async (from, to) => server.text(await server.ok('computer', { tabId, action: 'left_click_drag', start_coordinate: from, coordinate: to }));

  it('a card dragged to another column: moved from "To do" to "Done", after the card it follows; the columns\' counts under their titles', async function () {
    await open();
    const card = centre(await boxOf('Write release notes'));
    const ship = await boxOf('Ship 1.0');
    const text = await drag(card, [ship.x + ship.width / 2, ship.y + ship.height + 60]);
    expect(text).to.match(/^- moved: text "Write release notes" from main \(To do\) to main \(Done\), after text "Ship 1\.0"$/m);
    // Not a new subtree, not a removal, and no bare `- banner` line twice.
    expect(text).not.to.match(/removed|^- main$/m);
    expect(text).to.match(/^- banner \(To do\)\n {2}- text: 1$/m);
    expect(text).to.match(/^- banner \(Done\)\n {2}- text: 2$/m);
    expect(text.match(/^- banner$/gm)).to.equal(null);
    // Moved within its column: to the top.
    const again = await drag(centre(await boxOf('Write release notes')), centre(await boxOf('Ship 1.0')));
    expect(again).to.match(/^- moved: text "Write release notes" in main \(Done\), first$/m);
  });

  it('a list sorted by moving its items: the new order, counted as moved with the same refs, and nothing removed', async function () {
    const page = await open();
    const text = server.text(await server.ok('computer', { tabId, action: 'left_click', ref: refOf(page, /button "Sort by name"/) }));
    const shown = [...text.matchAll(/^ {2}- text: (\w+)$/gm)].map((m) => m[1]);
    expect(shown, text).to.deep.equal(['Archive', 'Bill', 'Count', 'Invoice', 'Label']);
    expect(text).to.match(/^- \(3 more listitems moved to new places \(same refs\) in list "Tasks" \[ref=ref_\d+\]; read_page with ref_id \[ref=ref_\d+\] reads them\)$/m);
    expect(text).not.to.include('removed');
    // The refs the page gave before still name the same items.
    const archive = refOf(page, /text: Archive/) ?? /- listitem \[ref=(ref_\d+)\]\n {4}- text: Archive/.exec(page)[1];
    expect(text).to.include(`[ref=${archive}]`);
  });

  it('an unnamed item moved between columns whose titles hold their count in a span: named by its text, the columns by their whole titles', async function () {
    const page = (await server.ok('navigate', { tabId, url: fixtures.url('/delta/count-board.html') })).structuredContent.snapshot;
    const text = server.text(await server.ok('computer', { tabId, action: 'left_click', ref: refOf(page, /button "Finish first"/) }));
    expect(text, text).to.match(/^- moved: listitem \(Write spec\) \[ref=ref_\d+\] from list \(To do \(1\)\) to list \(Done \(1\)\), first$/m);
    expect(text, text).not.to.include('removed');
  });
});
