// Options a user of another browser server expects: YAML configs with "did you mean", a named Firefox that must
// exist, and the launch flags' values checked before Firefox starts. No browser here.
import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveOptions } from '../../dist/config.js';
import { findFirefox } from '../../dist/browser/launch/firefox-binary.js';
import { launchTuning, userJsLines } from '../../dist/browser/launch/launch-prefs.js';
import { checkToolChoice } from '../../dist/mcp/server.js';
import { parseCommand } from '../../dist/cli/args.js';

describe('options: config files, Firefox binary, launch flags', function () {
  const dir = mkdtempSync(join(tmpdir(), 'fu-opts-'));

  it('reads a YAML --config and suggests the nearest key for a typo', function () {
    const good = join(dir, 'good.yaml');
    writeFileSync(good, 'viewport: 1024x768\nlocale: de-DE\ncaps: [storage]\n');
    const options = resolveOptions({ config: good }, {});
    expect(options.viewport).to.deep.equal({ width: 1024, height: 768 });
    expect(options.locale).to.equal('de-DE');
    expect(options.caps).to.deep.equal(['storage']);
    const typo = join(dir, 'typo.yaml');
    writeFileSync(typo, 'viewprot: 1024x768\n');
    expect(() => resolveOptions({ config: typo }, {})).to.throw(/unknown key "viewprot"\. Did you mean "viewport"\?/);
  });

  it('refuses a --firefox or FIREFOX_BIN that does not exist instead of falling back to PATH', function () {
    expect(() => findFirefox('/nonexistent/firefox')).to.throw(/--firefox \/nonexistent\/firefox: no executable file there/);
    const saved = process.env.FIREFOX_BIN;
    process.env.FIREFOX_BIN = '/nonexistent/firefox-bin';
    try {
      expect(() => findFirefox()).to.throw(/FIREFOX_BIN=\/nonexistent\/firefox-bin/);
    } finally {
      if (saved === undefined) delete process.env.FIREFOX_BIN;
      else process.env.FIREFOX_BIN = saved;
    }
  });

  it('checks --caps and --tools names, with the nearest real one', function () {
    expect(() => checkToolChoice({ caps: ['storgae'], tools: [] })).to.throw(/no tool group "storgae"\. Did you mean "storage"\?/);
    expect(() => checkToolChoice({ caps: [], tools: ['read_pge'] })).to.throw(/Did you mean "read_page"\?/);
    expect(() => checkToolChoice({ caps: ['storage'], tools: ['read_page', 'navigate'] })).to.not.throw();
  });

  it('turns launch flags into prefs and environment, refusing bad values by flag', function () {
    const { prefs, env } = launchTuning({ locale: 'fr-CA', timezone: 'America/Toronto', proxyServer: 'socks5://127.0.0.1:1080', prefs: ['ui.key.accelKey=17', 'a.b=true', 'c.d=x'] });
    expect(prefs).to.include({ 'intl.accept_languages': 'fr-CA', 'network.proxy.socks': '127.0.0.1', 'network.proxy.socks_port': 1080, 'ui.key.accelKey': 17, 'a.b': true, 'c.d': 'x' });
    expect(env).to.deep.equal({ TZ: 'America/Toronto' });
    expect(userJsLines({ 'a.b': true, 'c.d': 'x' })).to.equal('user_pref("a.b", true);\nuser_pref("c.d", "x");');
    expect(() => launchTuning({ timezone: 'Mars/Olympus' })).to.throw(/--timezone/);
    expect(() => launchTuning({ geolocation: '95,10' })).to.throw(/--geolocation/);
    const geo = launchTuning({ geolocation: '52.52, -13.405' });
    expect(geo.geolocation).to.deep.include({ latitude: 52.52, longitude: -13.405 });
    expect(geo.prefs).to.deep.equal({ 'permissions.default.geo': 1 });
    expect(() => launchTuning({ prefs: ['novalue'] })).to.throw(/--pref: expected NAME=VALUE/);
  });

  it('takes --pref repeated, as a comma list, from the environment and from a config list, keeping commas inside values', function () {
    const spec = { name: 'mcp', summary: '', usage: 'mcp', common: true };
    const { flags } = parseCommand(spec, ['--pref', 'a.b=1', '--pref', 'c.d=true,e.f=x', '--pref', 'intl.accept_languages=de-DE,en']);
    expect(resolveOptions(flags, {}).prefs).to.deep.equal(['a.b=1', 'c.d=true', 'e.f=x', 'intl.accept_languages=de-DE,en']);
    expect(resolveOptions({}, { FIREFOX_USE_PREF: 'a.b=1,c.d=2' }).prefs).to.deep.equal(['a.b=1', 'c.d=2']);
    const config = join(dir, 'prefs.yaml');
    writeFileSync(config, 'pref:\n  - a.b=1\n  - intl.accept_languages=fr,en\n');
    expect(resolveOptions({ config }, {}).prefs).to.deep.equal(['a.b=1', 'intl.accept_languages=fr,en']);
    expect(launchTuning({ prefs: resolveOptions(flags, {}).prefs }).prefs).to.include({ 'a.b': 1, 'c.d': true, 'e.f': 'x', 'intl.accept_languages': 'de-DE,en' });
  });
});
