// Issue 18 on real third-party apps: what an agent reads back from names, find, read_page, get_page_text,
// navigate and wait_for on Shoelace, ag-grid-community, Swagger UI, the Python docs and the pdf.js viewer.
import { expect } from 'chai';
import { missingApps, startRealAppServer } from '../helpers/real-apps.mjs';
import { firstTab, startServer } from '../helpers/mcp-client.mjs';

/** Our own host pages (no app code): frames of two origins, and names that cross shadow roots. */
function hostPages(port) {
  const html = (body) => (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><meta charset="utf-8">${body}`);
  return {
    '/host/frames.html': (req, res) =>
      html(
        '<title>Frames host</title><h1>Outer page</h1><p>Before the frames.</p>' +
          '<iframe title="same" src="/host/inner.html"></iframe>' +
          `<iframe title="other" src="http://localhost:${port()}/host/inner.html?other"></iframe><p>After the frames.</p>`,
      )(req, res),
    // A single-page app in miniature: it renders only after a slow fetch that starts once the page has loaded.
    '/host/spa.html': html(
      '<title>Orders app</title><main id="app"></main><script>addEventListener("load", () => fetch("/host/slow-order")' +
        '.then((r) => r.json()).then((o) => { document.getElementById("app").innerHTML = `<h1>Order ${o.id}</h1><p>${o.pet}</p>`; }));</script>',
    ),
    // A click fetches (400 ms) and renders the answer; another fetch answers only after 8 s.
    '/host/fetch-button.html': html(
      '<title>Fetch on click</title><button id="one">Load the order</button><button id="two">Load the slow report</button><div id="out"></div>' +
        '<script>const out = document.getElementById("out");' +
        'document.getElementById("one").onclick = () => { out.textContent = "Loading…"; fetch("/host/slow-order").then((r) => r.json()).then((o) => { out.textContent = `Order ${o.id}: ${o.pet}`; }); };' +
        'document.getElementById("two").onclick = () => { out.textContent = "Loading the report…"; fetch("/host/never").then((r) => r.text()).then((t) => { out.textContent = t; }, () => {}); };</script>',
    ),
    '/host/never': (req, res) => setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('the report'), 8000),
    '/host/slow-order': (req, res) => setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":7,"pet":"Vandelay the cat"}'), 400),
    '/host/inner.html': html('<title>Inner doc</title><p>Inner text of the frame.</p><a href="/pydocs/index.html">docs home</a>'),
    '/host/shadow-names.html': html(
      '<title>Shadow names</title><span id="outside">Name from the light DOM</span>' +
        '<x-field id="a"></x-field><button aria-labelledby="inner-label">?</button><x-labelled></x-labelled>' +
        '<label for="fac">Custom field label</label><x-fac id="fac" role="textbox" tabindex="0"></x-fac>' +
        '<script>' +
        "customElements.define('x-field', class extends HTMLElement { connectedCallback() { const r = this.attachShadow({ mode: 'open' });" +
        " r.innerHTML = '<input aria-labelledby=\"outside\">'; } });" +
        "customElements.define('x-labelled', class extends HTMLElement { connectedCallback() { const r = this.attachShadow({ mode: 'open' });" +
        " r.innerHTML = '<span id=\"inner-label\">Name from inside a shadow root</span>'; } });" +
        "customElements.define('x-fac', class extends HTMLElement { static formAssociated = true; constructor() { super(); this.attachInternals(); } });" +
        '</script>',
    ),
  };
}

describe('real apps: replies an agent can trust (issue 18)', function () {
  let apps;
  let server;
  let tabId;
  const call = async (name, args) => server.text(await server.ok(name, { tabId, ...args }));

  before(async function () {
    expect(missingApps(), 'run scripts/install-test-apps.sh and npm ci').to.deep.equal([]);
    let port = 0;
    apps = await startRealAppServer(hostPages(() => port));
    port = apps.port;
    server = await startServer();
    tabId = await firstTab(server);
  });
  after(async function () {
    await server?.close();
    await apps?.close();
  });

  describe('names across shadow DOM (§6)', function () {
    it('Shoelace sl-checkbox and sl-switch are named by their slotted label, and find returns the checkbox', async function () {
      const page = await call('navigate', { url: apps.url('/apps/shoelace.html') });
      expect(page).to.match(/- checkbox "I agree to the terms" \[ref=ref_\d+\]/);
      expect(page).to.match(/- switch "Send me the newsletter" \[ref=ref_\d+\]/);
      const found = await call('find', { query: 'I agree to the terms', max_results: 3 });
      expect(found.split('\n')[1]).to.match(/^- checkbox "I agree to the terms" \[ref=ref_\d+\]/);
    });

    it('aria-labelledby reaches out of and into shadow roots; a form-associated custom element takes its <label>', async function () {
      const names = await call('navigate', { url: apps.url('/host/shadow-names.html') });
      expect(names).to.match(/- textbox "Name from the light DOM" \[ref=/);
      expect(names).to.match(/- button "Name from inside a shadow root" \[ref=/);
      expect(names).to.match(/- textbox "Custom field label" \[ref=/);
    });
  });

  describe('find on code and numbers (§5)', function () {
    it('matches code-like queries on the Python docs whatever their punctuation', async function () {
      await call('navigate', { url: apps.url('/pydocs/library/sys.html') });
      const recursion = await call('find', { query: 'sys.getrecursionlimit()', max_results: 3 });
      expect(recursion.split('\n')[1]).to.match(/^- term "sys\.getrecursionlimit\(\)/);
      await call('navigate', { url: apps.url('/pydocs/library/json.html') });
      const cls = await call('find', { query: 'cls=None', max_results: 3 });
      expect(cls.split('\n')[1]).to.match(/^- term "json\.dumps?\(/);
      // indent=None lies past the 100 characters of the signature's name: the match shows where it is.
      const indent = await call('find', { query: 'indent=None', max_results: 3 });
      expect(indent.split('\n')[1]).to.match(/^- term "json\.dumps?\(obj.*text: ".*indent=None/);
      const dumps = await call('find', { query: 'json.dumps(', max_results: 3 });
      expect(dumps).to.match(/json\.dumps\(/);
      expect(dumps).to.not.include('No element matches');
    });

    it('matches numbers whole on ag-grid, says when the best match is partial and that the grid renders only some rows', async function () {
      await call('navigate', { url: apps.url('/apps/grid.html') });
      // Row 4 is rendered; 40-49 are too, and must not outrank it.
      const four = await call('find', { query: 'row 4 Monk', max_results: 3 });
      expect(four.split('\n')[1]).to.match(/^- row "4 Monk 4 /);
      // Row 1042 is far below the rendered rows: nothing holds it whole, and the reply says why.
      const far = await call('find', { query: 'Kramerica 1042', max_results: 3 });
      expect(far).to.include('the best is partial');
      expect(far).to.match(/\[partial: no "1042"\]/);
      expect(far).to.match(/Note: grid has 2001 rows \(aria-rowcount\) and renders only rows 1-\d+/);
    });

    it('gives boxes cut to their scroll container and says when a match is scrolled out of it', async function () {
      await call('navigate', { url: apps.url('/pydocs/library/sys.html') });
      // The sidebar is a scroll box; this link lies below what it shows.
      const found = await call('find', { query: 'link getrecursionlimit()', max_results: 5 });
      expect(found).to.match(/- link "getrecursionlimit\(\)" \[ref=ref_\d+\] \[box=[^\]]+\] \[hidden: scrolled out of its container\]/);
    });
  });

  describe('all of the text when asked (§4)', function () {
    it('cut lines say so, and read_page / get_page_text with ref_id give the whole Swagger response body', async function () {
      await call('navigate', { url: apps.url('/apps/swagger.html') });
      const opened = await call('find', { query: 'button GET /api/orders/{id}', max_results: 1 });
      await call('computer', { action: 'left_click', ref: /\[ref=(ref_\d+)\]/.exec(opened)[1] });
      const tryIt = /\[ref=(ref_\d+)\]/.exec(await call('find', { query: 'button Try it out', max_results: 1 }))[1];
      await call('computer', { action: 'left_click', ref: tryIt });
      const execute = /\[ref=(ref_\d+)\]/.exec(await call('find', { query: 'button Execute', max_results: 1 }))[1];
      await call('computer', { action: 'left_click', ref: execute });
      await call('wait_for', { text: 'Response body', timeout: 10 });
      const page = await call('read_page', { filter: 'all', max_chars: 20_000 });
      const row = /- row "200 Response body[^\n]*\[ref=(ref_\d+)\] \[cut\]/.exec(page);
      expect(row, page).to.not.equal(null);
      expect(page).to.include("[cut]: shortened; read_page with that line's ref_id gives its whole text");
      const whole = await call('read_page', { ref_id: row[1], max_chars: 3000 });
      expect(whole).to.include('long note \\"');
      expect(whole).to.include('Vandelay the cat');
      const text = await call('get_page_text', { ref_id: row[1], max_chars: 3000 });
      expect(text).to.include('"pet": "Vandelay the cat"');
      expect(text).to.match(/"note": "x{10}( long note ){30}"/);
    });

    it('reads a long Python docs signature whole by ref', async function () {
      await call('navigate', { url: apps.url('/pydocs/library/json.html') });
      const found = await call('find', { query: 'term json.dumps', max_results: 1 });
      expect(found).to.match(/\[cut\]|…/);
      const whole = await call('read_page', { ref_id: /\[ref=(ref_\d+)\]/.exec(found)[1] });
      expect(whole).to.include('cls=None, indent=None, separators=None, default=None, sort_keys=False, **kw)');
      expect(whole).to.not.include('[cut]');
    });

    it('get_page_text includes same- and cross-origin frame text under a line naming each frame', async function () {
      await call('navigate', { url: apps.url('/host/frames.html') });
      const text = await call('get_page_text', {});
      expect(text).to.match(/Before the frames\.\n\[frame: Inner doc — http:\/\/127\.0\.0\.1:\d+\/host\/inner\.html\]\nInner text of the frame\./);
      expect(text).to.match(/\[frame: Inner doc — http:\/\/localhost:\d+\/host\/inner\.html\?other\]\nInner text of the frame\./);
      expect(text.indexOf('After the frames.')).to.be.greaterThan(text.lastIndexOf('Inner text of the frame.'));
    });

    it('max_chars bounds the whole get_page_text reply, header and closing line included', async function () {
      await call('navigate', { url: apps.url('/pydocs/library/json.html') });
      for (const max of [300, 2000]) {
        const text = await call('get_page_text', { max_chars: max });
        expect(text.length).to.be.at.most(max);
        expect(text).to.match(/\[truncated at \d+ of \d+ chars; call again with offset: \d+\]$/);
      }
    });
  });

  describe('waiting for the app (§8a)', function () {
    it('navigate answers once an app has rendered what it fetched after load', async function () {
      const page = await call('navigate', { url: apps.url('/host/spa.html') });
      expect(page).to.match(/- heading "Order 7" \[ref=ref_\d+\] \[level=1\]/);
      expect(page).to.include('Vandelay the cat');
    });

    it('navigate on the pdf.js viewer in a fresh profile shows the page count, or says the viewer was still loading', async function () {
      // The first viewer load compiles pdf.js's worker with no DOM change and no request in flight; its loading bar
      // shows meanwhile. navigate waits while it shows (bounded), and says so when the bound ran out.
      const page = await call('navigate', { url: apps.url('/pdfjs/web/viewer.html?file=/apps/sample.pdf&fresh') });
      if (!/- text: of 3\b/.test(page)) expect(page).to.match(/Still changing after \d\.\d s \(the page still showed a loading indicator, div#loadingBar\)/);
    });

    it('the pdf.js viewer shows its page count once wait_for has seen it ("of 3"); Next shows the page number the viewer set', async function () {
      // navigate settles on DOM and network quiet; pdf.js's worker can compile for seconds with neither (known
      // limit, docs/snapshot.md), so an agent that sees "of 0" waits for the count.
      await call('navigate', { url: apps.url('/pdfjs/web/viewer.html?file=/apps/sample.pdf') });
      const waited = await call('wait_for', { text: 'of 3', timeout: 20 });
      expect(waited).to.match(/is shown/);
      // A second load of the same URL is read once complete, not as an empty untitled page.
      const again = await call('navigate', { url: apps.url('/pdfjs/web/viewer.html?file=/apps/sample.pdf') });
      expect(again).to.match(/^(sample\.pdf|PDF\.js viewer) — /);
      expect(again).to.match(/- button "Next" \[ref=ref_\d+\]/);
      if (!/- text: of 3\b/.test(again)) await call('wait_for', { text: 'of 3', timeout: 20 });
      const next = /- button "Next" \[ref=(ref_\d+)\]/.exec(again)[1];
      // The viewer sets its page number field by script (a value, no mutation): the delta still shows it.
      const moved = await call('computer', { action: 'left_click', ref: next });
      expect(moved).to.match(/- spinbutton "Page" \[ref=ref_\d+\] \[value="2"\]/);
    });

    it('wait_for answers when a text appears, when an element goes away, and says when time ran out', async function () {
      await call('navigate', { url: apps.url('/apps/shoelace.html') });
      const open = /\[ref=(ref_\d+)\]/.exec(await call('find', { query: 'button Review and submit', max_results: 1 }))[1];
      const clicked = await call('computer', { action: 'left_click', ref: open });
      // The dialog's text is slotted into its body part: a reply that shows the dialog shows what it asks.
      if (clicked.includes('Opened dialog "Confirm sign-up"')) expect(clicked, clicked).to.match(/^ +- text: Submit this sign-up now\?$/m);
      const shown = await call('wait_for', { text: 'Submit this sign-up now?', timeout: 5 });
      expect(shown).to.match(/^Text "Submit this sign-up now\?" is shown/);
      const submit = /- button "Submit" \[ref=(ref_\d+)\]/.exec(await call('read_page', { filter: 'interactive' }))[1];
      await call('computer', { action: 'left_click', ref: submit });
      const gone = await call('wait_for', { text: 'Submit this sign-up now?', gone: true, timeout: 5 });
      expect(gone).to.match(/is gone/);
      const never = await server.ok('wait_for', { tabId, text: 'A text this page never shows', timeout: 0.3 });
      expect(never.structuredContent.met).to.equal(false);
      expect(server.text(never)).to.match(/was not shown after 0\.\d s \(timeout\)/);
    });

    it('a click that loads a new page answers once it has settled: the Python docs search shows its results, or says it had not settled', async function () {
      await call('navigate', { url: apps.url('/pydocs/library/sys.html') });
      // The sidebar is held to its share of the snapshot: the box and its button are found, as an agent finds them.
      const box = /- textbox "Quick search" \[ref=(ref_\d+)\]/.exec(await call('find', { query: 'Quick search textbox' }))[1];
      const go = /- button "Go" \[ref=(ref_\d+)\]/.exec(await call('find', { query: 'Go button' }))[1];
      const typed = await call('computer', { action: 'type', ref: box, text: 'getrecursionlimit' });
      expect(typed, typed).to.match(/- textbox "Quick search" \[ref=ref_\d+\] \[value="getrecursionlimit"\]/);
      // Sphinx fetches its search index after the page is parsed, then renders the results.
      const found = await call('computer', { action: 'left_click', ref: go });
      expect(found, found).to.match(/^New page: Search/m);
      if (!/- link "sys\.getrecursionlimit" \[ref=ref_\d+\]/.test(found)) expect(found, found).to.match(/\(The page had not settled: [^)]* after \d\.\d s; this is what it showed then\.\)/);
      else expect(found, found).to.match(/- textbox "Search" \[ref=ref_\d+\] \[value="getrecursionlimit"\]/);
    });

    it('Enter in the Python docs search box says the key went to that box, and answers with the search page', async function () {
      await call('navigate', { url: apps.url('/pydocs/library/sys.html') });
      const box = /- textbox "Quick search" \[ref=(ref_\d+)\]/.exec(await call('find', { query: 'Quick search textbox' }))[1];
      await call('computer', { action: 'type', ref: box, text: 'argv' });
      const pressed = await call('computer', { action: 'key', text: 'Return' });
      // The read-back may land in the old page or not at all (the form loads the next one): the box is named either way.
      expect(pressed).to.match(/^key on textbox "Quick search"/);
      expect(pressed).to.match(/^New page: Search/m);
    });

    it('wait_for refuses a call without text or ref, naming the field', async function () {
      const result = await server.call('wait_for', { tabId });
      expect(result.isError).to.equal(true);
      expect(result.structuredContent.error).to.include({ code: 'invalid_arguments', field: 'text' });
    });
  });

  describe('deltas that show the settled page (§2)', function () {
    const refOf = (text, pattern) => {
      const match = pattern.exec(text);
      expect(match, text).to.not.equal(null);
      return match[1];
    };

    it('sorting ag-grid descending shows the "Sorted by" line and the new top rows, folds the rest with a ref to read on', async function () {
      const page = await call('navigate', { url: apps.url('/apps/grid.html') });
      const amount = refOf(page, /- columnheader "Amount" \[ref=(ref_\d+)\]/);
      await call('computer', { action: 'left_click', ref: amount });
      const desc = await call('computer', { action: 'left_click', ref: amount });
      expect(desc).to.include('Sorted by amount desc');
      // The header says which way it sorts (aria-sort), as a screen reader would.
      expect(desc).to.match(/- columnheader "Amount" \[ref=ref_\d+\] \[sort=descending\]/);
      // The highest amount (999.5) is on orders 28 and 1028: the first row listed is one of them, not a row of the old order.
      expect(desc).to.match(/^- row "(28 Monk 28|1028 Monk 1028) 999\.5 Shipped" \[ref=ref_\d+\]/m);
      expect(desc).to.not.include('Opened grid');
      expect(desc.indexOf('Sorted by amount desc')).to.be.lessThan(desc.indexOf('- row "'));
      const more = refOf(desc, /- \(\d+ more rows (?:added|moved to new places \(same refs\)|now show other content \(same refs\)|(?:added|moved|now showing other content)(?: or (?:moved|now showing other content))+) in grid \[ref=ref_\d+\]; read_page with ref_id \[ref=(ref_\d+)\] reads them\)/);
      const rest = await call('read_page', { ref_id: more });
      expect(rest).to.match(/^- row "\d+ \w+ \d+ 99\d\.5 /m);
      // No line twice.
      const lines = desc.split('\n').filter((line) => line.includes('[ref='));
      expect(new Set(lines).size).to.equal(lines.length);
    });

    it('says "Opened" only for a Shoelace menu or dialog that opened and is still open, with its items', async function () {
      const page = await call('navigate', { url: apps.url('/apps/shoelace.html') });
      const actions = refOf(page, /- button "Actions" \[ref=(ref_\d+)\]/);
      const opened = await call('computer', { action: 'left_click', ref: actions });
      expect(opened).to.match(/Opened menu \[ref=ref_\d+\] with 3 items\./);
      expect(opened).to.match(/- menuitem "Copy invite link" \[ref=ref_\d+\]/);
      const closed = await call('computer', { action: 'key', text: 'Escape' });
      expect(closed).to.not.include('Opened');
      expect(closed).to.match(/- button "Actions" \[ref=ref_\d+\] \[expanded=false\]/);
      expect(closed).to.match(/^- closed: menu$/m);
      const review = refOf(page, /- button "Review and submit" \[ref=(ref_\d+)\]/);
      const dialog = await call('computer', { action: 'left_click', ref: review });
      expect(dialog).to.match(/Opened dialog "Confirm sign-up" \[ref=ref_\d+\]/);
      const submit = refOf(dialog, /- button "Submit" \[ref=(ref_\d+)\]/);
      // The dialog's closing animation has run by the time the reply is read: it is not listed as still there.
      const after = await call('computer', { action: 'left_click', ref: submit });
      expect(after).to.include('submitted');
      expect(after).to.not.match(/- dialog "Confirm sign-up"/);
      expect(after).to.not.include('Opened');
      // Said once that it closed.
      expect(after.match(/- closed: dialog "Confirm sign-up"/g)).to.have.length(1);
    });

    it('renders only what changed in a Shoelace form, with unchanged siblings counted, never the whole form', async function () {
      const page = await call('navigate', { url: apps.url('/apps/shoelace.html') });
      const terms = refOf(page, /- checkbox "I agree to the terms" \[ref=(ref_\d+)\]/);
      const news = refOf(page, /- switch "Send me the newsletter" \[ref=(ref_\d+)\]/);
      const ticked = await call('computer', { action: 'left_click', ref: terms });
      expect(ticked).to.match(/- checkbox "I agree to the terms" \[ref=ref_\d+\] \[checked\]/);
      expect(ticked).to.include('change terms true');
      const switched = await call('computer', { action: 'left_click', ref: news });
      expect(switched).to.match(/- switch "Send me the newsletter" \[ref=ref_\d+\] \[checked\]/);
      // The log grew by one line: only that line is shown, marked as a continuation.
      expect(switched).to.match(/^ {2}- text: …change news true$/m);
      expect(switched).to.not.include('change terms true');
      for (const reply of [ticked, switched]) {
        // The form's other controls did not change: they are not listed again.
        expect(reply).to.not.include('textbox "Email"');
        expect(reply).to.not.include('button "Review and submit"');
        const lines = reply.split('\n').filter((line) => line.includes('[ref='));
        expect(new Set(lines.map((line) => line.trim())).size).to.equal(lines.length);
      }
    });

    it('Swagger Execute: the response the click fetched is in its reply, the rest of the operation counted, not re-listed', async function () {
      await call('navigate', { url: apps.url('/apps/swagger.html') });
      const opened = await call('find', { query: 'button GET /api/orders/{id}', max_results: 1 });
      await call('computer', { action: 'left_click', ref: refOf(opened, /\[ref=(ref_\d+)\]/) });
      await call('computer', { action: 'left_click', ref: refOf(await call('find', { query: 'button Try it out', max_results: 1 }), /\[ref=(ref_\d+)\]/) });
      const execute = refOf(await call('find', { query: 'button Execute', max_results: 1 }), /\[ref=(ref_\d+)\]/);
      const reply = await call('computer', { action: 'left_click', ref: execute });
      expect(reply).to.include('Response body');
      expect(reply).to.include('Vandelay the cat');
      expect(reply).to.match(/- … \d+ unchanged siblings?$/m);
      // The parameters table and the responses' documentation were not re-listed.
      expect(reply).to.not.include('Find an order by id');
      const lines = reply.split('\n').filter((line) => line.includes('[ref='));
      expect(new Set(lines.map((line) => line.trim())).size).to.equal(lines.length);
    });

    it('waits for the request a click started before reading the page, and says when the wait ran out', async function () {
      await call('navigate', { url: apps.url('/host/fetch-button.html') });
      const page = await call('read_page', { filter: 'interactive' });
      const slow = refOf(page, /- button "Load the order" \[ref=(ref_\d+)\]/);
      const loaded = await call('computer', { action: 'left_click', ref: slow });
      expect(loaded).to.include('Vandelay the cat');
      expect(loaded).to.not.include('Loading');
      const never = refOf(page, /- button "Load the slow report" \[ref=(ref_\d+)\]/);
      const late = await call('computer', { action: 'left_click', ref: never });
      expect(late).to.include('Loading the report');
      expect(late).to.match(/1 request the action started was still loading after \d\.\d s/);
    });
  });

  describe('typing into code editors (§8b)', function () {
    it('Monaco: paste inserts text as it is (no auto-closed brackets), and the delta shows the lines around the caret', async function () {
      await call('navigate', { url: apps.url('/apps/monaco.html') });
      // Monaco's input is a zero-size textarea: click the code itself, then go to the end of the document.
      await call('computer', { action: 'left_click', coordinate: [400, 120] });
      await call('computer', { action: 'key', text: 'ctrl+End' });
      // Typed key by key, "{" gets the "}" Monaco closes it with; the reply shows the edited line.
      const typed = await call('computer', { action: 'type', text: 'if (x) {' });
      expect(typed).to.match(/- textbox "Editor content" \[ref=ref_\d+\] \[multiline\] \[value=…?".*if \(x\) \{\}"/);
      await call('computer', { action: 'key', text: 'End Enter' });
      const pasted = await call('computer', { action: 'type', text: 'const o = {a: [1], b: "q"};', paste: true });
      expect(pasted).to.match(/Pasted 27 characters as one paste/);
      expect(pasted).to.match(/\[value=…?".*\\nconst o = \{a: \[1\], b: \\"q\\"\};(\\n)?"…?\]/);
    });

    it('CodeMirror 5: paste inserts text as it is, and the edited code line is in the delta', async function () {
      await call('navigate', { url: apps.url('/apps/codemirror.html') });
      await call('computer', { action: 'left_click', coordinate: [300, 90] });
      await call('computer', { action: 'key', text: 'ctrl+End' });
      const pasted = await call('computer', { action: 'type', text: 'if (x) {a: [1]}', paste: true });
      expect(pasted).to.match(/^- text: if \(x\) \{a: \[1\]\}$/m);
      const text = await call('get_page_text', {});
      expect(text).to.match(/^if \(x\) \{a: \[1\]\}$/m);
    });
  });

  describe('link URLs (§9)', function () {
    it('keeps the scheme of other origins and is absolute inside frames, whose line names their origin', async function () {
      await call('navigate', { url: apps.url('/pydocs/library/json.html') });
      const page = await call('read_page', { filter: 'all', max_chars: 6000 });
      expect(page).to.match(/- link "Python" \[ref=ref_\d+\] \[url=https:\/\/www\.python\.org\/\]/);
      expect(page).to.match(/\[url=\/pydocs\/genindex\.html\]/);
      const frames = await call('navigate', { url: apps.url('/host/frames.html') });
      expect(frames).to.match(/- iframe "other" \[ref=ref_\d+\] \[origin=http:\/\/localhost:\d+\]/);
      expect(frames).to.match(/- link "docs home" \[ref=ref_\d+\] \[url=http:\/\/localhost:\d+\/pydocs\/index\.html\]/);
      expect(frames).to.match(/- link "docs home" \[ref=ref_\d+\] \[url=http:\/\/127\.0\.0\.1:\d+\/pydocs\/index\.html\]/);
    });
  });
});
