// regress CONFIG as a CI engineer writes it: diff limits (and the old threshold key), expected HTTP statuses.
// Parsed only; no browser.
import { expect } from 'chai';
import { parseConfig } from '../../dist/cli/regress/config.js';
import { overLimits } from '../../dist/cli/regress/diff.js';

const parse = (yaml) => {
  const warnings = [];
  const pages = parseConfig(yaml, '/suite/suite.yaml', [], { width: 800, height: 600 }, (text) => warnings.push(text));
  return { pages, warnings };
};

describe('regress CONFIG: diff limits and statuses', () => {
  it('max_diff_pixels and max_diff_ratio, page over config, 0 pixels when neither is given', () => {
    const { pages, warnings } = parse('base_url: http://127.0.0.1:1\nmax_diff_ratio: 0.01\npages:\n  - {name: a, url: /a}\n  - {name: b, url: /b, max_diff_pixels: 30}\n');
    expect(pages.map((p) => [p.maxDiffPixels, p.maxDiffRatio])).to.deep.equal([[undefined, 0.01], [30, undefined]]);
    expect(warnings).to.deep.equal([]);
    expect(parse('pages:\n  - {url: "http://127.0.0.1:1/"}\n').pages[0].maxDiffPixels).to.equal(0);
  });

  it('the old threshold key is still read, as a ratio below 1 and pixels from 1 up, with a deprecation line naming its line', () => {
    const { pages, warnings } = parse('base_url: http://127.0.0.1:1\npages:\n  - name: a\n    url: /a\n    threshold: 0.5\n  - {name: b, url: /b, threshold: 40}\n');
    expect(pages.map((p) => [p.maxDiffPixels, p.maxDiffRatio])).to.deep.equal([[undefined, 0.5], [40, undefined]]);
    expect(warnings).to.have.length(2);
    expect(warnings[0]).to.match(/^5: threshold is deprecated.*max_diff_ratio: 0\.5 \(50% of the pixels\)/);
    expect(warnings[1]).to.match(/^6: threshold is deprecated.*max_diff_pixels: 40/);
    expect(() => parse('pages:\n  - {url: "http://127.0.0.1:1/", threshold: 1, max_diff_pixels: 2}\n')).to.throw(/give only the new keys/);
  });

  it('a capture fails beyond any limit given', () => {
    const diff = { changedPixels: 100, ratio: 0.02 };
    expect(overLimits(diff, { maxDiffPixels: 0 })).to.equal(true);
    expect(overLimits(diff, { maxDiffPixels: 100 })).to.equal(false);
    expect(overLimits(diff, { maxDiffRatio: 0.01 })).to.equal(true);
    expect(overLimits(diff, { maxDiffPixels: 1000, maxDiffRatio: 0.01 })).to.equal(true);
    expect(overLimits(diff, { maxDiffPixels: 1000, maxDiffRatio: 0.05 })).to.equal(false);
  });

  it('expected_status: a number or a list, page over config', () => {
    const { pages } = parse('base_url: http://127.0.0.1:1\nexpected_status: 404\npages:\n  - {name: a, url: /a}\n  - {name: b, url: /b, expected_status: [200, 410]}\n');
    expect(pages.map((p) => p.expectedStatus)).to.deep.equal([[404], [200, 410]]);
    expect(parse('pages:\n  - {url: "http://127.0.0.1:1/"}\n').pages[0].expectedStatus).to.equal(undefined);
  });
});

describe('regress CONFIG: ${ENV}, relative URLs, missing files', () => {
  const parseWith = (yaml, env, path = '/suite/suite.yaml') => parseConfig(yaml, path, [], { width: 800, height: 600 }, () => undefined, env);

  it('${NAME} in base_url, url and file comes from the environment', () => {
    const [page] = parseWith('base_url: ${BASE}\npages:\n  - {name: a, url: "/p?q=${Q}", mask: ["#${Q}"]}\n', { BASE: 'http://127.0.0.1:9999', Q: 'one' });
    expect(page.url).to.equal('http://127.0.0.1:9999/p?q=one');
    expect(page.mask).to.deep.equal(['#one']);
  });

  it('an unset variable is a config error at its line', () => {
    expect(() => parseWith('viewports: [300x300]\nbase_url: ${NOT_SET_ANYWHERE}\npages:\n  - {url: /a}\n', {}))
      .to.throw(/\$\{NOT_SET_ANYWHERE\} is not set/)
      .with.property('line', 2);
  });

  it('a relative url without base_url and a file: page that does not exist are config errors at their line', () => {
    expect(() => parseWith('pages:\n  - name: a\n    url: /relative\n', {}))
      .to.throw(/relative, and the config has no base_url/)
      .with.property('line', 3);
    expect(() => parseWith('pages:\n  - name: a\n    file: nowhere.html\n', {}, '/definitely/not/here/suite.yaml'))
      .to.throw(/file nowhere\.html: no such file/)
      .with.property('line', 3);
  });
});

describe('regress reports: accept command, JUnit attachments, HTML images once', () => {
  it('the accept command names exactly the changed captures, and --flaky=warn when one was unstable', async () => {
    const { acceptCommand } = await import('../../dist/cli/regress/report.js');
    const report = { config: 'visual/suite.yaml', baselineDir: 'visual/base line', results: [
      { id: 'home@1280x800', status: 'failed', failure: true },
      { id: 'docs.index@390x844', status: 'passed', failure: false },
      { id: 'ticker@390x844', status: 'flaky', failure: true, unstable: true },
      { id: 'gone@390x844', status: 'error', failure: true },
    ] };
    expect(acceptCommand(report)).to.equal("firefox-use regress visual/suite.yaml --update --baseline-dir 'visual/base line' --grep '^(home@1280x800|ticker@390x844)$' --flaky=warn");
    expect(acceptCommand({ ...report, results: [report.results[1]] })).to.equal(null);
  });

  it('JUnit carries [[ATTACHMENT|path]] lines; the HTML embeds each image once and has an index and a status filter', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join, relative } = await import('node:path');
    const { junitXml, htmlReport } = await import('../../dist/cli/regress/report.js');
    const dir = mkdtempSync(join(tmpdir(), 'fu-report-'));
    mkdirSync(join(dir, 'images'));
    for (const name of ['a.baseline', 'a.actual', 'a.diff']) writeFileSync(join(dir, 'images', `${name}.png`), Buffer.from(name));
    const images = { baseline: 'images/a.baseline.png', actual: 'images/a.actual.png', diff: 'images/a.diff.png' };
    const report = { tool: 'firefox-use regress', config: 's.yaml', startedAt: '2026-01-01T00:00:00Z', ms: 5,
      summary: { total: 2, failures: 1, passed: 1, failed: 1, new: 0, updated: 0, flaky: 0, error: 0 },
      results: [{ id: 'a@1x1', page: 'a', viewport: '1x1', status: 'failed', failure: true, ms: 1, message: '5 pixels changed', images }, { id: 'b@1x1', page: 'b', viewport: '1x1', status: 'passed', failure: false, ms: 1 }] };
    const junit = junitXml(report, dir);
    for (const path of Object.values(images)) expect(junit).to.include(`[[ATTACHMENT|${relative(process.cwd(), join(dir, path))}]]`);
    const html = await htmlReport(report, dir);
    for (const name of ['a.baseline', 'a.actual', 'a.diff']) expect(html.split(Buffer.from(name).toString('base64')).length - 1, name).to.equal(1);
    expect(html).to.match(/<nav aria-label="captures">/);
    expect(html).to.match(/<input type="checkbox" value="failed" checked> failed \(1\)/);
    expect(html).to.include('firefox-use regress s.yaml --update --grep');
  });

  it('--grep that matches no capture stops before any browser starts (exit 2)', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { cli } = await import('../helpers/mcp-client.mjs');
    const dir = mkdtempSync(join(tmpdir(), 'fu-grep-'));
    writeFileSync(join(dir, 'suite.yaml'), 'pages:\n  - {name: home, url: "http://127.0.0.1:1/"}\n');
    const out = await cli(['regress', join(dir, 'suite.yaml'), '--grep', '^nothing', '--firefox', join(dir, 'no-firefox')]);
    expect(out.code).to.equal(2);
    expect(out.stderr).to.match(/--grep \^nothing matches no capture/);
  });
});
