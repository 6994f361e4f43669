// A click by ref whose target something covers: a tooltip left by the pointer's last stop goes once the pointer
// moves on, and a checkbox whose box is covered is clicked on its label, as a person would; anything else is
// refused with nothing pressed.
import { expect } from 'chai';
import { useBrowser } from './helpers/browser-suite.mjs';

const PAGE = `<!doctype html><meta charset=utf-8><title>covers</title>
<style>
  button, label, #banner, #tip { position: absolute; }
  #tip { left: 0; top: 40px; width: 300px; height: 60px; background: #ffd; display: none; z-index: 10; }
  #tip.on { display: block; }
  #banner { left: 0; top: 200px; width: 40px; height: 40px; background: #ddf; }
  #wall { position: absolute; left: 0; top: 300px; width: 400px; height: 60px; background: #fdd; }
</style>
<button id=help style="left: 0; top: 0">Help</button>
<div id=tip role=tooltip>Words of help</div>
<button id=save style="left: 20px; top: 60px">Save</button>
<label style="left: 10px; top: 210px"><input id=agree type=checkbox> I agree to the terms</label>
<div id=banner>Ad</div>
<button id=buried style="left: 20px; top: 320px">Buried</button>
<div id=wall>A wall</div>
<p id=out style="position: absolute; top: 400px">Nothing yet</p>
<script>
  const tip = document.getElementById('tip');
  const help = document.getElementById('help');
  help.onmouseenter = () => tip.classList.add('on');
  help.onmouseleave = () => tip.classList.remove('on');
  document.getElementById('save').onclick = () => { document.getElementById('out').textContent = 'Saved'; };
  document.getElementById('buried').onclick = () => { document.getElementById('out').textContent = 'Buried clicked'; };
</script>`;

describe('computer click by ref through what covers its target', function () {
  let server;
  let tabId;
  const browser = useBrowser({ env: { FIREFOX_USE_TEST_TOOLS: '1' }, routes: { '/covers': (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE) }, page: '/covers' });
  const ref = async (selector) => (await server.ok('test_ref_for_selector', { tabId, selector })).structuredContent.ref;
  const click = async (selector) => server.call('computer', { tabId, action: 'left_click', ref: await ref(selector) });
  beforeEach(function () {
    ({ server, tabId } = browser);
  });

  it('clicks a button under the tooltip the last hover left: the tooltip goes as the pointer moves on', async function () {
    const hovered = await server.ok('computer', { tabId, action: 'hover', ref: await ref('#help') });
    expect(server.text(hovered)).to.match(/tooltip "Words of help"/);
    const result = await click('#save');
    expect(result.isError, server.text(result)).to.not.equal(true);
    expect(server.text(result)).to.match(/^left_click ref_\d+: delivered\./);
    expect(server.text(result)).to.include('text: Saved');
  });

  it('says when a tooltip lay over the clicked ref (and only then), as a line and as through_tooltip', async function () {
    await server.ok('computer', { tabId, action: 'hover', ref: await ref('#help') });
    const through = await click('#save');
    expect(server.text(through)).to.match(/^left_click ref_\d+: delivered\.\nA tooltip lay over it when aimed at\.\n/);
    expect(through.structuredContent.through_tooltip).to.equal(true);
    const plain = await click('#save');
    expect(server.text(plain)).to.not.include('tooltip');
    expect(plain.structuredContent).to.not.have.property('through_tooltip');
  });

  it('does not aim a wheel through that tooltip: scroll by ref is refused with nothing sent', async function () {
    await server.ok('computer', { tabId, action: 'hover', ref: await ref('#help') });
    const result = await server.call('computer', { tabId, action: 'scroll', ref: await ref('#save'), scroll_direction: 'down', scroll_amount: 1 });
    expect(result.structuredContent.error, server.text(result)).to.include({ code: 'target_occluded', covered_by: 'tooltip' });
  });

  it('clicks a checkbox on its label when its box is covered', async function () {
    const result = await click('#agree');
    expect(result.isError, server.text(result)).to.not.equal(true);
    expect(server.text(result)).to.match(/- checkbox "I agree to the terms" \[ref=ref_\d+\] \[checked\]/);
  });

  it('still refuses a button a wall covers, with nothing pressed', async function () {
    const result = await click('#buried');
    expect(result.structuredContent.error).to.include({ code: 'target_occluded' });
    expect(server.text(await server.ok('get_page_text', { tabId }))).to.not.include('Buried clicked');
  });

  it('a hover where the pointer already rests is delivered, not reported as missed', async function () {
    const help = await ref('#help');
    await server.ok('computer', { tabId, action: 'hover', ref: help });
    const again = await server.ok('computer', { tabId, action: 'hover', ref: help });
    expect(again.structuredContent.delivered, server.text(again)).to.equal(true);
    expect(server.text(again)).to.match(/^hover ref_\d+: delivered\./);
  });
});
