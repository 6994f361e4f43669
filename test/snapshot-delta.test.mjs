import { expect } from 'chai';
import { refOf, useBrowser } from './helpers/browser-suite.mjs';

describe('post-action deltas and opened_popup', function () {
  let fixtures;
  let server;
  let tabId;
  const browser = useBrowser();
  beforeEach(function () {
    ({ fixtures, server, tabId } = browser);
  });

  it('a click that opens a menu returns the target, the menu items and opened_popup', async function () {
    const nav = await server.ok('navigate', { tabId, url: fixtures.url('/snapshot/menu.html') });
    const file = refOf(nav.structuredContent.snapshot, /button "File"/);
    const click = await server.ok('computer', { tabId, action: 'left_click', ref: file });
    const { delta, opened_popup: popup } = click.structuredContent;
    expect(delta).to.match(new RegExp(`- button "File" \\[ref=${file}\\].*\\[expanded\\]`));
    expect(delta).to.match(/- menu "File" \[ref=ref_\d+\]/);
    expect(delta).to.match(/^ {2}- menuitem "Save" \[ref=ref_\d+\]$/m);
    expect(delta).not.to.include('Tip of the day');
    expect(popup).to.include({ role: 'menu', name: 'File', opened_by: file });
    expect(popup.items).to.have.length(3);
    // The menu's refs are ordinary refs: a later snapshot names the same elements the same way.
    const again = (await server.ok('read_page', { tabId })).structuredContent.snapshot;
    expect(refOf(again, /menuitem "Save"/)).to.equal(popup.items[2]);
  });

  it('reports a dialog that closed as a closed line, and folds many removals under one parent', async function () {
    const snap = (await server.ok('navigate', { tabId, url: fixtures.url('/snapshot/menu.html') })).structuredContent.snapshot;
    const dismiss = refOf(snap, /button "Dismiss"/);
    const closed = await server.ok('computer', { tabId, action: 'left_click', ref: dismiss });
    expect(closed.structuredContent.delta).to.match(/^- closed: dialog "Welcome tips"$/m);
    expect(closed.structuredContent.delta).to.not.include('removed: dialog');
    const clear = refOf(snap, /button "Clear notes"/);
    const cleared = await server.ok('computer', { tabId, action: 'left_click', ref: clear });
    expect(cleared.structuredContent.delta).to.match(/- removed: 5 listitems from list \[ref=ref_\d+\]/);
    expect(cleared.structuredContent.delta.split('\n').filter((l) => l.includes('removed')).length).to.equal(1);
    const stale = await server.call('read_page', { tabId, ref_id: dismiss });
    expect(stale.structuredContent.error).to.include({ code: 'ref_stale', reason: 'element_removed' });
  });

  it('sums up a large subtree that only changed its class in one line, and shows a small one whole', async function () {
    const nav = await server.ok('navigate', { tabId, url: fixtures.url('/snapshot/restyle.html') });
    const theme = refOf(nav.structuredContent.snapshot, /button "Toggle dark mode"/);
    const toggled = await server.ok('computer', { tabId, action: 'left_click', ref: theme });
    const { delta } = toggled.structuredContent;
    expect(delta).to.match(/^- restyled: <body> \(only its class\/style changed/m);
    expect(delta).not.to.include('Section number');
    expect(delta.length).to.be.below(300);
    const show = refOf(nav.structuredContent.snapshot, /button "Show tips"/);
    const shown = await server.ok('computer', { tabId, action: 'left_click', ref: show });
    expect(shown.structuredContent.delta).to.include('Press Escape to close');
    expect(shown.structuredContent.delta).not.to.include('restyled');
  });
});

describe('deltas leave out what did not change, and follow a form submission to the new page', function () {
  let fixtures;
  let server;
  let tabId;
  const browser = useBrowser();
  beforeEach(function () {
    ({ fixtures, server, tabId } = browser);
  });

  it('does not list buttons whose attribute a script set to the value it already had', async function () {
    const nav = await server.ok('navigate', { tabId, url: fixtures.url('/snapshot/rows.html') });
    const beta = refOf(nav.structuredContent.snapshot, /button "Menu for Beta"/);
    const click = await server.ok('computer', { tabId, action: 'left_click', ref: beta });
    const { delta, opened_popup: popup } = click.structuredContent;
    expect(delta).to.match(new RegExp(`- button "Menu for Beta" \\[ref=${beta}\\] \\[expanded\\]`));
    expect(delta).not.to.include('Menu for Alpha');
    expect(delta).not.to.include('Menu for Gamma');
    expect(popup).to.include({ role: 'menu', name: 'Row actions' });
    // The text is the head line and the lines: the ref alone, no repeated name or point.
    expect(server.text(click).split('\n')[0]).to.equal(`left_click ${beta}: delivered.`);
  });

  it('answers a click that submits a form with the new page, its title and URL', async function () {
    const snap = (await server.ok('navigate', { tabId, url: fixtures.url('/snapshot/rows.html') })).structuredContent.snapshot;
    const go = refOf(snap, /button "Go"/);
    const click = await server.ok('computer', { tabId, action: 'left_click', ref: go });
    const text = server.text(click);
    expect(click.structuredContent.url).to.match(/\/snapshot\/list\.html\?who=ann$/);
    expect(text).to.match(/^New page: List — http:\/\/127\.0\.0\.1:\d+\/snapshot\/list\.html\?who=ann$/m);
    expect(click.structuredContent.delta).to.include('button "Beta"');
    const stale = await server.call('computer', { tabId, action: 'left_click', ref: go });
    expect(stale.structuredContent.error).to.include({ code: 'ref_stale', reason: 'other_document' });
  });
});

const TRANSITIONS = `<!doctype html><meta charset=utf-8><title>transitions</title>
<style>
  #save { border: 2px solid gray; transition: border-color 1.5s, box-shadow 1.5s; }
  #save.busy { border-color: blue; box-shadow: 0 0 4px blue; }
  #tips { transition: opacity 0.4s; }
  #tips.fading { opacity: 0; }
</style>
<button id=save>Save</button><p id=status>Idle</p>
<ul id=tips aria-label=Tips><li>Tip one</li></ul><button id=close>Close tips</button>
<script>
  const status = document.getElementById('status');
  const save = document.getElementById('save');
  const tips = document.getElementById('tips');
  save.onclick = () => {
    save.classList.add('busy');
    status.textContent = 'Saving';
    save.addEventListener('transitionend', () => { status.textContent = 'Ring done'; }, { once: true });
  };
  document.getElementById('close').onclick = () => {
    tips.classList.add('fading');
    tips.addEventListener('transitionend', () => { tips.hidden = true; }, { once: true });
  };
</script>`;

// A list drawn in batches after a click, the first at once and the rest one per animation frame, the way a
// virtual grid draws the rows a scroll brings in.
const FRAMES = `<!doctype html><meta charset=utf-8><title>frames</title>
<button id=load>Load rows</button><ul id=rows aria-label=Rows></ul>
<script>
  document.getElementById('load').onclick = () => {
    let next = 1;
    const draw = (count) => {
      for (let i = 0; i < count && next <= 40; i++, next++) {
        const item = document.createElement('li');
        item.textContent = 'Row ' + next;
        document.getElementById('rows').append(item);
      }
      if (next <= 40) requestAnimationFrame(() => draw(5));
    };
    // ?later: nothing at once, the first rows in the next frame.
    if (location.search === '?later') requestAnimationFrame(() => draw(10));
    else draw(10);
  };
</script>`;

describe('deltas wait for transitions that change what is shown, not for colours', function () {
  let server;
  let tabId;
  const html = (body) => (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  const browser = useBrowser({ routes: { '/transitions': html(TRANSITIONS), '/frames': html(FRAMES) }, page: '/transitions' });
  beforeEach(function () {
    ({ server, tabId } = browser);
  });

  it('answers a click whose focus ring fades in colour without waiting for the colour', async function () {
    const snap = (await server.ok('read_page', { tabId })).structuredContent.snapshot;
    const click = await server.ok('computer', { tabId, action: 'left_click', ref: refOf(snap, /button "Save"/) });
    expect(click.structuredContent.delta).to.include('text: Saving');
    // The page writes this when the 1.5 s colour transition ends: a reply that waited for it would show it.
    expect(click.structuredContent.delta).to.not.include('Ring done');
  });

  it('waits for a fade that ends with the element hidden, and says it is hidden', async function () {
    const snap = (await server.ok('read_page', { tabId })).structuredContent.snapshot;
    const click = await server.ok('computer', { tabId, action: 'left_click', ref: refOf(snap, /button "Close tips"/) });
    expect(click.structuredContent.delta).to.match(/^- hidden: list "Tips"$/m);
  });

  it('a click answered only in the next animation frame is not "No change": the rows drawn then are in the reply', async function () {
    const snap = (await server.ok('navigate', { tabId, url: browser.fixtures.url('/frames?later') })).structuredContent.snapshot;
    const click = await server.ok('computer', { tabId, action: 'left_click', ref: refOf(snap, /button "Load rows"/) });
    expect(server.text(click)).to.not.include('No change on the page');
    expect(click.structuredContent.delta).to.include('Row 1');
  });

  it('follows a render that goes on frame after frame: all 40 rows are in the reply, not the first frame\'s', async function () {
    const snap = (await server.ok('navigate', { tabId, url: browser.fixtures.url('/frames') })).structuredContent.snapshot;
    const click = await server.ok('computer', { tabId, action: 'left_click', ref: refOf(snap, /button "Load rows"/) });
    const { delta } = click.structuredContent;
    const listed = (delta.match(/- listitem/g) ?? []).length;
    const counted = Number(/\((\d+) more listitems added/.exec(delta)?.[1] ?? 0);
    expect(listed + counted, delta).to.equal(40);
  });
});
