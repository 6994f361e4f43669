import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { CLI } from '../helpers/mcp-client.mjs';
import { alive, firefoxPids, waitFor } from '../helpers/processes.mjs';

function childFirefox(serverPid) {
  return firefoxPids().find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1] === String(serverPid);
    } catch {
      return false;
    }
  });
}

function profileOf(pid) {
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  return args[args.indexOf('--profile') + 1];
}

describe('no browser outlives its server', function () {
  for (const signal of ['SIGTERM', 'SIGKILL']) {
    it(`${signal} to the server ends its Firefox and deletes the isolated profile`, async function () {
      const server = spawn(process.execPath, [CLI, 'mcp', '--isolated'], { stdio: ['pipe', 'ignore', 'ignore'] });
      try {
        const firefox = await waitFor(() => childFirefox(server.pid), 20_000);
        expect(firefox, 'Firefox started by the server').to.be.a('number');
        // Wait until the profile is in use, so the kill lands on a fully started browser.
        const profile = profileOf(firefox);
        await waitFor(() => existsSync(`${profile}/WebDriverBiDiServer.json`), 20_000);
        server.kill(signal);
        const gone = await waitFor(() => !alive(firefox), 10_000);
        expect(gone, 'Firefox is gone').to.equal(true);
        // A bound, not a timing: on a saturated machine (load 13) the watchdog's cleanup once took over 10 s.
        const deleted = await waitFor(() => !existsSync(profile), 30_000);
        expect(deleted, `isolated profile ${profile} deleted`).to.equal(true);
      } finally {
        server.kill('SIGKILL');
      }
    });
  }

  it('deletes an isolated profile left when the server, its watchdog and Firefox were all SIGKILLed, at the next start', async function () {
    const first = spawn(process.execPath, [CLI, 'mcp', '--isolated'], { stdio: ['pipe', 'ignore', 'ignore'] });
    let second;
    try {
      const firefox = await waitFor(() => childFirefox(first.pid), 20_000);
      expect(firefox, 'Firefox started by the server').to.be.a('number');
      const profile = profileOf(firefox);
      await waitFor(() => existsSync(`${profile}/WebDriverBiDiServer.json`), 20_000);
      // Every direct child of the server: Firefox and the watchdog shell.
      const children = readFileSync(`/proc/${first.pid}/task/${first.pid}/children`, 'utf8').trim().split(/\s+/).map(Number);
      for (const pid of [first.pid, ...children]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone already
        }
      }
      expect(await waitFor(() => !alive(firefox), 10_000), 'Firefox is gone').to.equal(true);
      expect(existsSync(profile), 'nothing was left to delete the profile').to.equal(true);
      // The next start of firefox-use (any profile) deletes it.
      second = spawn(process.execPath, [CLI, 'mcp', '--isolated'], { stdio: ['pipe', 'ignore', 'ignore'] });
      const deleted = await waitFor(() => !existsSync(profile), 20_000);
      expect(deleted, `isolated profile ${profile} deleted by the next start`).to.equal(true);
    } finally {
      first.kill('SIGKILL');
      second?.kill('SIGTERM');
      if (second) await waitFor(() => !alive(second.pid), 10_000);
    }
  });
});
