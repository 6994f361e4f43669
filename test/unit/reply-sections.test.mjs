// Golden text of each reply section, on ActionReport values made by the engine's own report builder (no link): the
// head and verdict, the effects (dialog, downloads, URL, title, a frame's URL), the changes (page scroll, popup,
// unsettled, the delta, a new page) and the opened tabs. The expected replies (test/unit/golden/reply-sections.json)
// were captured from the replies as they were before sections existed; a section must keep every byte.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { actionReport } from '../../dist/browser/engine/report.js';
import { Reply, actionReply, downloadsSection, openedTabsSection, pageAnswerSection } from '../../dist/tools/reply/index.js';

const GOLDEN = JSON.parse(readFileSync(new URL('./golden/reply-sections.json', import.meta.url), 'utf8'));

const PAGE = 'http://127.0.0.1:9/page';
const preparation = { url: PAGE, title: 'Page' };
const probe = (extra = {}) => ({ url: PAGE, title: 'Page', docId: 'd', found: true, delivered: true, seen: ['pointerdown', 'pointerup'], ...extra });
const SAVE = { role: 'button', name: 'Save', selector: 'button#save' };
const quiet = (extra = {}) => ({ delta: '', navigated: false, truncated: false, ...extra });
const input = (report) => [{ what: 'the input', report }];
const byRef = { ref: 'ref_3', hit: SAVE, point: { x: 1, y: 2 }, inFrame: false };
const atPoint = { hit: SAVE, point: { x: 1, y: 2 }, inFrame: false };
const FILES = [
  { id: '1', url: 'http://x/f.zip', suggestedFilename: 'f.zip', status: 'complete', path: '/out/f.zip', startedAt: 0 },
  { id: '2', url: 'http://x/g', suggestedFilename: 'g', status: 'in_progress', startedAt: 0 },
];
const POPUP = { ref: 'ref_9', role: 'menu', name: 'File', items: ['ref_10', 'ref_11'], item_lines: ['- menuitem "Open" [ref=ref_10]', '- menuitem "Close" [ref=ref_11]'] };

/** name: [the action, its report's parts and extras, the tool's details and fields]. */
const CASES = {
  plain: ['left_click', { target: { ...byRef, point: { x: 10.4, y: 20.6 } }, dispatched: { delta: quiet() }, verdicts: input(probe({ after: 'pointerup then went to x' })) }],
  coord: [
    'left_click',
    { target: { ...atPoint, hit: { ...SAVE, name: '', covers: 90, overlay: true }, point: { x: 5, y: 6 } }, dispatched: { delta: quiet({ delta: '- button "Saved" [ref=ref_3]' }) }, verdicts: input(probe()) },
    {},
    { details: ['Held: ctrl.'] },
  ],
  effects: [
    'left_click',
    {
      target: byRef,
      dispatched: { dialog: 'a alert dialog opened: "hi" (answer it with firefox_dialog)', downloads: FILES },
      verdicts: input(probe({ url: `${PAGE}#x`, title: 'Other', scrolled: { dx: 0, dy: 300, to: 'heading "Top"' } })),
    },
  ],
  frame: ['left_click', { target: { ...byRef, inFrame: true }, dispatched: { delta: quiet() }, verdicts: input(probe({ url: `${PAGE}?q=1`, title: 'F', scrolled: { dx: -20, dy: 0 } })) }],
  popup: [
    'left_click',
    {
      target: byRef,
      dispatched: { delta: quiet({ delta: '- menu "File" [ref=ref_9]\n  - menuitem "Open" [ref=ref_10]', unsettled: 'an animation', opened_popup: POPUP }) },
      verdicts: input(probe({ scrolled: { dx: 0, dy: -40 } })),
    },
  ],
  scrollAlone: ['left_click', { target: byRef, dispatched: { delta: quiet() }, verdicts: input(probe({ scrolled: { dx: 0, dy: 40 } })) }],
  navigated: ['left_click', { target: byRef, dispatched: { delta: quiet({ delta: '- heading "Next" [ref=ref_20]', navigated: true, url: 'http://x/next', title: '' }) }, verdicts: input(probe({ found: false })) }],
  gone: ['left_click', { target: byRef, dispatched: {}, verdicts: input(probe({ found: false })) }],
  unknown: ['hover', { target: atPoint, dispatched: { delta: quiet() }, verdicts: [] }],
  missed: [
    'type',
    {
      target: byRef,
      dispatched: { delta: quiet({ delta: '- textbox [ref=ref_3]: "a"' }) },
      verdicts: [{ what: 'the click', report: probe() }, { what: 'the keys', report: probe({ delivered: false, seen: [], stray: ['keydown', 'input'] }), code: 'focus_moved' }],
    },
  ],
  missed2: ['left_click', { target: byRef, dispatched: {}, verdicts: input(probe({ delivered: false, seen: [], landed: 'pointerdown went to generic (div#mask)' })) }],
  refused: ['left_click', { target: byRef, dispatched: {}, verdicts: [] }, { refused: 'it was replaced by button "X"' }],
  stopped: [
    'type',
    { target: byRef, dispatched: {}, verdicts: [] },
    { stopped: { types: ['pointerup', 'click'], reason: 'the page put button "Delete" under the pointer', afterPress: true } },
    { details: ['Nothing was typed.'] },
  ],
  extra: [
    'left_click_drag',
    { target: atPoint, dispatched: { delta: quiet() }, verdicts: [{ what: 'the release', report: probe() }, { what: 'the press', report: undefined }] },
    {},
    { fields: { note: 'html5 drop completed' } },
  ],
  scrollAction: [
    'scroll',
    { target: atPoint, dispatched: { delta: quiet() }, verdicts: [{ what: 'the wheel', report: probe({ scrolled: { dx: 0, dy: 300 } }) }], pageScroll: false },
    {},
    { details: ['Scrolled the page by y 300 px.'], fields: { scrolled: { x: 0, y: 300 } } },
  ],
};

/** The reply as the golden file holds it: text and structured content, or the coded error. */
function replyOf(action, parts, extras = {}, { details, fields = {} } = {}) {
  const report = actionReport({ preparation, ...parts, dispatched: { conclusion: null, sent: 1, ...parts.dispatched } }, extras);
  try {
    const { text, structured } = actionReply({ action, ok: true, ...fields }, report, details);
    return { text, structured };
  } catch (error) {
    return { error: error.code, message: error.message, details: error.details };
  }
}

describe('unit: reply sections, byte for byte (golden)', function () {
  for (const [name, [action, parts, extras, tool]] of Object.entries(CASES)) {
    it(`action, effects and changes: ${name}`, function () {
      // Stringified: the key order of structured content is part of what a client sees.
      expect(JSON.stringify(replyOf(action, parts, extras, tool), null, 2)).to.equal(JSON.stringify(GOLDEN[name], null, 2));
    });
  }

  it('tabs: one line per opened tab, and the tabs as records', function () {
    const tabs = [
      { tabId: 2, url: 'http://x/a', title: 'A', active: false },
      { tabId: 3, url: 'about:blank', title: '', active: false },
    ];
    const reply = new Reply({ action: 'left_click' }, ['left_click ref_1: delivered.']);
    openedTabsSection.render(reply, tabs);
    expect(reply.text).to.equal(`left_click ref_1: delivered.\n${GOLDEN.tabs}`);
    expect(JSON.stringify(reply.structured)).to.equal(JSON.stringify({ action: 'left_click', opened_tabs: tabs }));
  });

  it('downloads: records without the download id, one line each', function () {
    const reply = new Reply({});
    downloadsSection.render(reply, FILES);
    expect(reply.text).to.equal('Downloaded f.zip to /out/f.zip\nDownload of g is still in progress');
    expect(reply.structured).to.deep.equal({ downloads: GOLDEN.effects.structured.downloads });
  });

  it('page answer: the delta\'s lines without the tool\'s own field, as text and as `delta`', function () {
    const reply = new Reply({ ref: 'ref_4' }, ['textbox "Name" [ref=ref_4] is now "x"']);
    pageAnswerSection.render(reply, { outcome: { delta: '- textbox "Name" [ref=ref_4]: x\n- button "Send" [ref=ref_5]', navigated: false, truncated: false }, skipRef: 'ref_4' });
    expect(reply.text).to.equal('textbox "Name" [ref=ref_4] is now "x"\n- button "Send" [ref=ref_5]');
    expect(JSON.stringify(reply.structured)).to.equal('{"ref":"ref_4","delta":"- button \\"Send\\" [ref=ref_5]"}');
  });
});
