// Roles, accessible names and states as the snapshot prints them, from the page modules in a DOM without a browser.
import { expect } from 'chai';
import { pageModules } from './page-harness.mjs';

describe('unit: page roles, names and states (happy-dom)', function () {
  let page;
  afterEach(async function () {
    await page?.close();
  });
  const at = (selector) => page.document.querySelector(selector);

  it('gives implicit roles by tag and honours the first known token of an explicit role', async function () {
    page = await pageModules(['roles'], '<button id="b">B</button><a id="a" href="/x">A</a><nav id="n"></nav><div id="d" role="bogus tab">T</div><input id="c" type="checkbox">');
    expect(page.roleOf(at('#b'))).to.equal('button');
    expect(page.roleOf(at('#a'))).to.equal('link');
    expect(page.roleOf(at('#n'))).to.equal('navigation');
    expect(page.roleOf(at('#d'))).to.equal('tab');
    expect(page.roleOf(at('#c'))).to.equal('checkbox');
  });

  it('names by aria-labelledby, then aria-label, then label, then content, then title and placeholder', async function () {
    page = await pageModules(['roles', 'names'], `
      <span id="l1">Labelled</span><span id="l2">by two</span>
      <button id="by" aria-labelledby="l1 l2" aria-label="ignored">content</button>
      <button id="aria" aria-label="  Close   dialog ">x</button>
      <label for="f">Email address</label><input id="f">
      <button id="content">Save <b>draft</b></button>
      <input id="t" title="Search the site">
      <input id="p" placeholder="Your name">`);
    expect(page.nameOf(at('#by'), 'button')).to.equal('Labelled by two');
    expect(page.nameOf(at('#aria'), 'button')).to.equal('Close dialog');
    expect(page.nameOf(at('#f'), 'textbox')).to.equal('Email address');
    expect(page.nameOf(at('#content'), 'button')).to.equal('Save draft');
    expect(page.nameOf(at('#t'), 'textbox')).to.equal('Search the site');
    expect(page.nameOf(at('#p'), 'textbox')).to.equal('Your name');
  });

  it('clips a long name with an ellipsis at the limit', async function () {
    page = await pageModules(['roles', 'names'], `<button id="long">${'word '.repeat(60)}</button>`);
    const name = page.nameOf(at('#long'), 'button');
    expect(name).to.have.length(page.NAME_LIMIT);
    expect(name.endsWith('…')).to.equal(true);
  });

  it('shows states after the name, and never a password field\'s value', async function () {
    page = await pageModules(['roles', 'names'], `
      <input id="c" type="checkbox" checked required>
      <button id="e" aria-expanded="false" aria-haspopup="true" disabled>Menu</button>
      <h2 id="h">Title</h2>
      <input id="pw" type="password" value="secret">`);
    expect(page.statesOf(at('#c'), 'checkbox')).to.equal(' [checked] [required]');
    expect(page.statesOf(at('#e'), 'button')).to.equal(' [expanded=false] [disabled] [haspopup=menu]');
    expect(page.statesOf(at('#h'), 'heading')).to.equal(' [level=2]');
    expect(page.fieldValue(at('#pw'))).to.equal(null);
    expect(page.statesOf(at('#pw'), 'textbox')).to.include('[password]');
  });

  it('gives a combobox drawn with elements the text it shows as its value, without its button or the list inside it', async function () {
    page = await pageModules(['roles', 'names'], `
      <div id="drawn" role="combobox" aria-label="Status"><span>Shipped</span><span aria-hidden="true">▾</span><button aria-label="Open"></button>
        <ul role="listbox"><li role="option">Pending</li><li role="option">Shipped</li></ul></div>
      <div id="valued" role="combobox" aria-valuetext="Two">2</div>
      <div id="empty" role="combobox"></div>`);
    expect(page.fieldValue(at('#drawn'), 'combobox')).to.equal('Shipped');
    expect(page.fieldValue(at('#valued'), 'combobox')).to.equal('Two');
    expect(page.fieldValue(at('#empty'), 'combobox')).to.equal(null);
    // Without the role the same element holds no value: a div is not a field.
    expect(page.fieldValue(at('#drawn'))).to.equal(null);
  });
});
