// --connect: where the BiDi socket of the user's Firefox is, from each form the flag takes. No browser.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectUrl } from '../../dist/browser/launch/attach.js';
import { resolveOptions } from '../../dist/config.js';

describe('--connect', function () {
  const made = [];
  after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('takes a ws or http URL, HOST:PORT, a port, or a profile folder with WebDriverBiDiServer.json', function () {
    expect(connectUrl('ws://127.0.0.1:9222').url).to.equal('ws://127.0.0.1:9222/session');
    expect(connectUrl('ws://127.0.0.1:9222/session').url).to.equal('ws://127.0.0.1:9222/session');
    expect(connectUrl('http://localhost:9222/').url).to.equal('ws://localhost:9222/session');
    expect(connectUrl('127.0.0.1:9222').url).to.equal('ws://127.0.0.1:9222/session');
    expect(connectUrl('9222').url).to.equal('ws://127.0.0.1:9222/session');
    const profile = mkdtempSync(join(tmpdir(), 'fu-connect-unit-'));
    made.push(profile);
    writeFileSync(join(profile, 'WebDriverBiDiServer.json'), JSON.stringify({ ws_host: '127.0.0.1', ws_port: 41234 }));
    expect(connectUrl(profile)).to.deep.equal({ url: 'ws://127.0.0.1:41234/session', from: join(profile, 'WebDriverBiDiServer.json') });
  });

  it('refuses a folder without the file, naming the flag, and --connect with --webdriver-url', function () {
    const empty = mkdtempSync(join(tmpdir(), 'fu-connect-unit-'));
    made.push(empty);
    expect(() => connectUrl(empty)).to.throw(/--connect: .* a profile folder with WebDriverBiDiServer.json/).with.property('details').that.deep.equals({ field: 'connect' });
    expect(() => resolveOptions({ connect: '9222', 'webdriver-url': 'http://127.0.0.1:4444' }, {})).to.throw(/--connect and --webdriver-url/);
  });
});
