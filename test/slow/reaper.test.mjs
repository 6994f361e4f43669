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
        const deleted = await waitFor(() => !existsSync(profile), 10_000);
        expect(deleted, `isolated profile ${profile} deleted`).to.equal(true);
      } finally {
        server.kill('SIGKILL');
      }
    });
  }
});
