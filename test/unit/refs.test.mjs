// The ref registry stays bounded on pages that re-render for hours, and still says the truth about forgotten refs.
import { expect } from 'chai';
import { RefRegistry } from '../../dist/browser/tab/refs.js';

const staleReason = (fn) => {
  try {
    fn();
  } catch (error) {
    return { code: error.code, reason: error.details.reason, message: error.message };
  }
  return null;
};

describe('ref registry bounds', function () {
  it('forgets the least recently seen refs past its capacity, keeping the ones still being seen', function () {
    const refs = new RefRegistry(3);
    const a = refs.refFor(1, 'ctx', 'doc', 1);
    const b = refs.refFor(1, 'ctx', 'doc', 2);
    refs.refFor(1, 'ctx', 'doc', 3);
    expect(refs.refFor(1, 'ctx', 'doc', 1), 'seen again: same ref').to.equal(a);
    refs.refFor(1, 'ctx', 'doc', 4);
    expect(refs.size).to.equal(3);
    expect(refs.lookup(a, 1).localId).to.equal(1);
    const gone = staleReason(() => refs.lookup(b, 1));
    expect(gone).to.include({ code: 'ref_stale', reason: 'not_in_snapshot' });
    expect(gone.message).to.match(/long gone/);
    // The element behind a forgotten ref gets a new ref, never the old one back.
    expect(refs.refFor(1, 'ctx', 'doc', 2)).to.not.equal(b);
  });

  it('forgets a closed tab\'s refs, and tells never-issued refs apart from forgotten ones', function () {
    const refs = new RefRegistry();
    const mine = refs.refFor(1, 'ctx1', 'doc', 1);
    const other = refs.refFor(2, 'ctx2', 'doc', 1);
    refs.forgetTab(1);
    expect(refs.size).to.equal(1);
    expect(staleReason(() => refs.lookup(mine, 1)).message).to.match(/tab that closed/);
    expect(staleReason(() => refs.lookup('ref_999', 1)).message).to.match(/never issued/);
    expect(staleReason(() => refs.lookup(other, 1))).to.include({ code: 'ref_stale', reason: 'other_document' });
  });

  it('counts refs within each tab group: one group\'s numbers say nothing of another\'s, and its names find none of another\'s', function () {
    const groups = { 1: 'alice', 2: 'bob' };
    const refs = new RefRegistry(100, (tabId) => groups[tabId] ?? null);
    for (let i = 1; i <= 5; i++) refs.refFor(1, 'ctxA', 'doc', i);
    expect(refs.refFor(2, 'ctxB', 'doc', 1)).to.equal('ref_1');
    expect(refs.refFor(2, 'ctxB', 'doc', 2)).to.equal('ref_2');
    expect(refs.lookup('ref_1', 2)).to.include({ tabId: 2, localId: 1 });
    expect(refs.lookup('ref_1', 1)).to.include({ tabId: 1, localId: 1 });
    expect(refs.has('ref_5', 1)).to.equal(true);
    expect(refs.has('ref_5', 2)).to.equal(false);
    expect(staleReason(() => refs.lookup('ref_5', 2)).message).to.match(/never issued/);
  });
});
