// Used only by test/slow/root-hooks.test.mjs: starts a Firefox and "forgets" to close it, so the suite-end hook
// (root-hooks.mjs) has something to catch. Not a *.test.mjs file: the normal suite never runs it.
import { spawn } from 'node:child_process';
import { firefoxPids, waitFor } from './processes.mjs';

describe('a test that leaks a Firefox', function () {
  it('starts Firefox and does not close it', async function () {
    this.timeout(30_000);
    const firefox = spawn(process.env.FIREFOX_BIN ?? 'firefox', ['--headless', '--no-remote', '--profile', process.env.LEAK_PROFILE, 'about:blank'], {
      stdio: 'ignore',
      detached: true,
    });
    firefox.unref();
    await waitFor(() => firefoxPids().length > 0, 20_000);
  });
});
