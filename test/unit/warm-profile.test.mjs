// A throwaway profile starts from the first-run state a previous one left: only Firefox's own caches and migration
// markers are kept, never what a page or the session's flags wrote. Real files, no Firefox.
import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasFirstRunState, keepFirstRunState, seedProfile } from '../../dist/browser/launch/warm-profile.js';

function usedProfile(root) {
  const dir = mkdtempSync(join(root, 'profile-'));
  mkdirSync(join(dir, 'startupCache'));
  writeFileSync(join(dir, 'startupCache', 'startupCache.8.little'), 'chrome code');
  writeFileSync(join(dir, 'startupCache', 'urlCache-current.bin'), `file://${dir}/xulstore.json`);
  for (const name of ['compatibility.ini', 'extensions.json', 'addonStartup.json.lz4', 'extension-preferences.json']) writeFileSync(join(dir, name), name);
  for (const name of ['cookies.sqlite', 'places.sqlite', 'permissions.sqlite', 'sessionstore.jsonlz4', 'user.js']) writeFileSync(join(dir, name), 'the session\'s own');
  writeFileSync(
    join(dir, 'prefs.js'),
    [
      'user_pref("browser.migration.version", 175);',
      'user_pref("extensions.lastAppBuildId", "20261117185949");',
      'user_pref("browser.download.lastDir", "/home/someone/secret");',
      'user_pref("network.proxy.http", "proxy.example");',
      'user_pref("print.printer_Mozilla_Save_to_PDF.print_to_filename", "/tmp/x.pdf");',
    ].join('\n'),
  );
  return dir;
}

describe('warm throwaway profiles', function () {
  let root;
  let cache;
  let firefox;
  beforeEach(function () {
    root = mkdtempSync(join(tmpdir(), 'warm-profile-test-'));
    cache = join(root, 'cache');
    firefox = join(root, 'firefox');
    writeFileSync(firefox, 'a Firefox build');
  });
  afterEach(function () {
    rmSync(root, { recursive: true, force: true });
  });

  it('keeps only caches and migration markers, and seeds the next profile with them', function () {
    expect(seedProfile(mkdtempSync(join(root, 'fresh-')), firefox, cache), 'nothing saved yet').to.equal(false);
    expect(keepFirstRunState(usedProfile(root), firefox, cache)).to.equal(true);
    expect(hasFirstRunState(firefox, cache)).to.equal(true);
    const [template] = readdirSync(cache);
    expect(readdirSync(join(cache, template)).sort()).to.deep.equal(['addonStartup.json.lz4', 'compatibility.ini', 'extension-preferences.json', 'extensions.json', 'prefs.js', 'startupCache']);
    expect(readdirSync(join(cache, template, 'startupCache'))).to.deep.equal(['startupCache.8.little']);
    const prefs = readFileSync(join(cache, template, 'prefs.js'), 'utf8');
    expect(prefs).to.include('browser.migration.version').and.include('extensions.lastAppBuildId');
    expect(prefs).not.to.include('lastDir').and.not.to.include('proxy').and.not.to.include('print');

    const next = mkdtempSync(join(root, 'next-'));
    writeFileSync(join(next, 'user.js'), 'user_pref("this.launch", 1);');
    expect(seedProfile(next, firefox, cache)).to.equal(true);
    expect(readFileSync(join(next, 'user.js'), 'utf8'), 'the launch\'s own user.js stays').to.include('this.launch');
    expect(existsSync(join(next, 'startupCache', 'startupCache.8.little'))).to.equal(true);
    expect(existsSync(join(next, 'cookies.sqlite'))).to.equal(false);
  });

  it('saves once per Firefox build and drops the templates of older builds', function () {
    expect(keepFirstRunState(usedProfile(root), firefox, cache)).to.equal(true);
    expect(keepFirstRunState(usedProfile(root), firefox, cache), 'already saved').to.equal(false);
    const before = readdirSync(cache);
    writeFileSync(firefox, 'an upgraded Firefox build');
    expect(hasFirstRunState(firefox, cache)).to.equal(false);
    expect(keepFirstRunState(usedProfile(root), firefox, cache)).to.equal(true);
    const after = readdirSync(cache);
    expect(after).to.have.length(1);
    expect(after[0]).not.to.equal(before[0]);
  });

  it('saves nothing from a profile Firefox did not finish writing', function () {
    const dir = usedProfile(root);
    rmSync(join(dir, 'extensions.json'));
    expect(keepFirstRunState(dir, firefox, cache)).to.equal(false);
    expect(hasFirstRunState(firefox, cache)).to.equal(false);
  });
});
