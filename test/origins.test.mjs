// Issue 15, item 6: origin rules hold under every spelling of a host (no Firefox needed).
import { expect } from 'chai';
import { originAllowed, originMatches } from '../dist/browser/launch/origins.js';

describe('origin patterns: both sides normalized', function () {
  const cases = [
    ['http://Localhost:3000/', 'localhost', true],
    ['http://localhost.:3000/', 'localhost', true],
    ['http://[::ffff:127.0.0.1]:80/', '127.0.0.1', true],
    ['http://0x7f.1/', '127.0.0.1', true],
    ['https://example.com./x', 'example.com', true],
    ['http://EXAMPLE.com/', 'Example.COM.', true],
    ['https://example.com/', 'https://example.com:443', true],
    ['https://example.com/', 'example.com:443', true],
    ['https://example.com:8443/', 'https://example.com:443', false],
    ['https://xn--bcher-kva.de/', 'bücher.de', true],
    ['https://bücher.de/', 'xn--bcher-kva.de', true],
    ['https://a.b.example.com/', '*.example.com', true],
    ['https://example.com/', '*.example.com', true],
    ['https://badexample.com/', '*.example.com', false],
    ['http://127.0.0.1:8081/', 'http://127.0.0.1:8080', false],
    ['http://[::1]:9/', '[::1]', true],
    ['http://example.com/', 'https://example.com', false],
  ];
  for (const [url, pattern, expected] of cases) {
    it(`${url} ${expected ? 'matches' : 'does not match'} ${pattern}`, function () {
      expect(originMatches(new URL(url), pattern)).to.equal(expected);
    });
  }

  it('blocks every spelling of a blocked host and lets only the allowed host through', function () {
    const blocked = { allowedOrigins: [], blockedOrigins: ['localhost', '127.0.0.1', 'example.com'] };
    for (const url of ['http://LOCALHOST/', 'http://localhost./', 'http://[::ffff:127.0.0.1]/', 'http://[::ffff:7f00:1]:8080/', 'https://example.com.:443/', 'ws://Example.Com/']) {
      expect(originAllowed(url, blocked), url).to.equal(false);
    }
    const allowed = { allowedOrigins: ['https://example.com:443'], blockedOrigins: [] };
    expect(originAllowed('https://EXAMPLE.com./a', allowed)).to.equal(true);
    expect(originAllowed('https://example.com.evil.test/', allowed)).to.equal(false);
    expect(originAllowed('http://example.com/', allowed)).to.equal(false);
  });
});
