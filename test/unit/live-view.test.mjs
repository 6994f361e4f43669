// The live view's and the hand-off's pure pieces: the person's input as WebDriver actions and the picture-to-CSS
// mapping, the held tabs, runHandOff's endings (every one releases the hold), the arguments the view shows, and the
// page's CSP and script (no markup from outside).
import { expect } from 'chai';
import { frameToViewport, personActions } from '../../dist/browser/tab/person-input.js';
import { HandOffs, runHandOff } from '../../dist/mcp/live/hand-off.js';
import { liveArgs } from '../../dist/mcp/live/live-session.js';
import { LIVE_CSP, LIVE_HTML } from '../../dist/mcp/live/page.js';
import { LIVE_SCRIPT } from '../../dist/mcp/live/page-script.js';
import { computerTool } from '../../dist/tools/computer.js';
import { formInputTool } from '../../dist/tools/form-input.js';

const never = () => new Promise(() => undefined);

function fakeSession({ url = 'http://127.0.0.1:9/live/s/x', offer = never } = {}) {
  return { handOffs: new HandOffs(), liveUrl: () => url, offerHandOff: offer, whenTabCloses: never };
}

describe('live view: the person\'s input', function () {
  it('maps a point of the picture to CSS pixels at the capture\'s scale, inside the viewport', function () {
    expect(frameToViewport({ x: 300, y: 100 }, 2, { width: 1280, height: 800 })).to.deep.equal({ x: 150, y: 50 });
    expect(frameToViewport({ x: 5000, y: -4 }, 1, { width: 1280, height: 800 })).to.deep.equal({ x: 1279, y: 0 });
  });

  it('builds a click, a wheel turn, a chord and typed text as WebDriver actions', function () {
    const [click] = personActions({ kind: 'click', at: { x: 0, y: 0 }, button: 2, count: 1 }, { x: 10, y: 20 });
    expect(click.type).to.equal('pointer');
    expect(click.actions).to.deep.equal([{ type: 'pointerMove', x: 10, y: 20, origin: 'viewport' }, { type: 'pointerDown', button: 2 }, { type: 'pointerUp', button: 2 }]);
    const [wheel] = personActions({ kind: 'wheel', at: { x: 0, y: 0 }, dx: 0, dy: 1e9 }, { x: 1, y: 2 });
    expect(wheel.actions[0]).to.include({ type: 'scroll', deltaY: 5000, x: 1, y: 2 });
    const [chord] = personActions({ kind: 'key', key: 'a', modifiers: ['ctrl', 'shift'] }, null);
    expect(chord.actions.map((action) => `${action.type}:${action.value}`)).to.deep.equal(['keyDown:\uE009', 'keyDown:\uE008', 'keyDown:a', 'keyUp:a', 'keyUp:\uE008', 'keyUp:\uE009']);
    const [enter] = personActions({ kind: 'key', key: 'Enter', modifiers: [] }, null);
    expect(enter.actions[0].value).to.equal('\uE007');
    const [typed] = personActions({ kind: 'text', text: 'hé\n👍🏽' }, null);
    expect(typed.actions.filter((action) => action.type === 'keyDown').map((action) => action.value)).to.deep.equal(['h', 'é', '\uE007', '👍🏽']);
    expect(personActions({ kind: 'key', key: 'NoSuchKey', modifiers: [] }, null)).to.equal(undefined);
  });
});

describe('hand-off: held tabs and their endings', function () {
  it('holds a tab: calls on it are refused with until, input counts only while held, Done ends it', async function () {
    const holds = new HandOffs();
    expect(holds.noteInput(3)).to.equal(false);
    const { finished, release } = holds.hold(3, 'Solve it', 60_000);
    expect(() => holds.assertFree(3)).to.throw().with.property('code', 'held_by_person');
    try {
      holds.assertFree(3);
    } catch (error) {
      expect(error.details.until).to.match(/^\d{4}-\d\d-\d\dT/);
      expect(error.message).to.include('Solve it');
    }
    holds.assertFree(4);
    expect(holds.noteInput(3)).to.equal(true);
    expect(holds.done(3, 'ok')).to.equal(true);
    expect(await finished).to.equal('ok');
    expect(release().inputs).to.equal(1);
    expect(holds.get(3)).to.equal(undefined);
    expect(holds.done(3, null)).to.equal(false);
  });

  it('refuses with no_live_view when no person can be reached, holding nothing', async function () {
    const session = fakeSession({ url: null });
    const error = await runHandOff(session, { tabId: 1, task: 'x', timeoutMs: 1000 }, false, new AbortController().signal).catch((e) => e);
    expect(error.code).to.equal('no_live_view');
    expect(session.handOffs.list()).to.deep.equal([]);
  });

  it('ends with Done in the view (the inputs counted), or human_timeout, releasing the hold either way', async function () {
    const session = fakeSession();
    const running = runHandOff(session, { tabId: 2, task: 'x', timeoutMs: 5_000 }, false, new AbortController().signal);
    expect(session.handOffs.get(2)).to.include({ task: 'x' });
    session.handOffs.noteInput(2);
    session.handOffs.noteInput(2);
    session.handOffs.done(2, 'done it');
    expect(await running).to.include({ note: 'done it', inputs: 2, via: 'live_view' });
    expect(session.handOffs.get(2)).to.equal(undefined);
    const timedOut = await runHandOff(session, { tabId: 2, task: 'x', timeoutMs: 30 }, false, new AbortController().signal).catch((e) => e);
    expect(timedOut.code).to.equal('human_timeout');
    expect(session.handOffs.get(2)).to.equal(undefined);
  });

  it('takes the client\'s answer: done with its note, declined; a dismissed question leaves the view\'s request', async function () {
    const done = await runHandOff(fakeSession({ offer: async () => ({ answer: 'done', note: 'via client' }) }), { tabId: 1, task: 'x', timeoutMs: 5_000 }, false, new AbortController().signal);
    expect(done).to.include({ via: 'client', note: 'via client' });
    const declined = await runHandOff(fakeSession({ offer: async () => ({ answer: 'declined' }) }), { tabId: 1, task: 'x', timeoutMs: 5_000 }, false, new AbortController().signal).catch((e) => e);
    expect(declined.code).to.equal('human_declined');
    const session = fakeSession({ offer: async () => ({ answer: 'dismissed' }) });
    const running = runHandOff(session, { tabId: 1, task: 'x', timeoutMs: 5_000 }, false, new AbortController().signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(session.handOffs.get(1)).to.be.an('object');
    session.handOffs.done(1, null);
    expect(await running).to.include({ via: 'live_view', note: null });
  });

  it('is released when the call is cancelled, and withdraws the client\'s question', async function () {
    let withdrawn = false;
    const session = fakeSession({ offer: (message, timeoutMs, callSignal, stop) => new Promise((resolve) => stop.addEventListener('abort', () => ((withdrawn = true), resolve({ answer: 'dismissed' })))) });
    const controller = new AbortController();
    const running = runHandOff(session, { tabId: 1, task: 'x', timeoutMs: 5_000 }, false, controller.signal);
    controller.abort();
    const error = await running.catch((e) => e);
    expect(error.name).to.equal('CallCancelled');
    expect(session.handOffs.get(1)).to.equal(undefined);
    expect(withdrawn).to.equal(true);
  });
});

describe('live view: what the page shows, and how', function () {
  it('shows typed text as its length only, and leaves tabId and computer\'s action to the card\'s head', function () {
    expect(liveArgs(computerTool, { tabId: 1, action: 'type', text: 'hunter2', ref: 'ref_3' })).to.deep.equal([
      { name: 'text', value: '7 characters (typed text is not shown live)' },
      { name: 'ref', value: '"ref_3"' },
    ]);
    expect(liveArgs(formInputTool, { tabId: 1, ref: 'ref_1', value: 'secret' })[1].value).to.match(/^6 characters/);
    expect(liveArgs(computerTool, { tabId: 1, action: 'key', text: 'Enter' })).to.deep.equal([{ name: 'text', value: '"Enter"' }]);
  });

  it('allows only its own script and style (by hash), data: images and its own server', function () {
    expect(LIVE_CSP).to.include("default-src 'none'").and.include("script-src 'sha256-").and.include("connect-src 'self'").and.include("frame-ancestors 'none'");
    expect(LIVE_CSP).to.not.include('unsafe');
    expect(LIVE_HTML).to.include(LIVE_SCRIPT);
    // Text from pages and agents goes in as text: the script never parses markup.
    expect(LIVE_SCRIPT).to.not.match(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
  });
});
