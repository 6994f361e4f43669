// Issue 15 item 21: one click must not let a page fill the output dir; each session has a download quota.
import { expect } from 'chai';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { closeAfterEach, useSite } from './helpers/browser-suite.mjs';
import { startServer } from './helpers/mcp-client.mjs';
import { waitFor } from './helpers/processes.mjs';

const KB = 1024;

/** The files in `dir` (not sub-folders), with Firefox's unfinished `.part` files apart. */
function filesIn(dir) {
  // A .part file may be renamed or deleted between the listing and the stat.
  const names = readdirSync(dir).filter((name) => statSync(join(dir, name), { throwIfNoEntry: false })?.isFile());
  return { done: names.filter((name) => !name.endsWith('.part')), partial: names.filter((name) => name.endsWith('.part')) };
}

describe('security: download quota per session', function () {
  this.timeout(180_000);
  /** Requests for a file the fixture server has had. */
  let hits = 0;
  const site = useSite({
      '/file': (req, res, url) => {
        hits++;
        const size = Number(url.searchParams.get('kb') ?? 64) * KB;
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-disposition': `attachment; filename="f${url.searchParams.get('n')}.bin"`, 'content-length': size });
        res.end(Buffer.alloc(size, 120));
      },
      '/flood': (req, res, url) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>flood</title>
<button id="go" style="width:200px;height:60px">Get the report</button>
<script>
  document.getElementById('go').addEventListener('click', () => {
    for (let n = 0; n < ${Number(url.searchParams.get('count') ?? 40)}; n++) {
      const a = document.createElement('a');
      a.href = '/file?n=' + n + '&kb=${Number(url.searchParams.get('kb') ?? 64)}';
      a.download = 'f' + n + '.bin';
      document.body.append(a);
      a.click();
    }
  });
</script>`),
  });
  const own = closeAfterEach();

  it('stops a page that writes 40 files in one click at the default quota (20 files) and says so', async function () {
    const server = own(await startServer());
    const tabId = (await server.ok('tabs_create_mcp', { url: site.url('/flood') })).structuredContent.tabId;
    hits = 0;
    const click = await server.call('computer', { tabId, action: 'left_click', coordinate: [100, 30] });
    expect(click.isError, server.text(click)).to.not.equal(true);
    // The page asked for more than the quota, every download Firefox started has ended (no .part file), and the quota
    // has deleted what it refused. (Once Firefox refuses the session's downloads it may not request the rest.)
    const settled = await waitFor(() => {
      const { done, partial } = filesIn(server.outputDir);
      return hits > 20 && partial.length === 0 && done.length <= 20 && done.length > 0;
    }, 60_000, 200);
    expect(settled, `${hits} requests; ${JSON.stringify(filesIn(server.outputDir))}\n${server.text(click)}`).to.equal(true);
    // One more round trip: a refused file that finished late is gone too.
    const later = await server.call('navigate', { tabId, url: site.url('/file?n=late&kb=4') });
    expect(server.text(later)).to.match(/download quota \(20 files, 100 MiB\) is used up/);
    // A refused file is deleted as soon as Firefox has finished it: none stays.
    const { done } = filesIn(server.outputDir);
    expect(done.length, JSON.stringify(done)).to.be.at.most(20);
    expect(done).to.not.include('flate.bin');
    const refused = (click.structuredContent.downloads ?? []).filter((download) => download.status === 'refused');
    if (click.structuredContent.downloads?.length > 20) expect(refused.length).to.be.at.least(click.structuredContent.downloads.length - 20);
  });

  it('refuses the download that goes past the byte limit of --download-quota and deletes its file', async function () {
    const server = own(await startServer({ args: ['--isolated', '--download-quota', '10,1'] }));
    const tabId = (await server.ok('tabs_create_mcp', { url: site.url('/flood?count=1&kb=700') })).structuredContent.tabId;
    const first = await server.ok('navigate', { tabId, url: site.url('/file?n=first&kb=700') });
    expect(server.text(first)).to.include('ffirst.bin to ');
    const second = await server.ok('navigate', { tabId, url: site.url('/file?n=second&kb=700') });
    expect(server.text(second)).to.match(/Download of fsecond\.bin refused: this session's download quota \(10 files, 1 MiB\) is used up/);
    expect(second.structuredContent.downloads?.[0]?.status ?? 'refused').to.equal('refused');
    expect(filesIn(server.outputDir).done).to.deep.equal(['ffirst.bin']);
    // Later downloads are refused by Firefox itself: nothing is written.
    const third = await server.ok('navigate', { tabId, url: site.url('/file?n=third&kb=4') });
    expect(server.text(third)).to.match(/fthird\.bin refused/);
    expect(filesIn(server.outputDir).done).to.deep.equal(['ffirst.bin']);
  });
});
