// Issue 15 item 17: the next start deletes an isolated profile whose server, watchdog and Firefox were all killed,
// and never one a live process holds. Real processes (a live one, a dead one, a zombie), no Firefox.
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reapIsolatedProfiles } from '../../dist/browser/launch/profile.js';

function profile(root, name, { lock, firefox, old } = {}) {
  const dir = join(root, `firefox-use-isolated-${name}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'prefs.js'), '// cookies and the rest\n');
  if (lock !== undefined) writeFileSync(join(dir, 'firefox-use.lock'), JSON.stringify({ pid: lock, startedAt: new Date().toISOString() }));
  // Firefox's own lock: a symlink whose target ends in "+PID".
  if (firefox !== undefined) symlinkSync(`127.0.0.1:+${firefox}`, join(dir, 'lock'));
  if (old) utimesSync(dir, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
  return dir;
}

describe('reaping isolated profiles left by a killed server (item 17)', function () {
  let root;
  let live;
  let zombieHolder;
  let deadPid;
  let zombiePid;
  before(async function () {
    root = mkdtempSync(join(tmpdir(), 'reaper-test-'));
    live = spawn('sleep', ['60'], { stdio: 'ignore' });
    deadPid = spawnSync('true').pid;
    // `sleep 0` becomes a child of `sleep 60` (after exec), which never waits for it: a zombie, as a killed Firefox
    // stays when the init that inherited it does not reap.
    zombieHolder = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
    zombiePid = Number(await new Promise((resolve) => zombieHolder.stdout.once('data', resolve)));
    for (let i = 0; i < 100 && !/\) Z /.test(readStat(zombiePid)); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(readStat(zombiePid), 'a zombie to test with').to.match(/\) Z /);
  });
  after(function () {
    live?.kill('SIGKILL');
    zombieHolder?.kill('SIGKILL');
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('deletes the dead ones and keeps every profile a live process holds', function () {
    const deadServer = profile(root, 'dead', { lock: deadPid, firefox: deadPid });
    const zombieFirefox = profile(root, 'zombie', { lock: deadPid, firefox: zombiePid });
    const zombieServer = profile(root, 'zombie-server', { lock: zombiePid });
    const oldUnlocked = profile(root, 'old-unlocked', { old: true });
    const liveServer = profile(root, 'live-server', { lock: live.pid });
    const liveFirefox = profile(root, 'live-firefox', { lock: deadPid, firefox: live.pid });
    // Just made by a start that has not written its lock yet.
    const young = profile(root, 'young');
    const other = join(root, 'not-ours');
    mkdirSync(other);

    const reaped = reapIsolatedProfiles(root);

    expect(reaped.sort()).to.deep.equal([deadServer, oldUnlocked, zombieFirefox, zombieServer].sort());
    for (const dir of [deadServer, zombieFirefox, zombieServer, oldUnlocked]) expect(existsSync(dir), dir).to.equal(false);
    for (const dir of [liveServer, liveFirefox, young, other]) expect(existsSync(dir), dir).to.equal(true);
  });

  it('kills a Firefox left running on a throwaway profile whose server is gone, then deletes the profile', async function () {
    // Stands in for a Firefox SIGKILLed with its server before the watchdog started: a process group of its own,
    // the profile on its command line, holding Firefox's lock.
    const dir = join(root, 'firefox-use-isolated-orphan');
    const orphan = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', '--', '--profile', dir], { detached: true, stdio: 'ignore' });
    try {
      await new Promise((resolve) => orphan.once('spawn', resolve));
      profile(root, 'orphan', { lock: deadPid, firefox: orphan.pid });
      const exited = new Promise((resolve) => orphan.once('exit', (code, signal) => resolve(signal)));

      expect(reapIsolatedProfiles(root)).to.include(dir);

      expect(await exited, 'the orphan was killed').to.equal('SIGKILL');
      expect(existsSync(dir)).to.equal(false);
    } finally {
      orphan.kill('SIGKILL');
    }
  });
});

function readStat(pid) {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return '';
  }
}
