// --profile PATH on a folder whose user.js the user wrote: Firefox runs with the user's prefs (the page sees the
// language the file sets), and after the server ends the file is byte for byte what it was.
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { firstTab, startServer } from './helpers/mcp-client.mjs';
import { alive, waitFor } from './helpers/processes.mjs';

const USERS = '// my own prefs, not firefox-use\'s\nuser_pref("intl.accept_languages", "fr-FR");\nuser_pref("general.useragent.override", "MyOwnAgent/1.0");\nuser_pref("browser.startup.page", 3);\n';

describe("--profile PATH with the user's own user.js", function () {
  this.timeout(120_000);
  let site;
  let dir;
  before(async () => {
    site = await startFixtureServer({
      '/lang': (req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<!doctype html><title>lang</title><p id="out"></p><p>header=${req.headers['accept-language']} ua=${req.headers['user-agent']}</p><script>document.getElementById('out').textContent = 'languages=' + navigator.languages.join(',')</script>`);
      },
    });
  });
  after(async () => {
    await site?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("runs with the user's prefs and leaves the file untouched", async function () {
    dir = mkdtempSync(join(tmpdir(), 'fu-users-profile-'));
    writeFileSync(join(dir, 'user.js'), USERS);
    const server = await startServer({ args: ['--profile', dir] });
    let pid;
    try {
      pid = server.pid();
      const tabId = await firstTab(server);
      await server.ok('navigate', { tabId, url: site.url('/lang') });
      const text = server.text(await server.ok('get_page_text', { tabId }));
      // The comment names firefox-use: only the template's own first line makes a user.js ours.
      expect(text).to.include('header=fr-FR').and.include('ua=MyOwnAgent/1.0');
      // Said by the profile's shared browser, whose log this agent's stderr relays.
      expect(await waitFor(() => server.stderr.includes(`${dir} has its own user.js: kept as it is`), 5_000)).to.equal(true);
    } finally {
      await server.close();
    }
    expect(await waitFor(() => !alive(pid), 15_000)).to.equal(true);
    // The profile's shared browser closes a grace period after its last agent left, and gives the profile back.
    expect(await waitFor(() => !existsSync(join(dir, 'firefox-use.lock')), 20_000)).to.equal(true);
    expect(readFileSync(join(dir, 'user.js'), 'utf8')).to.equal(USERS);
  });
});
