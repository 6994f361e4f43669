// The session's call watchers (src/mcp/call-watch.ts): each hears a call begin and end, in order, with its reply; a
// watcher that throws or rejects changes nothing for the others or the call.
import { expect } from 'chai';
import { CallWatchers } from '../../dist/mcp/call-watch.js';

describe('unit: call watchers', function () {
  it('makes nothing when no one watches', function () {
    const watchers = new CallWatchers();
    expect(watchers.begin('navigate', { tabId: 1 })).to.equal(null);
  });

  it('tells each watcher a call begin and end, with its id, tab, reply and duration', function () {
    const watchers = new CallWatchers();
    const heard = [];
    watchers.add({ callStarted: (call) => heard.push(['start', call.id, call.tool, call.tabId]), callEnded: (call) => heard.push(['end', call.id, call.result.content[0].text, typeof call.durationMs]) });
    const first = watchers.begin('computer', { tabId: 3, action: 'left_click' });
    const second = watchers.begin('tabs_context_mcp', {});
    watchers.end(second, { content: [{ type: 'text', text: 'tabs' }] });
    watchers.end(first, { content: [{ type: 'text', text: 'left_click ref_1: delivered.' }] });
    expect(heard).to.deep.equal([
      ['start', 1, 'computer', 3],
      ['start', 2, 'tabs_context_mcp', undefined],
      ['end', 2, 'tabs', 'number'],
      ['end', 1, 'left_click ref_1: delivered.', 'number'],
    ]);
  });

  it('keeps going past a watcher that throws or rejects, and stops telling one that was removed', async function () {
    const watchers = new CallWatchers();
    const heard = [];
    const original = process.stderr.write;
    const logged = [];
    process.stderr.write = (text) => logged.push(String(text)) > 0;
    try {
      watchers.add({ callStarted: () => { throw new Error('boom'); }, callEnded: async () => { throw new Error('late boom'); } });
      const remove = watchers.add({ callEnded: (call) => heard.push(call.id) });
      watchers.end(watchers.begin('find', {}), { content: [] });
      remove();
      watchers.end(watchers.begin('find', {}), { content: [] });
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.stderr.write = original;
    }
    expect(heard).to.deep.equal([1]);
    expect(logged).to.have.length(1);
    expect(logged[0]).to.contain('a call watcher failed (the calls go on): boom');
  });
});
