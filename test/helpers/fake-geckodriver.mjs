#!/usr/bin/env node
// The test endpoint (webdriver-endpoint.mjs) as a geckodriver-like executable, for a Selenium Grid node's
// driver-configuration (webdriver-path): the node starts it with --port=N (and geckodriver's other flags, which are
// read and ignored here) and talks WebDriver to it; it launches the real Firefox per session, as geckodriver does.
import { startWebDriverEndpoint } from './webdriver-endpoint.mjs';

const args = process.argv.slice(2);
if (args.includes('--version')) {
  process.stdout.write('geckodriver 0.34.0 (firefox-use test endpoint)\n');
  process.exit(0);
}
const value = (name) => {
  const inline = args.find((arg) => arg.startsWith(`${name}=`));
  if (inline) return inline.slice(name.length + 1);
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const endpoint = await startWebDriverEndpoint({ port: Number(value('--port') ?? 4444) });
process.stderr.write(`fake-geckodriver: listening on ${endpoint.url} (args: ${args.join(' ')})\n`);
const stop = async () => {
  await endpoint.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
