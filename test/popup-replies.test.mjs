// A listbox left open while an option is picked (found on tom-select, which no test here uses): the reply does not
// say it "Opened" again; and closing it says "closed" once, not also "hidden" of the wrapper that held it.
import { expect } from 'chai';
import { useBrowser, refOf } from './helpers/browser-suite.mjs';

const page = `<!doctype html><meta charset="utf-8"><title>picker</title>
  <style>.drop { border: 1px solid #999; width: 200px }</style>
  <input id="box" role="combobox" aria-label="Team" aria-expanded="false" aria-controls="list" aria-haspopup="listbox">
  <div class="drop" id="drop" style="display: none"><div class="content"><div role="listbox" id="list" aria-label="Team"></div></div></div>
  <p id="chosen"></p>
  <script>
    const teams = ['Design', 'Sales', 'Support', 'Finance'];
    const chosen = [];
    const box = document.getElementById('box');
    const drop = document.getElementById('drop');
    const list = document.getElementById('list');
    function render() {
      list.replaceChildren(...teams.filter((t) => !chosen.includes(t)).map((t) => {
        const option = document.createElement('div');
        option.setAttribute('role', 'option');
        option.id = 'opt-' + t;
        option.textContent = t;
        option.addEventListener('mousedown', (event) => {
          event.preventDefault();
          chosen.push(t);
          document.getElementById('chosen').textContent = 'Chosen: ' + chosen.join(', ');
          render();
        });
        return option;
      }));
      // As tom-select does: the first option is the active one, named on the listbox, and the dropdown is placed
      // again under the field (a style written on its wrapper).
      list.setAttribute('aria-activedescendant', list.firstElementChild?.id ?? '');
      drop.style.width = 200 + chosen.length + 'px';
    }
    box.addEventListener('click', () => { render(); drop.style.display = 'block'; box.setAttribute('aria-expanded', 'true'); });
    box.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') { drop.style.display = 'none'; box.setAttribute('aria-expanded', 'false'); }
    });
  </script>`;

describe('replies of a listbox left open', function () {
  this.timeout(60_000);
  const browser = useBrowser({ routes: { '/picker': (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page) }, page: '/picker' });

  it('picking an option in an open listbox does not say it opened; Escape says closed once', async function () {
    const { server, tabId } = browser;
    const read = server.text(await server.ok('read_page', { tabId }));
    const opened = server.text(await server.ok('computer', { tabId, action: 'left_click', ref: refOf(read, /combobox "Team"/) }));
    expect(opened).to.match(/^Opened listbox "Team" \[ref=ref_\d+\] with 4 items\.$/m);
    const picked = server.text(await server.ok('computer', { tabId, action: 'left_click', ref: refOf(opened, /option "Sales"/) }));
    expect(picked).to.include('Chosen: Sales');
    expect(picked).not.to.include('Opened');
    const closed = server.text(await server.ok('computer', { tabId, action: 'key', text: 'Escape' }));
    expect(closed).to.match(/^- closed: listbox "Team"$/m);
    expect(closed).not.to.include('hidden');
  });
});
