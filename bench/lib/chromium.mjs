// Debian's Chromium, as both peers are made to use it: headless, no sandbox (the bench may run as root), and the
// background traffic off, since this machine has no outside network and a stalled fetch would skew timings.
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-gpu',
  '--disable-quic',
];

export function chromiumMissing() {
  return existsSync(CHROMIUM) ? null : `no Chromium at ${CHROMIUM} (install it with: apt-get install -y chromium, or set BENCH_CHROMIUM)`;
}
