// The localStorage page operations (src/page/storage.ts) that storage_state and --storage-state use, in happy-dom.
import { expect } from 'chai';
import { pageModules } from './page-harness.mjs';

describe('unit: page localStorage operations', function () {
  let page;
  beforeEach(async function () {
    page = await pageModules(['storage']);
    Object.defineProperty(globalThis, 'localStorage', { value: page.window.localStorage, configurable: true, writable: true });
  });
  afterEach(function () {
    delete globalThis.localStorage;
    page.close();
  });

  it('writes the items of its own origin and reads them back with the origin', function () {
    const origin = 'http://127.0.0.1:9';
    expect(page.writeLocalStorage({ origin, localStorage: [{ name: 'draft', value: 'hello' }, { name: 'n', value: '2' }] })).to.deep.equal({ written: true });
    expect(page.readLocalStorage()).to.deep.equal({ origin, localStorage: [{ name: 'draft', value: 'hello' }, { name: 'n', value: '2' }] });
  });

  it("refuses another origin's items and stores nothing", function () {
    expect(page.writeLocalStorage({ origin: 'https://example.com', localStorage: [{ name: 'draft', value: 'x' }] })).to.deep.equal({ written: false });
    expect(page.readLocalStorage()).to.deep.equal({ origin: 'http://127.0.0.1:9', localStorage: [] });
  });
});
