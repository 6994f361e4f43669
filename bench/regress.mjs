// Bench: a suite of 10 varied pages at 2 viewports (20 captures, stillness checked), --workers 1 and 2,
// timed end to end as a CI job runs it (Firefox start included), then the same pages through Playwright Test's
// toHaveScreenshot (Debian's Chromium, one worker) when the bench's dev dependencies are installed. Prints JSON.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { CHROMIUM, CHROMIUM_FLAGS, chromiumMissing } from './lib/chromium.mjs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'fu-bench-regress-'));
const pages = [
  ['text', '<h1>Article</h1>' + '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit. </p>'.repeat(30)],
  ['grid', '<div style="display:grid;grid-template-columns:repeat(6,1fr);gap:6px">' + Array.from({ length: 60 }, (_, i) => `<div style="height:40px;background:hsl(${i * 6},60%,60%)">${i}</div>`).join('') + '</div>'],
  ['form', '<form>' + ['Name', 'Email', 'Phone', 'City'].map((l) => `<label>${l} <input placeholder="${l}"></label><br>`).join('') + '<select><option>A</option></select><textarea>notes</textarea><button>Send</button></form>'],
  ['table', '<table border="1">' + Array.from({ length: 25 }, (_, r) => `<tr>${Array.from({ length: 6 }, (_, c) => `<td>${r}:${c}</td>`).join('')}</tr>`).join('') + '</table>'],
  ['animated', '<style>.s{width:40px;height:40px;background:#c33;animation:r 1s linear infinite}@keyframes r{to{transform:rotate(360deg)}}.f{transition:all 2s}</style><div class="s"></div><div class="f">fade</div>'],
  ['svg', '<svg width="300" height="200">' + Array.from({ length: 20 }, (_, i) => `<circle cx="${i * 15}" cy="${100 + Math.sin(i) * 60}" r="10" fill="hsl(${i * 18},70%,50%)"/>`).join('') + '</svg>'],
  ['flex', '<nav style="display:flex;gap:10px;background:#222;color:#fff;padding:10px">' + 'Home About Blog Shop Contact'.split(' ').map((w) => `<a style="color:#fff">${w}</a>`).join('') + '</nav><main style="display:flex"><aside style="width:200px;background:#eee;height:300px"></aside><section>content</section></main>'],
  ['clock', '<div id="clock"></div><script>setInterval(()=>clock.textContent=Date.now(),10)</script><p>masked clock</p>'],
  ['long', Array.from({ length: 80 }, (_, i) => `<p>Line ${i} of a long page</p>`).join('')],
  ['focus', '<input autofocus value="caret here"><p>focused input, caret hidden</p>'],
];
for (const [name, body] of pages) writeFileSync(join(dir, `${name}.html`), `<!doctype html><meta charset="utf-8"><title>${name}</title><body style="font:15px sans-serif">${body}</body>`);
const config = join(dir, 'suite.yaml');
writeFileSync(config, `viewports: [1280x800, 390x844]\npages:\n${pages.map(([name]) => `  - {name: ${name}, file: ${name}.html${name === 'clock' ? ', mask: ["#clock"]' : ''}}`).join('\n')}\n`);

function run(workers, label) {
  const started = performance.now();
  const out = spawnSync(process.execPath, [CLI, 'regress', config, '--workers', String(workers), '--baseline-dir', join(dir, 'baselines'), '--report-dir', join(dir, `report-${label}`)], { encoding: 'utf8' });
  const ms = Math.round(performance.now() - started);
  const summary = JSON.parse(out.stdout.trim().split('\n').pop()).summary;
  return { label, workers, ms, exit: out.status, summary };
}

/** The same 20 captures as a Playwright Test suite: baselines first, then the timed comparison, one worker. */
function playwrightTest() {
  const require = createRequire(import.meta.url);
  let cli;
  try {
    cli = require.resolve('@playwright/test/cli');
  } catch {
    return { skipped: 'not installed: cd bench && npm ci' };
  }
  const missing = chromiumMissing();
  if (missing) return { skipped: missing };
  const viewports = [[1280, 800], [390, 844]];
  const spec = `import { test, expect } from '@playwright/test';
const pages = ${JSON.stringify(pages.map(([name]) => name))};
for (const [width, height] of ${JSON.stringify(viewports)}) {
  for (const name of pages) {
    test(\`\${name} \${width}x\${height}\`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      await page.goto('file://${dir}/' + name + '.html');
      await expect(page).toHaveScreenshot(\`\${name}-\${width}x\${height}.png\`, { fullPage: false, ...(name === 'clock' ? { mask: [page.locator('#clock')] } : {}) });
    });
  }
}
`;
  // The spec imports @playwright/test from the bench's own node_modules.
  symlinkSync(fileURLToPath(new URL('./node_modules', import.meta.url)), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'suite.spec.mjs'), spec);
  writeFileSync(
    join(dir, 'playwright.config.mjs'),
    `export default { testDir: ${JSON.stringify(dir)}, testMatch: 'suite.spec.mjs', workers: 1, reporter: 'dot', use: { browserName: 'chromium', launchOptions: { executablePath: ${JSON.stringify(CHROMIUM)}, args: ${JSON.stringify(CHROMIUM_FLAGS)} } } };\n`,
  );
  const once = (label, extra) => {
    const started = performance.now();
    const out = spawnSync(process.execPath, [cli, 'test', '-c', join(dir, 'playwright.config.mjs'), ...extra], { encoding: 'utf8', cwd: dir });
    const ms = Math.round(performance.now() - started);
    return { label, workers: 1, ms, exit: out.status, ...(out.status ? { output: (out.stdout + out.stderr).slice(-600) } : {}) };
  };
  return [once('baselines-w1', ['--update-snapshots']), once('compare-w1', [])];
}

const results = [run(1, 'baselines-w1'), run(1, 'compare-w1'), run(2, 'compare-w2')];
const playwright = existsSync(CLI) ? playwrightTest() : { skipped: 'build first' };
const os = await import('node:os');
process.stdout.write(JSON.stringify({ captures: pages.length * 2, targetMs: 6000, cores: os.cpus().length, load: os.loadavg()[0], results, playwright_test: playwright }, null, 2) + '\n');
