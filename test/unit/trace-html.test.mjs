// The trace file's HTML (src/mcp/trace-html.ts), its marks (trace-shot.ts) and which files show-trace serves
// (src/cli/show-trace.ts), without a browser: everything a page or an agent wrote is text, never markup.
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { escapeHtml, renderCard, renderTrace } from '../../dist/mcp/trace-html.js';
import { markSvg, markText } from '../../dist/mcp/trace-shot.js';
import { traceFileToShow } from '../../dist/cli/show-trace.js';

const HOSTILE = `<script>alert("x")</script><img src=x onerror='y'> & </pre></dd>`;

const head = (extra = {}) => ({
  name: 'trace-test',
  startedAt: Date.UTC(2026, 11, 7, 16, 50),
  firefox: HOSTILE,
  version: '0.1.0',
  calls: 1,
  failed: 0,
  pictures: 0,
  imageBudget: 200,
  picturesLeftOut: 0,
  callsLeftOut: 0,
  maxCalls: 2000,
  ...extra,
});

describe('the trace file', function () {
  it('escapes what pages and agents wrote everywhere it shows (tool, action, arguments, error, reply, caption)', function () {
    const card = renderCard(
      {
        id: 3,
        tool: HOSTILE,
        action: HOSTILE,
        args: [{ name: HOSTILE, value: HOSTILE }],
        tabId: 1,
        startedAt: Date.UTC(2026, 11, 7, 16, 50, 1),
        durationMs: 31,
        error: HOSTILE,
        reply: HOSTILE,
        acting: true,
        pictureNote: HOSTILE,
      },
      Date.UTC(2026, 11, 7, 16, 50),
    );
    const html = renderTrace(head(), [card]);
    expect(html).not.to.match(/<script|<img/i);
    expect(html).to.include(escapeHtml(HOSTILE));
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).to.equal('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    // Its own policy forbids scripts: a slip would still run nothing.
    expect(html).to.include(`content="default-src 'none'; img-src data:; style-src 'unsafe-inline'"`);
  });

  it('says when the picture budget is spent and when calls were left out', function () {
    const html = renderTrace(head({ picturesLeftOut: 3, callsLeftOut: 1, calls: 2001 }), []);
    expect(html).to.include('The budget of 200 pictures is spent: 3 later actions are listed without one.');
    expect(html).to.include('This trace lists the first 2,000 calls: 1 later call is not listed.');
  });

  it('marks a click as a ring and a drag as an arrow, in picture pixels', function () {
    const click = markSvg({ point: { x: 100, y: 50 } }, 0.5, 640, 400);
    expect(click).to.include('cx="50" cy="25"');
    const drag = markSvg({ from: { x: 10, y: 20 }, point: { x: 210, y: 20 } }, 1, 800, 500);
    expect(drag).to.include('x1="10" y1="20" x2="210" y2="20"').and.include('<polygon');
    expect(markSvg({}, 1, 800, 500)).to.equal(null);
    expect(markText({ from: { x: 10, y: 20 }, point: { x: 210.4, y: 20 } })).to.equal('drag from (10, 20) to (210, 20)');
    expect(markText({ point: { x: 5, y: 6 }, label: 'left_click' })).to.equal('left_click at (5, 6)');
  });
});

describe('show-trace: which files it serves', function () {
  const cwd = mkdtempSync(join(tmpdir(), 'fu-show-cwd-'));
  const out = mkdtempSync(join(tmpdir(), 'fu-show-out-'));
  const elsewhere = mkdtempSync(join(tmpdir(), 'fu-show-else-'));
  writeFileSync(join(cwd, 'trace-a.html'), '<p>a</p>');
  writeFileSync(join(out, 'trace-b.html'), '<p>b</p>');
  writeFileSync(join(elsewhere, 'trace-c.html'), '<p>c</p>');
  writeFileSync(join(cwd, 'notes.txt'), 'secret');
  mkdirSync(join(cwd, 'sub'));
  symlinkSync(join(elsewhere, 'trace-c.html'), join(cwd, 'sub', 'link.html'));

  it('serves a trace in the working directory or the output dir', async function () {
    expect(await traceFileToShow('trace-a.html', out, cwd)).to.match(/trace-a\.html$/);
    expect(await traceFileToShow(join(out, 'trace-b.html'), out, cwd)).to.match(/trace-b\.html$/);
  });

  it('refuses a file elsewhere (a link out included), a file that is not .html, and one that does not exist', async function () {
    const refusal = async (file) => traceFileToShow(file, out, cwd).then(() => null, (error) => error);
    for (const file of [join(elsewhere, 'trace-c.html'), 'sub/link.html', '../' + 'x.html']) {
      const error = await refusal(file);
      expect(error?.code, file).to.equal('invalid_arguments');
    }
    expect((await refusal(join(elsewhere, 'trace-c.html'))).message).to.include('outside the working directory');
    expect((await refusal('notes.txt')).message).to.include('is not an .html file');
    expect((await refusal('missing.html')).message).to.include('No file missing.html');
  });
});
