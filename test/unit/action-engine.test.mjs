// The click engine's verdicts (src/browser/engine/action-engine.ts, called through mouse.ts, drag.ts and typing.ts) without Firefox: the computer tool's handlers run on a
// real Browser and Tab whose BiDi connection is a scripted fake. The page's answers are what the page scripts would
// say; what is checked is what the engine makes of them: the reply's verdict and the input it did (not) send.
import { expect } from 'chai';
import { computerTool } from '../../dist/tools/computer.js';
import { NEVER, PageFailure, browserOnFake } from '../helpers/fake-bidi-link.mjs';

const URL = 'http://127.0.0.1:9/page';
const CANCEL = { role: 'button', name: 'Cancel', selector: 'button#cancel' };

/** What the page answers to an aim at a ref (point, target, the delta's start). */
const aimed = (extra = {}) => ({ aim: { point: { x: 60, y: 30 }, target: CANCEL, docId: 'doc1' }, url: URL, title: 'Page', delta: { docId: 'doc1' }, ...extra });

/** A delivery report: by default every needed event reached the target. */
const report = (extra = {}) => ({ url: URL, title: 'Page', docId: 'doc1', found: true, delivered: true, seen: ['pointerdown', 'pointerup', 'click'], ...extra });

const noChange = { docId: 'doc1', lines: [], records: 0, truncated: false };

/** A tab over the fake, one ref (local id 7 of doc1 in the top document), and a page that answers a plain click. */
async function scene() {
  const { link, browser, tab } = await browserOnFake();
  const ref = browser.refs.refFor(tab.id, tab.context, 'doc1', 7);
  link.page('prepareAction', aimed());
  link.page('pressCheck', { ok: true });
  link.page('concludeAction', { delivery: report(), delta: noChange });
  // The input actions need only the tab of a tool's context (src/tools/context.ts).
  const act = (args) => computerTool.handler({ tab }, args);
  return { link, browser, tab, ref, act };
}

/** The input actions of every performActions sent, flattened: ['pointerMove', 'pointerDown', …]. */
function inputTypes(link) {
  return link.sentOf('input.performActions').flatMap((c) => c.params.actions.flatMap((source) => source.actions.map((a) => a.type)));
}

const failure = (promise) => promise.then(() => null, (error) => error);

describe('unit: the click engine on a scripted connection', function () {
  it('says delivered when the probe saw the press at the target, after the press check', async function () {
    const { link, ref, act } = await scene();
    const { structured, text } = await act({ action: 'left_click', ref });
    expect(text).to.equal(`left_click ${ref}: delivered.\nNo change on the page.`);
    expect(structured).to.include({ ok: true, delivered: true });
    // The pointer's move alone, the page's answer to it checked, then the press.
    expect(link.pageCalls.map((c) => c.op)).to.deep.equal(['prepareAction', 'pressCheck', 'concludeAction']);
    expect(link.sentOf('input.performActions').map((c) => c.params.actions[0].actions.map((a) => a.type))).to.deep.equal([
      ['pointerMove'],
      ['pointerDown', 'pointerUp'],
    ]);
  });

  it('answers target_occluded, NOT delivered, naming where the press went, when the probe saw it reach another element', async function () {
    const { link, ref, act } = await scene();
    link.page('concludeAction', { delivery: report({ delivered: false, seen: [], landed: 'pointerdown went to generic (div#mask)' }), delta: noChange });
    const error = await failure(act({ action: 'left_click', ref }));
    expect(error?.code).to.equal('target_occluded');
    expect(error.message).to.include(`left_click ${ref}: NOT delivered to the target (the input saw nothing at the target (pointerdown went to generic (div#mask))).`);
    expect(error.details).to.include({ ref, delivered: false });
  });

  it('answers target_occluded when the page\'s press gate stopped the press (a control swapped in as the button went down)', async function () {
    const { link, ref, act } = await scene();
    const pressStopped = { types: ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'], reason: 'the page put button "Delete account" (button#delete) under the pointer', afterPress: false };
    link.page('concludeAction', { delivery: report({ delivered: false, seen: [] }), delta: noChange, pressStopped });
    const error = await failure(act({ action: 'left_click', ref }));
    expect(error?.code).to.equal('target_occluded');
    expect(error.message).to.equal(
      `left_click ${ref}: NOT pressed: as the button went down, the page put button "Delete account" (button#delete) under the pointer; the press (pointerdown, mousedown, pointerup, mouseup, click) was stopped before the page saw it. Nothing was pressed.`,
    );
    // The gate is armed by the aim's own page call: no round trip more than a plain click.
    expect(link.pageCalls.map((c) => c.op)).to.deep.equal(['prepareAction', 'pressCheck', 'concludeAction']);
    expect(link.pageCalls[0].args.pressGate).to.equal(true);
  });

  it('stays delivered when only the release was kept from a control the page drew under the pointer after the press, and says so', async function () {
    const { link, ref, act } = await scene();
    const releaseKept = { types: ['pointerup', 'mouseup'], reason: 'the page put menuitem "Add note" (button#add-note) under the pointer', afterPress: true };
    link.page('concludeAction', { delivery: report({ seen: ['pointerdown'], after: 'pointerup then went to menuitem "Add note"' }), delta: noChange, releaseKept });
    const { structured, text } = await act({ action: 'left_click', ref });
    expect(structured).to.include({ ok: true, delivered: true });
    expect(text).to.include('After the press, the page put menuitem "Add note" (button#add-note) under the pointer; the release (pointerup, mouseup) was stopped before the page saw it.');
  });

  it('holds the press back when the press check finds the target changed: no pointerDown is sent', async function () {
    const { link, ref, act } = await scene();
    link.page('pressCheck', { ok: false, changed: 'it was replaced by button "Delete account"' });
    const error = await failure(act({ action: 'left_click', ref }));
    expect(error?.code).to.equal('target_occluded');
    expect(error.message).to.match(/NOT pressed: when the pointer reached it, it was replaced by button "Delete account"/);
    expect(error.details).to.include({ delivered: false });
    expect(inputTypes(link)).to.deep.equal(['pointerMove']);
  });

  it('refuses a ref under a tooltip for a wheel, with nothing dispatched', async function () {
    const { link, ref, act } = await scene();
    link.page('prepareAction', aimed({ aim: { point: { x: 60, y: 30 }, target: CANCEL, docId: 'doc1', throughTooltip: true } }));
    const error = await failure(act({ action: 'scroll', ref, scroll_direction: 'down' }));
    expect(error?.code).to.equal('target_occluded');
    expect(error.message).to.match(new RegExp(`^${ref}: it is covered by a tooltip; nothing was dispatched`));
    expect(link.sentOf('input.performActions')).to.have.length(0);
  });

  it('reports a write that times out with unknown_effects, and never sends it again', async function () {
    const { link, act } = await scene();
    link.page('prepareAction', { aim: { point: { x: 60, y: 30 }, target: CANCEL, docId: 'doc1' }, url: URL, title: 'Page', delta: { docId: 'doc1' } });
    link.answer('input.performActions', NEVER);
    const error = await failure(act({ action: 'left_click', coordinate: [60, 30] }));
    expect(error?.code).to.equal('timeout');
    expect(error.details.unknown_effects).to.equal(true);
    expect(error.message).to.match(/the action may have happened .*it was not sent again/);
    expect(link.sentOf('input.performActions')).to.have.length(1);
    // Released only after failures that are known: a timed-out press may still be going on.
    expect(link.sentOf('input.releaseActions')).to.have.length(0);
  });

  it('reports unknown effects when the input went out and the read-back (not a write) timed out', async function () {
    const { link, ref, act } = await scene();
    link.page('concludeAction', NEVER);
    const error = await failure(act({ action: 'left_click', ref }));
    expect(error?.code).to.equal('timeout');
    expect(error.details.unknown_effects).to.equal(true);
    expect(inputTypes(link)).to.deep.equal(['pointerMove', 'pointerDown', 'pointerUp']);
  });

  it('says nothing was done, without unknown effects, when the aim times out before any input', async function () {
    const { link, ref, act } = await scene();
    link.page('prepareAction', NEVER);
    const error = await failure(act({ action: 'left_click', ref }));
    expect(error?.code).to.equal('timeout');
    expect(error.details.unknown_effects).to.equal(false);
    expect(link.sentOf('input.performActions')).to.have.length(0);
  });

  it('types nothing when the click does not put focus on the field: no key is sent', async function () {
    const { link, ref, act } = await scene();
    link.page('prepareAction', aimed({ typing: { append: 'selection' } }));
    link.page('focusCheck', { focused: false, focus: { role: 'button', name: 'Menu', selector: 'button#menu' } });
    link.page('concludeAction', { delivery: report({ seen: ['pointerdown', 'pointerup'] }), focusDelivery: report({ delivered: false, seen: [] }), delta: noChange });
    const { structured, text } = await act({ action: 'type', ref, text: 'abc' });
    expect(text).to.include('The click did not put focus on it (focus is on button "Menu"): nothing was typed.');
    expect(structured).to.include({ ok: false, note: 'focus did not reach the field; nothing was typed' });
    expect(inputTypes(link)).to.deep.equal(['pointerMove', 'pointerDown', 'pointerUp']);
    expect(link.pageCalls.map((c) => c.op)).to.deep.equal(['prepareAction', 'pressCheck', 'focusCheck', 'concludeAction']);
  });

  it('types once focus is on the field: the keys follow the click, and both verdicts are read', async function () {
    const { link, ref, act } = await scene();
    link.page('prepareAction', aimed({ typing: { append: 'selection' } }));
    link.page('focusCheck', { focused: true });
    link.page('concludeAction', { delivery: report({ seen: ['pointerdown', 'pointerup'] }), focusDelivery: report({ seen: ['keydown', 'input'] }), delta: noChange });
    const { structured, text } = await act({ action: 'type', ref, text: 'ab' });
    expect(structured).to.include({ ok: true, delivered: true });
    expect(text).to.match(/^type ref_\d+: delivered\./);
    expect(inputTypes(link).filter((type) => type === 'keyDown')).to.have.length(2);
  });

  /** A field that holds focus already, and Firefox's answer to the keys held until `release()`. */
  function focusedField(s, conclusion) {
    let release;
    const held = new Promise((resolve) => (release = resolve));
    s.link.page('prepareAction', aimed({ typing: { focused: true } }));
    s.link.page('concludeAction', conclusion);
    s.link.answer('input.performActions', () => held.then(() => ({})));
    return () => release();
  }

  it('answers a type into a focused field once the page saw every keyup, before Firefox answers the keys', async function () {
    const s = await scene();
    const release = focusedField(s, { delivery: report({ seen: [] }), focusDelivery: report({ seen: ['keydown', 'input'] }), keysAllUp: true, delta: noChange });
    const { structured, text } = await s.act({ action: 'type', ref: s.ref, text: 'ab' });
    release();
    expect(structured).to.include({ ok: true, delivered: true });
    expect(text).to.include('It had focus: typed at its caret, no click.');
    // The read-back went out with the keys, which carry the number of keyups the page waits for.
    expect(s.link.pageCalls.map((c) => c.op)).to.deep.equal(['prepareAction', 'concludeAction']);
    expect(s.link.pageCalls[1].args.afterKeyUps).to.equal(2);
  });

  it('waits for Firefox\'s answer to the keys when the page did not see them all (focus went to a frame)', async function () {
    const s = await scene();
    const release = focusedField(s, { delivery: report({ seen: [] }), focusDelivery: report({ seen: ['keydown'], delivered: false, landed: 'after key 1 of 2 the page moved focus to another document; 1 of the keys went there' }), delta: noChange });
    s.link.page('releaseKeys', { released: true });
    let answered = false;
    const reply = s.act({ action: 'type', ref: s.ref, text: 'ab' }).then((r) => ((answered = true), r));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered, 'answered before Firefox said the keys were out').to.equal(false);
    release();
    const error = await failure(reply);
    expect(error?.code).to.equal('focus_moved');
    expect(error.message).to.include('NOT delivered');
  });
});

describe('unit: aiming through frames on a scripted connection', function () {
  /** A frame context 'frame-1' shown by iframe #3 of the top document doc1, and a ref (local id 5) inside it. */
  async function framed() {
    const s = await scene();
    s.link.emit('browsingContext.contextCreated', { context: 'frame-1', url: URL, children: null, parent: s.tab.context, userContext: 'default', originalOpener: null, clientWindow: 'w1' });
    // The sandbox's frame lookup (not a page operation): iframe #3's contentWindow is frame-1.
    s.link.answer('script.callFunction', { type: 'success', realm: 'fake', result: { type: 'array', value: [{ type: 'window', value: { context: 'frame-1' } }] } });
    s.link.page('listFrames', { docId: 'doc1', ids: [3] });
    s.frameRef = s.browser.refs.refFor(s.tab.id, 'frame-1', 'fdoc', 5);
    return s;
  }

  it('clicks a ref inside a frame at its frame point, in the frame, once the parent showed the iframe', async function () {
    const { link, frameRef, act } = await framed();
    link.page('prepareAction', (args, { context }) =>
      context === 'frame-1'
        ? { aim: { point: { x: 10, y: 15 }, target: CANCEL, docId: 'fdoc' }, url: URL, title: 'Frame', delta: { docId: 'fdoc' } }
        : { gate: { origin: { x: 100, y: 200 }, point: { x: 110, y: 215 } }, url: URL, title: 'Page', delta: { docId: 'doc1' } },
    );
    link.page('concludeAction', { delivery: report({ docId: 'fdoc', title: 'Frame' }), delta: { ...noChange, docId: 'fdoc' } });
    link.page('deltaFinish', noChange);
    const { structured } = await act({ action: 'left_click', ref: frameRef });
    expect(structured).to.include({ delivered: true });
    expect(structured.point).to.deep.equal({ x: 110, y: 215 });
    const gate = link.pageCalls.find((c) => c.op === 'prepareAction' && c.context === 'top');
    expect(gate.args.gate).to.deep.equal({ frame: { docId: 'doc1', localId: 3 }, point: { x: 10, y: 15 } });
    const inputs = link.sentOf('input.performActions');
    expect(inputs.map((c) => c.params.context)).to.deep.equal(['frame-1', 'frame-1']);
    expect(inputs[0].params.actions[0].actions[0]).to.include({ type: 'pointerMove', x: 10, y: 15 });
  });

  it('refuses a ref whose iframe the parent page covers, with nothing dispatched', async function () {
    const { link, frameRef, act } = await framed();
    link.page('prepareAction', (args, { context }) =>
      context === 'frame-1'
        ? { aim: { point: { x: 10, y: 15 }, target: CANCEL, docId: 'fdoc' }, url: URL, title: 'Frame', delta: { docId: 'fdoc' } }
        : new PageFailure('target_occluded', 'it is covered by generic (div#cookie-banner); nothing was dispatched.', { covered_by: 'generic (div#cookie-banner)' }),
    );
    const error = await failure(act({ action: 'left_click', ref: frameRef }));
    expect(error?.code).to.equal('target_occluded');
    expect(error.message).to.equal(`${frameRef}: it is covered by generic (div#cookie-banner); nothing was dispatched.`);
    expect(link.sentOf('input.performActions')).to.have.length(0);
  });

  it('sends key input into the frame that holds focus, with the key probe armed there', async function () {
    const { link, act } = await framed();
    link.page('prepareAction', (args, { context }) =>
      context === 'frame-1'
        ? { url: URL, title: 'Frame', delta: { docId: 'fdoc' }, focused: { role: 'textbox', name: 'Note', selector: 'input#note' } }
        : { url: URL, title: 'Page', delta: { docId: 'doc1' }, focusFrame: { docId: 'doc1', id: 3 } },
    );
    link.page('concludeAction', { delivery: report({ docId: 'fdoc' }), focusDelivery: report({ docId: 'fdoc', seen: ['keydown'], focus: { role: 'textbox', name: 'Note', selector: 'input#note' } }) });
    link.page('deltaFinish', noChange);
    const { structured, text } = await act({ action: 'key', text: 'Enter' });
    expect(text).to.match(/^key on textbox "Note": delivered\./);
    expect(structured.delivered).to.equal(true);
    expect(link.sentOf('input.performActions').map((c) => c.params.context)).to.deep.equal(['frame-1']);
    const armed = link.pageCalls.find((c) => c.op === 'prepareAction' && c.context === 'frame-1');
    expect(armed.args.focusWatch).to.deep.equal(['keydown', 'input']);
  });

  it('claims no verdict for keys whose focused frame cannot be reached', async function () {
    const { link, act } = await framed();
    // The iframe shows no context the sandbox can name.
    link.answer('script.callFunction', { type: 'success', realm: 'fake', result: { type: 'array', value: [{ type: 'null' }] } });
    link.page('prepareAction', { url: URL, title: 'Page', delta: { docId: 'doc1' }, focusFrame: { docId: 'doc1', id: 3 }, focused: { role: 'iframe', name: '', selector: 'iframe' } });
    link.page('concludeAction', { delivery: report(), focusDelivery: report({ delivered: false, seen: [] }), delta: noChange });
    const { structured, text } = await act({ action: 'key', text: 'Enter' });
    expect(structured.delivered).to.equal(undefined);
    expect(text).to.not.match(/delivered/i);
  });
});
