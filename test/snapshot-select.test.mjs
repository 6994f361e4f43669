import { expect } from 'chai';
import { useBrowser } from './helpers/browser-suite.mjs';

const refOf = (snapshot, pattern) => {
  const line = snapshot.split('\n').find((l) => pattern.test(l));
  if (!line) throw new Error(`no line matches ${pattern} in:\n${snapshot}`);
  return /\[ref=(ref_\d+)\]/.exec(line)[1];
};

describe('read_page: native <select> options, listed with refs an agent can pick', function () {
  let server;
  let tabId;
  const read = async (args = {}) => (await server.ok('read_page', { tabId, ...args })).structuredContent.snapshot;

  const browser = useBrowser({ page: '/snapshot/select.html' });
  beforeEach(function () {
    ({ server, tabId } = browser);
  });

  it('lists a short dropdown whole and only counts a long one in the default view', async function () {
    const snapshot = await read();
    expect(snapshot).to.match(/^- combobox "Size" \[ref=ref_\d+\] \[value="Medium"\]\n {2}- option "Small" \[ref=ref_\d+\]\n {2}- option "Medium" \[ref=ref_\d+\] \[selected\]\n {2}- option "Large" \[ref=ref_\d+\]$/m);
    expect(snapshot).to.match(/^- combobox "Country" \[ref=ref_\d+\] \[value="France"\] \[options=10\]$/m);
    expect(snapshot).to.match(/^- combobox "Year" \[ref=ref_\d+\] \[value="1900"\] \[options=120\]$/m);
    expect(snapshot).not.to.include('option "Japan"');
    expect(snapshot).not.to.include('option "1901"');
    // A listbox (multiple) shows its options as it renders them.
    expect(snapshot).to.match(/- listbox "Toppings" \[ref=ref_\d+\]\n {2}- option "Cheese" \[ref=ref_\d+\]/);
  });

  it('lists a long dropdown (optgroups as groups) when read by ref_id, and caps a very long one at 50', async function () {
    const country = refOf(await read(), /combobox "Country"/);
    const sub = await read({ ref_id: country });
    expect(sub).to.match(/^ {2}- group "Asia" \[ref=ref_\d+\]\n {4}- option "Japan" \[ref=ref_\d+\]$/m);
    expect(sub).to.match(/^ {4}- option "France" \[ref=ref_\d+\] \[selected\]$/m);
    const all = await read({ filter: 'all' });
    expect(all).to.include('- option "1949"');
    expect(all).not.to.include('- option "1950"');
    expect(all).to.match(/^ {2}- \(70 more options; form_input on the select takes any option's label or value\)$/m);
  });

  it('picks an option by its ref with form_input, and refuses a value other than true/false for it', async function () {
    const country = refOf(await read(), /combobox "Country"/);
    const japan = refOf(await read({ ref_id: country }), /option "Japan"/);
    const set = await server.ok('form_input', { tabId, ref: japan, value: true });
    expect(set.structuredContent.value).to.equal('Japan');
    expect(await read()).to.match(/combobox "Country" \[ref=ref_\d+\].* \[value="Japan"\]/);
    const log = await server.ok('find', { tabId, query: 'country=JA' });
    expect(log.structuredContent.matches.length).to.be.greaterThan(0);
    const bad = await server.call('form_input', { tabId, ref: japan, value: 'Korea' });
    expect(bad.isError).to.equal(true);
    expect(bad.structuredContent.error).to.include({ code: 'invalid_arguments', field: 'value' });
    // A click on an option of a closed dropdown is refused, nothing done: its popup is not part of the page.
    const clicked = await server.call('computer', { tabId, action: 'left_click', ref: japan });
    expect(clicked.structuredContent.error).to.include({ code: 'ref_hidden' });
    // The usual path still works: the select's ref with an option's label.
    const byLabel = await server.ok('form_input', { tabId, ref: country, value: 'Nepal' });
    expect(byLabel.structuredContent.value).to.equal('Nepal');
  });
});
