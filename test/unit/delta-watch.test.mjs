// The delta watcher (src/browser/observe/delta.ts) without Firefox: a DeltaWatch on a real Tab whose connection is a
// scripted fake. The page's deltaFinish answers stand in for the MutationObserver; what is checked is the server's
// half: refs made global, the target's request, the cut, a popup named, frames joined, a lost document re-read.
import { expect } from 'chai';
import { DeltaWatch } from '../../dist/browser/observe/delta.js';
import { PageFailure, browserOnFake } from '../helpers/fake-bidi-link.mjs';

const URL = 'http://127.0.0.1:9/page';

/** A page delta of doc1 with these lines (page-local `[ref=#N]` placeholders). */
const delta = (lines, extra = {}) => ({ docId: 'doc1', lines, records: lines.length, truncated: false, ...extra });

async function watched() {
  const { link, browser, tab } = await browserOnFake({ actionTimeout: 2_000 });
  link.page('deltaStart', { docId: 'doc1' });
  const watch = new DeltaWatch(tab);
  await watch.startIn([tab.context]);
  const refOf = (id, context = tab.context, docId = 'doc1') => browser.refs.refFor(tab.id, context, docId, id);
  return { link, browser, tab, watch, refOf };
}

describe('unit: the delta watcher on a scripted connection', function () {
  it('renders the page\'s lines with global refs and names the menu the action opened', async function () {
    const { link, watch, refOf } = await watched();
    link.page('deltaFinish', {
      ...delta(['- button "Actions" [ref=#12] [expanded]', '- menu "Actions" [ref=#20]', '  - menuitem "Copy" [ref=#21]']),
      popup: { id: 20, role: 'menu', name: 'Actions', openedBy: 12, items: [21, 22], itemLines: ['- menuitem "Copy" [ref=#21]', '- menuitem "Paste" [ref=#22]'] },
    });
    const outcome = await watch.finish();
    expect(outcome.delta).to.equal(`- button "Actions" [ref=${refOf(12)}] [expanded]\n- menu "Actions" [ref=${refOf(20)}]\n  - menuitem "Copy" [ref=${refOf(21)}]`);
    expect(outcome).to.include({ navigated: false, truncated: false });
    expect(outcome.opened_popup).to.deep.equal({
      ref: refOf(20),
      role: 'menu',
      name: 'Actions',
      opened_by: refOf(12),
      items: [refOf(21), refOf(22)],
      item_lines: [`- menuitem "Copy" [ref=${refOf(21)}]`, `- menuitem "Paste" [ref=${refOf(22)}]`],
    });
  });

  it('asks the page to render the target first, and the focused field for keys', async function () {
    const { link, tab, refOf } = await watched();
    link.page('deltaFinish', delta([]));
    const keys = new DeltaWatch(tab, { keys: true });
    await keys.startIn([tab.context]);
    await keys.finish({ targetRef: refOf(7) });
    const asked = link.pageCalls.filter((c) => c.op === 'deltaFinish').at(-1).args;
    expect(asked).to.include({ token: keys.token, focusedField: true });
    expect(asked.target).to.deep.equal({ docId: 'doc1', id: 7 });
  });

  it('cuts the lines at max_chars and says so', async function () {
    const { link, watch } = await watched();
    const lines = Array.from({ length: 40 }, (_, i) => `- listitem "row ${i} of a long list that the action rendered"`);
    link.page('deltaFinish', delta(lines));
    const outcome = await watch.finish({ maxChars: 500 });
    expect(outcome.truncated).to.equal(true);
    expect(outcome.delta.length).to.be.at.most(500);
    expect(outcome.delta.split('\n').at(-1)).to.equal('- (delta cut at 500 chars; read_page shows the rest)');
    expect(outcome.delta.split('\n')[0]).to.equal(lines[0]);
  });

  it('joins a frame\'s delta after the top document\'s, and leaves out a frame that failed', async function () {
    const { link, tab, refOf } = await watched();
    for (const frame of ['frame-1', 'frame-2']) {
      link.emit('browsingContext.contextCreated', { context: frame, url: URL, children: null, parent: tab.context, userContext: 'default', originalOpener: null, clientWindow: 'w1' });
    }
    link.page('deltaStart', (args, { context }) => ({ docId: context === tab.context ? 'doc1' : `${context}-doc` }));
    link.page('deltaFinish', (args, { context }) => {
      if (context === 'frame-2') return new PageFailure('ref_stale', 'gone');
      return context === tab.context ? delta(['- status "Saved"']) : delta(['- checkbox "Remember" [ref=#4] [checked]'], { docId: 'frame-1-doc' });
    });
    const watch = new DeltaWatch(tab);
    await watch.startIn([tab.context, 'frame-1', 'frame-2']);
    const outcome = await watch.finish();
    expect(outcome.delta).to.equal(`- status "Saved"\n- checkbox "Remember" [ref=${refOf(4, 'frame-1', 'frame-1-doc')}] [checked]`);
  });

  it('fails with the top document\'s error when that one cannot answer', async function () {
    const { link, watch } = await watched();
    link.page('deltaFinish', new PageFailure('ref_stale', 'the document went away'));
    const error = await watch.finish().then(() => null, (e) => e);
    expect(error?.code).to.equal('ref_stale');
  });

  it('reads the new page as a capped snapshot when the watched document was replaced', async function () {
    const { link, watch } = await watched();
    link.page('deltaFinish', new PageFailure('delta_lost', 'the watched document is gone'));
    // The old document (doc1) may still answer first: only another docId counts as the new page.
    let asked = 0;
    link.page('pageInfo', () => ({ url: `${URL}/next`, title: 'Next', readyState: 'complete', docId: ++asked > 1 ? 'doc2' : 'doc1' }));
    link.page('waitQuiet', { quiet: true, waitedMs: 0 });
    link.page('snapshot', { url: `${URL}/next`, title: 'Next', docId: 'doc2', lines: ['- heading "Welcome" [ref=#1]'], omitted: 0, above: 0, below: 0, deeper: 0, truncated: false, hints: [], frames: [] });
    const outcome = await watch.finish();
    expect(asked).to.equal(2);
    expect(outcome).to.include({ navigated: true, url: `${URL}/next`, title: 'Next' });
    expect(outcome.delta).to.match(/^- heading "Welcome" \[ref=ref_\d+\]$/);
  });
});
