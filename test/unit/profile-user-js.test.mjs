// --profile PATH on a folder whose user.js the user wrote: the file is never changed, flags that need prefs are
// refused before anything starts, and the note says what differs from the template. No browser.
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OwnedProfile, templateUserJs } from '../../dist/browser/launch/profile.js';
import { checkForeignProfile, foreignNote, foreignUserJs } from '../../dist/browser/launch/user-js.js';
import { cli } from '../helpers/mcp-client.mjs';

const USERS = '// my own prefs\nuser_pref("browser.startup.page", 3);\nuser_pref("intl.accept_languages", "fr-FR");\n';

const made = [];
after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function usersProfile() {
  const dir = mkdtempSync(join(tmpdir(), 'fu-users-profile-'));
  made.push(dir);
  writeFileSync(join(dir, 'user.js'), USERS);
  return dir;
}

describe("a profile with the user's own user.js", function () {
  it('is used without touching the file; the lock comes and goes', function () {
    const dir = usersProfile();
    const before = statSync(join(dir, 'user.js')).mtimeMs;
    const profile = OwnedProfile.acquire(dir, false);
    expect(existsSync(join(dir, 'firefox-use.lock'))).to.equal(true);
    profile.release();
    expect(readFileSync(join(dir, 'user.js'), 'utf8')).to.equal(USERS);
    expect(statSync(join(dir, 'user.js')).mtimeMs).to.equal(before);
    expect(existsSync(join(dir, 'firefox-use.lock'))).to.equal(false);
  });

  it('refuses prefs it would have to write, and leaves the file as it was', function () {
    const dir = usersProfile();
    expect(() => OwnedProfile.acquire(dir, false, { 'intl.locale.requested': 'de-DE' })).to.throw(/has its own user.js, which firefox-use never changes/);
    expect(readFileSync(join(dir, 'user.js'), 'utf8')).to.equal(USERS);
    expect(existsSync(join(dir, 'firefox-use.lock'))).to.equal(false);
    expect(() => checkForeignProfile(dir, { locale: 'de-DE', prefs: ['a=1'] })).to.throw(/--pref, --locale work by writing prefs/).with.property('details').that.deep.equals({ field: 'pref' });
    expect(() => checkForeignProfile(dir, { proxyBypass: ['x'] })).not.to.throw();
  });

  it('says which template prefs the user set otherwise', function () {
    const note = foreignNote('/p', USERS, readFileSync(templateUserJs(), 'utf8'));
    expect(note).to.match(/^firefox-use: \/p has its own user.js: kept as it is/);
    expect(note).to.include('browser.startup.page=3 (template: 0)');
  });

  it('still refreshes a user.js of its own (the template) at each launch', function () {
    const dir = mkdtempSync(join(tmpdir(), 'fu-our-profile-'));
    made.push(dir);
    writeFileSync(join(dir, 'user.js'), readFileSync(templateUserJs(), 'utf8') + 'user_pref("old.flag", 1);\n');
    expect(foreignUserJs(dir)).to.equal(null);
    OwnedProfile.acquire(dir, false).release();
    expect(readFileSync(join(dir, 'user.js'), 'utf8')).to.equal(readFileSync(templateUserJs(), 'utf8'));
  });

  it('stops `mcp --pref` on such a folder with exit 2 before Firefox starts', async function () {
    const dir = usersProfile();
    const { code, stderr } = await cli(['mcp', '--profile', dir, '--pref', 'a.b=1']);
    expect(code).to.equal(2);
    expect(stderr).to.include('--pref works by writing prefs into the profile\'s user.js');
    expect(readFileSync(join(dir, 'user.js'), 'utf8')).to.equal(USERS);
  });
});
