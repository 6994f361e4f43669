// Golden replies of the computer tool on the scripted BiDi link: text, structured content (key order included) and the
// page calls, for each way a click, type, key, hover, scroll and drag can end. Captured from the replies before the
// action engine returned ActionReports and replies were built from sections (test/unit/golden/computer-replies.json):
// a refactor must leave every byte as it is.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { computerTool } from '../../dist/tools/computer.js';
import { browserOnFake } from '../helpers/fake-bidi-link.mjs';

const GOLDEN = JSON.parse(readFileSync(new URL('./golden/computer-replies.json', import.meta.url), 'utf8'));

const PAGE_URL = 'http://127.0.0.1:9/page';
const CANCEL = { role: 'button', name: 'Cancel', selector: 'button#cancel' };
const NOTE = { role: 'textbox', name: 'Note', selector: 'input#note' };
const aimed = (extra = {}) => ({ aim: { point: { x: 60, y: 30 }, target: CANCEL, docId: 'doc1' }, url: PAGE_URL, title: 'Page', delta: { docId: 'doc1' }, ...extra });
const atFocus = { url: PAGE_URL, title: 'Page', delta: { docId: 'doc1' }, focused: NOTE };
const report = (extra = {}) => ({ url: PAGE_URL, title: 'Page', docId: 'doc1', found: true, delivered: true, seen: ['pointerdown', 'pointerup', 'click'], ...extra });
const noChange = { docId: 'doc1', lines: [], records: 0, truncated: false };
const STOP = { types: ['pointerup', 'click'], reason: 'the page put button "Delete" (button#delete) under the pointer', afterPress: true };
const typing = (typingTarget) => aimed({ typing: typingTarget });
const clickAndKeys = (extra = {}) => ({ delivery: report({ seen: ['pointerdown', 'pointerup'] }), focusDelivery: report({ seen: ['keydown', 'input'] }), delta: noChange, ...extra });

/** name: [the page's answers by operation, the call's arguments (a ref is added unless atFocus)]. */
const SCENARIOS = {
  typeClick: [{ prepareAction: typing({ append: 'selection' }), focusCheck: { focused: true }, concludeAction: clickAndKeys() }, { action: 'type', text: 'ab' }],
  typeUnfocused: [
    { prepareAction: typing({ append: 'selection' }), focusCheck: { focused: false, focus: { role: 'button', name: 'Menu', selector: 'button#menu' } }, concludeAction: clickAndKeys({ focusDelivery: report({ delivered: false, seen: [] }) }) },
    { action: 'type', text: 'abc' },
  ],
  typeKept: [{ prepareAction: typing({ append: 'selection' }), focusCheck: { focused: true, pressStopped: STOP }, concludeAction: clickAndKeys({ delivery: report({ seen: ['pointerdown'] }) }) }, { action: 'type', text: 'ab' }],
  typeStopped: [
    {
      prepareAction: typing({ append: 'selection' }),
      focusCheck: { focused: false, pressStopped: { ...STOP, afterPress: false } },
      concludeAction: clickAndKeys({ delivery: report({ seen: [], delivered: false }), focusDelivery: report({ delivered: false, seen: [] }) }),
    },
    { action: 'type', text: 'ab' },
  ],
  typeNoClick: [{ prepareAction: typing({ focused: true }), concludeAction: clickAndKeys({ delivery: report({ seen: [] }), keysAllUp: true }) }, { action: 'type', text: 'a\u0301b' }],
  typeRefused: [{ prepareAction: typing({ append: 'selection' }), pressCheck: { ok: false, changed: 'it was replaced by button "X"' } }, { action: 'type', text: 'ab' }],
  key: [{ prepareAction: atFocus, concludeAction: { delivery: report(), focusDelivery: report({ seen: ['keydown'], focus: NOTE }), delta: noChange } }, { action: 'key', text: 'ctrl+a Enter', repeat: 2 }, 'atFocus'],
  keyMissed: [{ prepareAction: atFocus, concludeAction: { delivery: report(), focusDelivery: report({ delivered: false, seen: [], landed: 'keydown went to body' }), delta: noChange } }, { action: 'key', text: 'a' }, 'atFocus'],
  typeAtFocus: [{ prepareAction: atFocus, concludeAction: clickAndKeys({ delivery: report(), keysAllUp: true }) }, { action: 'type', text: 'hi' }, 'atFocus'],
  hover: [{}, { action: 'hover', modifiers: 'shift' }],
  clickKept: [{ concludeAction: { delivery: report(), delta: noChange, releaseKept: { types: ['pointerup'], reason: 'the page put x under the pointer', afterPress: true } } }, { action: 'double_click' }],
  scroll: [{ concludeAction: { delivery: report({ seen: ['wheel'] }), scroll: { found: true, dx: 0, dy: 300, box: 'the page' }, delta: noChange } }, { action: 'scroll', scroll_direction: 'down' }],
  scrollNone: [{ concludeAction: { delivery: report({ seen: ['wheel'] }), scroll: { found: true, dx: 0, dy: 0, box: 'the page' }, delta: noChange } }, { action: 'scroll', scroll_direction: 'up', scroll_amount: 2 }],
  drag: [
    { concludeAction: { delivery: report({ seen: ['pointerup'] }), startDelivery: report({ seen: ['pointerdown'] }), drag: { html5: 'completed', dropTarget: 'div#bin' }, delta: noChange } },
    { action: 'left_click_drag', start_coordinate: [5, 5] },
  ],
  dragMissed: [
    { concludeAction: { delivery: report({ seen: [], delivered: false }), startDelivery: report({ seen: [], delivered: false, stray: ['pointerdown'] }), drag: { html5: 'none' }, delta: noChange } },
    { action: 'left_click_drag', start_coordinate: [5, 5] },
  ],
};

/** The reply as the golden file holds it: text and structured content, or the coded error; and the page calls made. */
async function replyOf(pages, args, aim) {
  const { link, browser, tab } = await browserOnFake();
  const ref = browser.refs.refFor(tab.id, tab.context, 'doc1', 7);
  link.page('prepareAction', aimed());
  link.page('pressCheck', { ok: true });
  link.page('concludeAction', { delivery: report(), delta: noChange });
  link.page('releaseKeys', { released: true });
  for (const [op, answer] of Object.entries(pages)) link.page(op, answer);
  const ops = () => link.pageCalls.map((c) => c.op).join(',');
  try {
    const { text, structured } = await computerTool.handler({ tab }, aim === 'atFocus' ? args : { ...args, ref });
    return { text, structured, ops: ops() };
  } catch (error) {
    return { error: error.code, message: error.message, details: error.details, ops: ops() };
  }
}

describe('unit: the computer tool\'s replies, byte for byte (golden)', function () {
  for (const [name, [pages, args, aim]] of Object.entries(SCENARIOS)) {
    it(name, async function () {
      const reply = await replyOf(pages, args, aim);
      // Stringified: the key order of structured content is part of what a client sees.
      expect(JSON.stringify(reply, null, 2)).to.equal(JSON.stringify(GOLDEN[name], null, 2));
    });
  }
});
