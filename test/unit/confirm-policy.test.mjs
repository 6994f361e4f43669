// Issue 40 item 3: the policy of --confirm-actions on its own: which acting calls match which kinds, and where
// (--confirm-origins). What a call is about to do comes in as facts; nothing here touches a page.
import { expect } from 'chai';
import { confirmPolicy, isFileLikeUrl, leavesSite, matchedKinds, parseConfirmKinds, registrableDomain } from '../../dist/tools/confirm-policy.js';

const PAGE = 'https://shop.example.com/cart';
const policy = (actions, origins = []) => confirmPolicy({ confirmActions: actions, confirmOrigins: origins });
const control = (over = {}) => ({ role: 'button', name: 'Save', submits: false, enterSubmits: false, download: false, frame: false, ...over });
const click = (over) => ({ pageUrl: PAGE, click: control(over) });
const keys = (target, { enter = true, space = false } = {}) => ({ pageUrl: PAGE, keys: { target: control(target), enter, space } });

describe('--confirm-actions: the policy', function () {
  it('parses the kinds, refusing an unknown one with the nearest', function () {
    expect(parseConfirmKinds(['submit', ' Purchase ', 'navigate-away'])).to.deep.equal(['submit', 'purchase', 'navigate-away']);
    expect(() => parseConfirmKinds(['purchse'])).to.throw(/no kind "purchse". Did you mean "purchase"/);
    expect(policy([])).to.equal(null);
  });

  it('submit: a click on a submit button, Enter in a field of a form or on a submit button, Space on one', function () {
    const submit = policy(['submit']);
    expect(matchedKinds(submit, click({ submits: true, enterSubmits: true }))).to.deep.equal(['submit']);
    expect(matchedKinds(submit, click({ name: 'Cancel' }))).to.deep.equal([]);
    expect(matchedKinds(submit, keys({ role: 'textbox', name: 'Email', enterSubmits: true }))).to.deep.equal(['submit']);
    expect(matchedKinds(submit, keys({ role: 'textbox', name: 'Email', enterSubmits: true }, { enter: false }))).to.deep.equal([]);
    expect(matchedKinds(submit, keys({ submits: true, enterSubmits: true }, { enter: false, space: true }))).to.deep.equal(['submit']);
    // A textarea's Enter is a line break.
    expect(matchedKinds(submit, keys({ role: 'textbox', name: 'Notes' }))).to.deep.equal([]);
  });

  it('purchase: a control named to buy, pay or order, as whole words in any case', function () {
    const purchase = policy(['purchase']);
    for (const name of ['Buy now', 'PLACE ORDER', 'Pay €12', 'Proceed to checkout', 'Confirm payment', 'Complete purchase']) {
      expect(matchedKinds(purchase, click({ name })), name).to.deep.equal(['purchase']);
    }
    for (const name of ['Display settings', 'Buyer guide', 'Payload', 'Save', 'Add to list']) {
      expect(matchedKinds(purchase, click({ name })), name).to.deep.equal([]);
    }
    // Enter on a focused "Buy" button, or in a field whose form's submit button is "Place order".
    expect(matchedKinds(purchase, keys({ name: 'Buy now' }))).to.deep.equal(['purchase']);
    expect(matchedKinds(purchase, keys({ role: 'textbox', name: 'Card', enterSubmits: true, submitter: 'Place order' }))).to.deep.equal(['purchase']);
    expect(matchedKinds(purchase, keys({ role: 'textbox', name: 'Card', enterSubmits: true, submitter: 'Place order' }, { enter: false }))).to.deep.equal([]);
    // A field named "Order number" is no control: typing Enter in it is submit's business.
    expect(matchedKinds(purchase, keys({ role: 'textbox', name: 'Order number' }))).to.deep.equal([]);
  });

  it('download: a link with a download attribute or to a file-like URL', function () {
    const download = policy(['download']);
    expect(matchedKinds(download, click({ role: 'link', name: 'Report', href: 'https://shop.example.com/r', download: true }))).to.deep.equal(['download']);
    expect(matchedKinds(download, click({ role: 'link', name: 'Report', href: 'https://shop.example.com/files/report.PDF?x=1' }))).to.deep.equal(['download']);
    expect(matchedKinds(download, click({ role: 'link', name: 'Report', href: 'https://shop.example.com/report' }))).to.deep.equal([]);
    expect(isFileLikeUrl('https://a.test/setup.exe')).to.equal(true);
    expect(isFileLikeUrl('https://a.test/zip')).to.equal(false);
    expect(isFileLikeUrl('javascript:void(0)')).to.equal(false);
  });

  it('upload and navigate-away: file_upload, and a navigation or link to another site', function () {
    expect(matchedKinds(policy(['upload']), { pageUrl: PAGE, upload: true })).to.deep.equal(['upload']);
    const away = policy(['navigate-away']);
    expect(matchedKinds(away, { pageUrl: PAGE, toUrl: 'https://evil.test/' })).to.deep.equal(['navigate-away']);
    expect(matchedKinds(away, { pageUrl: PAGE, toUrl: 'https://www.example.com/help' })).to.deep.equal([]);
    expect(matchedKinds(away, click({ role: 'link', name: 'Partner', href: 'https://partner.test/' }))).to.deep.equal(['navigate-away']);
    // Enter on a focused link follows it as a click would.
    const link = { role: 'link', name: 'Partner', href: 'https://partner.test/setup.exe' };
    expect(matchedKinds(policy(['navigate-away', 'download']), keys(link))).to.deep.equal(['download', 'navigate-away']);
    expect(matchedKinds(policy(['navigate-away', 'download']), keys(link, { enter: false, space: true }))).to.deep.equal([]);
    // From a blank page there is no site to leave.
    expect(matchedKinds(away, { pageUrl: 'about:blank', toUrl: 'https://evil.test/' })).to.deep.equal([]);
    expect(leavesSite('http://127.0.0.1:5000/', 'http://127.0.0.2:5000/')).to.equal(true);
    expect(registrableDomain('a.b.example.co.uk')).to.equal('example.co.uk');
    expect(registrableDomain('www.example.com.')).to.equal('example.com');
    expect(registrableDomain('localhost')).to.equal('localhost');
  });

  it('all: every acting call; a click into a frame is every kind a click could be (its inside is not read)', function () {
    expect(matchedKinds(policy(['all']), { pageUrl: PAGE })).to.deep.equal(['all']);
    expect(matchedKinds(policy(['submit', 'purchase', 'upload']), click({ role: 'iframe', name: '', frame: true }))).to.deep.equal(['submit', 'purchase']);
    expect(matchedKinds(policy(['submit', 'all']), click({ submits: true }))).to.deep.equal(['submit', 'all']);
  });

  it('--confirm-origins: only calls on those origins (or navigating to them) are asked about', function () {
    const scoped = policy(['purchase', 'navigate-away'], ['https://shop.example.com', '*.bank.test']);
    expect(matchedKinds(scoped, click({ name: 'Buy now' }))).to.deep.equal(['purchase']);
    expect(matchedKinds(scoped, { ...click({ name: 'Buy now' }), pageUrl: 'https://blog.example.com/' })).to.deep.equal([]);
    expect(matchedKinds(scoped, { pageUrl: 'https://news.test/', toUrl: 'https://login.bank.test/' })).to.deep.equal(['navigate-away']);
    // Any scheme when the pattern names none; a port when it names one.
    expect(matchedKinds(policy(['all'], ['127.0.0.1:5000']), { pageUrl: 'http://127.0.0.1:5000/x' })).to.deep.equal(['all']);
    expect(matchedKinds(policy(['all'], ['127.0.0.1:5000']), { pageUrl: 'http://127.0.0.1:5001/x' })).to.deep.equal([]);
  });
});
