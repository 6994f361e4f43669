#!/usr/bin/env node
// Figures for the computer tool over real MCP stdio: click by ref (guarded, delivery-checked, with the snapshot
// delta), typing 20 characters, a key chord, zoom. Prints one JSON object. Run after `npm run build`.
import { startFixtureServer } from '../test/helpers/fixtures.mjs';
import { startServer, firstTab } from '../test/helpers/mcp-client.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 40);

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: Math.round(at(0.5) * 10) / 10, p95: Math.round(at(0.95) * 10) / 10, n: sorted.length };
}

async function timed(runs, fn) {
  const samples = [];
  for (let i = 0; i < runs + 3; i++) {
    const started = performance.now();
    await fn(i);
    if (i >= 3) samples.push(performance.now() - started);
  }
  return stats(samples);
}

const fixtures = await startFixtureServer();
const server = await startServer({ env: { FIREFOX_USE_TEST_TOOLS: '1' } });
try {
  const tabId = await firstTab(server);
  await server.ok('navigate', { tabId, url: fixtures.url('/computer/actions.html') });
  const ref = async (selector) => (await server.ok('test_ref_for_selector', { tabId, selector })).structuredContent.ref;
  const button = await ref('#btn');
  const field = await ref('#field');
  const out = {};
  out.click_by_ref_ms = await timed(RUNS, () => server.ok('computer', { tabId, action: 'left_click', ref: button }));
  out.click_by_coordinate_ms = await timed(RUNS, () => server.ok('computer', { tabId, action: 'left_click', coordinate: [80, 40] }));
  out.type_20_chars_ms = await timed(Math.min(RUNS, 20), () => server.ok('computer', { tabId, action: 'type', ref: field, text: 'abcdefghij0123456789' }));
  out.key_chord_ms = await timed(RUNS, () => server.ok('computer', { tabId, action: 'key', text: 'ctrl+a' }));
  out.zoom_200x100_ms = await timed(RUNS, () => server.ok('computer', { tabId, action: 'zoom', region: [600, 280, 800, 380] }));
  out.zoom_scale2_ms = await timed(Math.min(RUNS, 15), () => server.ok('computer', { tabId, action: 'zoom', region: [600, 280, 800, 380], scale: 2 }));
  out.scroll_nested_ms = await timed(Math.min(RUNS, 20), (i) => server.ok('computer', { tabId, action: 'scroll', coordinate: [100, 240], scroll_direction: i % 2 ? 'up' : 'down', scroll_amount: 1 }));
  const sample = await server.ok('computer', { tabId, action: 'left_click', ref: button });
  out.click_reply_chars = server.text(sample).length;
  out.targets = { click_by_ref_p50_ms: 40, zoom_p50_ms: 80 };
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
} finally {
  await server.close();
  await fixtures.close();
}
