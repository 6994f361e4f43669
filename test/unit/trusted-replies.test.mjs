// Issue 36's desktop pointer prefs (owned and remote sessions) and the console's page of each entry. No browser.
import { expect } from 'chai';
import { ConsoleLog } from '../../dist/browser/tab/console-log.js';
import { remoteCapabilities, templatePrefs } from '../../dist/browser/launch/remote.js';

const entry = (text, timestamp) => ({ type: 'console', method: 'error', level: 'error', text, timestamp, args: [], source: { realm: 'r', context: 'c' } });

describe('a desktop pointer for every launched Firefox', function () {
  it('the template and a --webdriver-url session say fine pointer with hover (fine 2 + hover 4)', function () {
    for (const prefs of [templatePrefs(), remoteCapabilities({ headed: false }).alwaysMatch['moz:firefoxOptions'].prefs]) {
      expect(prefs['ui.primaryPointerCapabilities']).to.equal(6);
      expect(prefs['ui.allPointerCapabilities']).to.equal(6);
    }
  });
});

describe('console entries by page', function () {
  it('gives the page only to entries of a document the tab has left', function () {
    const log = new ConsoleLog();
    log.documentCommitted('http://a.test/', 100);
    log.record(entry('on A', 150));
    log.documentCommitted('http://b.test/', 200);
    log.record(entry('on B', 250));
    expect(log.entries().map((e) => [e.text, e.page])).to.deep.equal([['on A', 'http://a.test/'], ['on B', undefined]]);
    expect(log.entries()[1]).not.to.have.property('page');
  });

  it("moves the new document's entries that came before its commit event to it", function () {
    const log = new ConsoleLog();
    log.documentCommitted('http://a.test/', 100);
    log.record(entry('on A', 150));
    log.record(entry('early on B', 210));
    log.documentCommitted('http://b.test/', 200);
    expect(log.entries().map((e) => [e.text, e.page])).to.deep.equal([['on A', 'http://a.test/'], ['early on B', undefined]]);
  });

  it('marks a reload: the same URL, an earlier document', function () {
    const log = new ConsoleLog();
    log.documentCommitted('http://a.test/', 100);
    log.record(entry('first load', 150));
    log.documentCommitted('http://a.test/', 200);
    expect(log.entries()[0].page).to.equal('http://a.test/');
  });
});
