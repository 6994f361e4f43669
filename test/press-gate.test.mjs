// A page that swaps what lies under the pointer around the press (issue 35): a click by ref either clicks the
// control it was aimed at or answers target_occluded having pressed nothing; the page's "Delete account" never sees
// a press event. Ordinary presses whose event target differs from the ref's element still go through.
import { expect } from 'chai';
import { useBrowser } from './helpers/browser-suite.mjs';

async function refOf(server, tabId, selector) {
  return (await server.ok('test_ref_for_selector', { tabId, selector })).structuredContent.ref;
}

async function textOf(server, tabId, selector) {
  return (await server.ok('test_text_of_selector', { tabId, selector })).structuredContent.text;
}

async function titleOf(server, tabId) {
  const { tabs } = (await server.ok('tabs_context_mcp', {})).structuredContent;
  return tabs.find((tab) => tab.tabId === tabId).title;
}

/**
 * A click answered clean (delivered, Cancel clicked), as target_occluded with nothing pressed, or (the swap in the
 * page's pointerdown handler) as a press Cancel got whose release was kept from "Delete account".
 */
function judge(result, text) {
  if (!result.isError && /the release \(pointerup, mouseup\) was stopped before the page saw it/.test(text)) {
    expect(text).to.match(/After the press, the page (removed it and put button "Delete account" \(button#delete\) in its place|put button "Delete account" \(button#delete\) under the pointer)/);
    return 'kept';
  }
  if (!result.isError) {
    expect(result.structuredContent.delivered, text).to.equal(true);
    return 'clicked';
  }
  expect(result.structuredContent.error.code, text).to.equal('target_occluded');
  // Refused by the aim's guard (covered already), the press check, the press gate, or the delivery check.
  expect(text).to.match(/^target_occluded: (left_click ref_\d+: NOT (pressed|delivered)|ref_\d+: button "Cancel order" \(button#cancel\) is covered by)/);
  return 'refused';
}

describe('the press gate: a swap around the press never presses another control', function () {
  this.timeout(300_000);
  let fixtures;
  let server;
  let tabId;
  const browser = useBrowser({ args: ['--isolated', '--timeout-action', '5000'], env: { FIREFOX_USE_TEST_TOOLS: '1' } });
  beforeEach(function () {
    ({ fixtures, server, tabId } = browser);
  });

  const RUNS = Number(process.env.PRESS_GATE_RUNS ?? 30);
  for (const mode of ['move', 'overlay', 'down', 'rename']) {
    it(`clicks "Cancel order" or refuses with target_occluded, ${RUNS} times, never reaching "Delete account" (${mode})`, async function () {
      const outcomes = { clicked: 0, refused: 0, kept: 0 };
      for (let run = 0; run < RUNS; run++) {
        // The pointer rests elsewhere first, so each click moves it in (its first pointermove on the page).
        await server.ok('navigate', { tabId, url: fixtures.url(`/hostile/press-swap.html?mode=${mode}&run=${run}`) });
        await server.ok('computer', { tabId, action: 'hover', coordinate: [600, 400] });
        const ref = await refOf(server, tabId, '#cancel');
        const click = await server.call('computer', { tabId, action: 'left_click', ref });
        const text = server.text(click);
        const outcome = judge(click, text);
        outcomes[outcome]++;
        const title = await titleOf(server, tabId);
        expect(title, text).to.not.equal('clicked: DANGER');
        if (outcome === 'clicked') expect(title, text).to.equal('clicked: Cancel');
        else expect(title, text).to.equal('order');
      }
      expect(fixtures.requests.filter((path) => path.startsWith('/danger')), JSON.stringify(outcomes)).to.deep.equal([]);
      // The swap comes on every run of these modes (the others are timed: any answer above). A renamed target's
      // click is refused; a target replaced in the pointerdown handler had its press, and its release was kept.
      if (mode === 'rename') expect(outcomes.refused, JSON.stringify(outcomes)).to.equal(RUNS);
      if (mode === 'down') expect(outcomes.kept, JSON.stringify(outcomes)).to.equal(RUNS);
    });
  }

  it('says what was stopped: the button went down on the target, the page swapped it, the release never reached the new one', async function () {
    await server.ok('navigate', { tabId, url: fixtures.url('/hostile/press-swap.html?mode=down') });
    const ref = await refOf(server, tabId, '#cancel');
    const click = await server.call('computer', { tabId, action: 'left_click', ref });
    const text = server.text(click);
    expect(text).to.include('After the press, the page removed it and put button "Delete account" (button#delete) in its place; the release (pointerup, mouseup) was stopped before the page saw it.');
    expect(await textOf(server, tabId, '#log')).to.equal('nothing yet');
  });

  it('refuses a target renamed as the button goes down: its click is stopped, target_occluded', async function () {
    await server.ok('navigate', { tabId, url: fixtures.url('/hostile/press-swap.html?mode=rename') });
    const ref = await refOf(server, tabId, '#cancel');
    const click = await server.call('computer', { tabId, action: 'left_click', ref });
    const text = server.text(click);
    expect(click.isError, text).to.equal(true);
    expect(click.structuredContent.error, text).to.include({ code: 'target_occluded', ref, delivered: false });
    expect(text).to.include('NOT pressed: the button went down on it, then it changed from button "Cancel order" to button "Delete account"');
    expect(text).to.match(/\(mousedown, pointerup, mouseup, click\) was stopped before the page saw it, so it was not clicked/);
    expect(await textOf(server, tabId, '#log')).to.equal('nothing yet');
  });

  it('types into a field by ref only when its click reached it: a button swapped in on pointerdown gets no release and no key', async function () {
    await server.ok('navigate', { tabId, url: fixtures.url('/hostile/press-swap.html?mode=down') });
    await server.ok('javascript_tool', { tabId, text: "document.getElementById('cancel').outerHTML = '<input id=cancel aria-label=Search style=\"width:220px;height:40px\">'; const f = document.getElementById('cancel'); f.addEventListener('pointerdown', () => { const b = document.createElement('button'); b.id = 'delete'; b.textContent = 'Delete account'; b.onclick = b.onmouseup = () => { document.title = 'clicked: DANGER'; }; f.replaceWith(b); }); 1" }).catch(() => undefined);
    const ref = await refOf(server, tabId, '#cancel');
    const typed = await server.call('computer', { tabId, action: 'type', ref, text: 'hello' });
    const text = server.text(typed);
    expect(typed.isError, text).to.equal(true);
    // The field is gone (ref_stale) or the click was stopped (target_occluded): no key went out either way.
    expect(typed.structuredContent.error.code, text).to.be.oneOf(['ref_stale', 'target_occluded']);
    expect(await titleOf(server, tabId)).to.equal('order');
  });
});

describe('the press gate: ordinary presses still go through', function () {
  this.timeout(120_000);
  let fixtures;
  let server;
  let tabId;
  const browser = useBrowser({ args: ['--isolated', '--allow-javascript'], env: { FIREFOX_USE_TEST_TOOLS: '1' } });
  beforeEach(async function () {
    ({ fixtures, server, tabId } = browser);
    await server.ok('navigate', { tabId, url: fixtures.url('/hostile/press-ok.html') });
  });

  const cases = [
    ['a button whose text sits in child elements', '#icon', 'star;'],
    ['a React-like button replaced by an identical node on pointerdown', '#save', 'up;save;'],
  ];
  for (const [what, selector, logged] of cases) {
    it(`clicks ${what}`, async function () {
      const click = await server.ok('computer', { tabId, action: 'left_click', ref: await refOf(server, tabId, selector) });
      expect(click.structuredContent.delivered, server.text(click)).to.equal(true);
      expect(await textOf(server, tabId, '#log')).to.equal(logged);
    });
  }

  it('toggles checkboxes through a wrapping label and a label for= elsewhere, aimed at the label or the box', async function () {
    for (const selector of ['#agree-label', '#news-label', '#agree', '#news']) {
      const click = await server.ok('computer', { tabId, action: 'left_click', ref: await refOf(server, tabId, selector) });
      expect(click.structuredContent.delivered, server.text(click)).to.equal(true);
    }
    const checked = await server.ok('javascript_tool', { tabId, text: "[agree.checked, news.checked].join(',')" });
    // Each box was clicked twice (label, then box): back to unchecked, which a stopped click would not give.
    expect(server.text(checked)).to.include('false,false');
    await server.ok('computer', { tabId, action: 'left_click', ref: await refOf(server, tabId, '#news-label') });
    expect(server.text(await server.ok('javascript_tool', { tabId, text: 'String(news.checked)' }))).to.include('true');
  });

  it('clicks a button inside an open shadow root, found by find', async function () {
    const found = await server.ok('find', { tabId, query: 'button Fancy' });
    const ref = found.structuredContent.matches?.[0]?.ref ?? /ref_\d+/.exec(server.text(found))[0];
    const click = await server.ok('computer', { tabId, action: 'left_click', ref });
    expect(click.structuredContent.delivered, server.text(click)).to.equal(true);
    expect(await textOf(server, tabId, '#log')).to.equal('fancy;');
  });

  it('double- and right-clicks by ref as before', async function () {
    const ref = await refOf(server, tabId, '#icon');
    const twice = await server.ok('computer', { tabId, action: 'double_click', ref });
    expect(twice.structuredContent.delivered, server.text(twice)).to.equal(true);
    expect(await textOf(server, tabId, '#log')).to.equal('star;star;');
    const right = await server.ok('computer', { tabId, action: 'right_click', ref });
    expect(right.structuredContent.delivered, server.text(right)).to.equal(true);
  });

  it('types into a field whose focus shows a button over it: the keys reach the field, the button is not clicked', async function () {
    // As a kanban board's add-card form does it: focusing the field shows the form's "Add" button over it. (When the
    // page also stops the click's release, the keys are still a success with a line: jKanban in the truth oracle.)
    await server.ok('javascript_tool', { tabId, text: "document.body.insertAdjacentHTML('beforeend', '<div style=\"position:relative\"><input id=title aria-label=\"Card title\" style=\"width:220px;height:40px\"></div>'); const f = document.getElementById('title'); f.addEventListener('focus', () => { const b = document.createElement('button'); b.textContent = 'Add'; b.style.cssText = 'position:absolute;left:0;top:0;width:220px;height:40px;opacity:0.5'; b.onclick = () => { document.title = 'added'; }; f.parentElement.append(b); }); 1" });
    const ref = await refOf(server, tabId, '#title');
    const typed = await server.call('computer', { tabId, action: 'type', ref, text: 'Plan 2.1' });
    const text = server.text(typed);
    expect(typed.isError ?? false, text).to.equal(false);
    expect((await server.ok('javascript_tool', { tabId, text: 'document.getElementById("title").value' })).structuredContent.value).to.equal('Plan 2.1');
    expect(await titleOf(server, tabId)).to.not.equal('added');
  });
});
