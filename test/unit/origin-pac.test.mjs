// Issue 15 item 5: the proxy auto-config that enforces --allowed-origins / --blocked-origins for every realm decides as
// originAllowed does (run here as Firefox runs it: the PAC's own source, FindProxyForURL(url, host)).
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { userJsLines } from '../../dist/browser/launch/launch-prefs.js';
import { OwnedProfile } from '../../dist/browser/launch/profile.js';
import { launchTuning } from '../../dist/browser/launch/launch-prefs.js';
import { originAllowed } from '../../dist/browser/launch/origins.js';

function pacOf(flags) {
  const prefs = launchTuning(flags).prefs;
  const url = prefs['network.proxy.autoconfig_url'];
  const source = decodeURIComponent(url.slice(url.indexOf(',') + 1));
  return { prefs, find: new Function(`${source}; return FindProxyForURL;`)() };
}

/** Firefox hands the PAC the URL and its host (lower case, IPv6 without brackets). */
const hostOf = (url) => new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');

describe('the origin rules as a proxy auto-config', function () {
  const cases = [
    'http://127.0.0.1:5000/x',
    'http://127.0.0.1:5001/x',
    'ws://127.0.0.1:5000/socket',
    'http://localhost:5000/',
    'http://[::ffff:127.0.0.1]:5000/',
    'https://example.com/',
    'https://example.com:443/',
    'http://example.com/',
    'https://a.example.com./',
    'https://shop.test:8443/',
    'https://shop.test/',
    'http://xn--bcher-kva.de/',
  ];
  for (const rules of [
    { allowedOrigins: ['127.0.0.1:5000'], blockedOrigins: [] },
    { allowedOrigins: ['https://example.com', '*.example.com', 'shop.test:8443', 'bücher.de'], blockedOrigins: [] },
    { allowedOrigins: [], blockedOrigins: ['Localhost', '*.example.com', 'https://shop.test:443'] },
    { allowedOrigins: ['127.0.0.1'], blockedOrigins: ['127.0.0.1:5001'] },
  ]) {
    it(`refuses exactly what originAllowed refuses (${JSON.stringify(rules)})`, function () {
      const { prefs, find } = pacOf(rules);
      expect(prefs['network.proxy.type']).to.equal(2);
      expect(prefs['network.proxy.failover_direct'], 'a refused proxy must not fall back to a direct request').to.equal(false);
      expect(prefs['network.proxy.allow_hijacking_localhost'], 'loopback goes through the PAC too').to.equal(true);
      for (const url of cases) {
        expect(find(url, hostOf(url)), url).to.equal(originAllowed(url, rules) ? 'DIRECT' : 'PROXY 127.0.0.1:9');
      }
    });
  }

  it('sends what it allows through --proxy-server, but for --proxy-bypass hosts', function () {
    const { find } = pacOf({ allowedOrigins: ['*.corp.example', 'example.com'], blockedOrigins: [], proxyServer: 'socks5://127.0.0.1:1080', proxyBypass: ['.corp.example'] });
    expect(find('http://example.com/', 'example.com')).to.equal('SOCKS5 127.0.0.1:1080');
    expect(find('http://intra.corp.example/', 'intra.corp.example')).to.equal('DIRECT');
    expect(find('http://other.org/', 'other.org')).to.equal('PROXY 127.0.0.1:9');
    expect(pacOf({ allowedOrigins: ['example.com'], blockedOrigins: [], proxyServer: '127.0.0.1:3128' }).find('http://example.com/', 'example.com')).to.equal('PROXY 127.0.0.1:3128');
  });

  it('leaves the proxy settings alone without origin rules', function () {
    expect(launchTuning({}).prefs).to.not.have.property('network.proxy.type');
    expect(launchTuning({ allowedOrigins: [], blockedOrigins: [] }).prefs).to.not.have.property('network.proxy.autoconfig_url');
  });

  it('takes the PAC out of a profile that kept it from a run with origin rules (Firefox saves user.js prefs into prefs.js)', function () {
    const dir = mkdtempSync(join(tmpdir(), 'pac-profile-'));
    try {
      const withRules = launchTuning({ allowedOrigins: ['example.com'], blockedOrigins: [] }).prefs;
      writeFileSync(join(dir, 'prefs.js'), `${userJsLines(withRules)}\n`);
      const userJs = (prefs) => {
        const profile = OwnedProfile.acquire(dir, false, prefs);
        profile.release();
        return readFileSync(join(dir, 'user.js'), 'utf8');
      };
      const later = userJs({});
      expect(later).to.include('user_pref("network.proxy.autoconfig_url", "");');
      expect(later).to.include('user_pref("network.proxy.type", 5);');
      expect(later).to.include('user_pref("network.proxy.failover_direct", true);');
      // A run with rules writes its own PAC, and one with --proxy-server keeps that proxy.
      expect(userJs(withRules)).to.not.include('user_pref("network.proxy.autoconfig_url", "");');
      const proxied = userJs(launchTuning({ proxyServer: '127.0.0.1:3128' }).prefs);
      expect(proxied).to.include('user_pref("network.proxy.type", 1);');
      expect(proxied).to.not.include('user_pref("network.proxy.type", 5);');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
