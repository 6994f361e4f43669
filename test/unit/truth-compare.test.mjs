// The truth oracle's judgement (bench/lib/truth/compare.mjs) without Firefox, on reply/snapshot pairs seen for real
// on Shoelace, ag-grid and Bootstrap (trimmed to the lines that matter).
import { expect } from 'chai';
import { judge } from '../../bench/lib/truth/compare.mjs';

const HEAD = 'Shoelace sign-up — http://127.0.0.1:1/apps/shoelace.html\n';
const FORM_CLOSED = `${HEAD}- heading "Create an account" [ref=ref_1] [level=1]
- form
  - textbox "Email" [ref=ref_2]
  - checkbox "I agree to the terms" [ref=ref_4]
  - button "Actions" [ref=ref_7]
  - button "Review and submit" [ref=ref_8]
- log "Events" [ref=ref_9]
  - text: menu copy`;
const FORM_OPEN = `${HEAD}- heading "Create an account" [ref=ref_1] [level=1]
- form
  - textbox "Email" [ref=ref_2]
  - checkbox "I agree to the terms" [ref=ref_4]
  - button "Actions" [ref=ref_7] [expanded] [haspopup=menu]
  - menu [ref=ref_10]
    - menuitem "Copy invite link" [ref=ref_11]
    - menuitem "Reset form" [ref=ref_12]
    - menuitem "Help" [ref=ref_13]
  - button "Review and submit" [ref=ref_8] [box=24,400,150x40]
- log "Events" [ref=ref_9]
  - text: menu copy`;
const OPEN_REPLY = `left_click ref_7: delivered.
Opened menu [ref=ref_10] with 3 items.
- form
  - button "Actions" [ref=ref_7] [expanded] [haspopup=menu]
  - menu [ref=ref_10]
    - menuitem "Copy invite link" [ref=ref_11]
    - menuitem "Reset form" [ref=ref_12]
    - menuitem "Help" [ref=ref_13]
  - … 6 unchanged siblings`;

const run = (reply, beforeFull, afterFull, extra = {}) => judge({
  reply, replyChars: reply.length, beforeFull, afterFull, beforeView: beforeFull, afterView: afterFull, ...extra,
});

describe('truth oracle: comparing a reply with the page before and after', () => {
  it('a menu the reply lists whole: every in-view change named, nothing stale', () => {
    const v = run(OPEN_REPLY, FORM_CLOSED, FORM_OPEN);
    expect(v.inView).to.equal(5);
    expect(v.named).to.equal(5);
    expect(v.missed).to.deep.equal([]);
    expect(v.stale).to.deep.equal([]);
    expect(v.falseUnchanged).to.deep.equal([]);
  });

  it('"No change on the page." while a menu appeared is a false unchanged, and its lines are missed', () => {
    const v = run('left_click ref_7: delivered.\nNo change on the page.', FORM_CLOSED, FORM_OPEN);
    expect(v.falseUnchanged).to.deep.equal(['No change on the page.']);
    expect(v.missed.map((m) => m.line)).to.include('menuitem "Help"');
  });

  it('a line the settled page no longer has is stale (a menu read mid-close); refs and [box] do not count', () => {
    const v = run(OPEN_REPLY, FORM_OPEN.replace('[expanded] [haspopup=menu]', '[expanded=false]'), FORM_CLOSED);
    expect(v.stale.map((s) => s.line)).to.include('button "Actions" [ref=ref_7] [expanded] [haspopup=menu]');
    expect(v.stale.map((s) => s.line)).to.include('menuitem "Help" [ref=ref_13]');
  });

  it('a log that grew at its end, shown as its new tail, names the change', () => {
    const after = FORM_CLOSED.replace('- text: menu copy', '- text: menu copy change terms true').replace('terms" [ref=ref_4]', 'terms" [ref=ref_4] [checked]');
    const reply = 'left_click ref_4: delivered.\n- checkbox "I agree to the terms" [ref=ref_4] [checked]\n- log "Events" [ref=ref_9]\n  - text: …change terms true';
    const v = run(reply, FORM_CLOSED, after);
    expect(v.inView).to.equal(2);
    expect(v.missed).to.deep.equal([]);
    expect(v.stale).to.deep.equal([]);
  });

  it('a form_input head line ("ref_2 (…) is now …") names its field', () => {
    const after = FORM_CLOSED.replace('"Email" [ref=ref_2]', '"Email" [ref=ref_2] [value="bob@example.com"]');
    const v = run('ref_2 (input[type=email]) is now "bob@example.com"', FORM_CLOSED, after);
    expect(v.missed).to.deep.equal([]);
  });

  it('a count line covers the rows under the ref it names; a cut notice on a short reply is false', () => {
    const rows = (from) => Array.from({ length: 8 }, (_, i) => `  - row "${from + i} Vandelay" [ref=ref_${100 + from + i}]`).join('\n');
    const before = `Orders — http://x/\n- grid [ref=ref_3]\n${rows(1)}`;
    const after = `Orders — http://x/\n- grid [ref=ref_3]\n${rows(41)}`;
    const counted = run('scroll: delivered.\n- grid [ref=ref_3]\n  - (8 more rows added or changed in grid [ref=ref_3]; read_page with ref_id [ref=ref_3] reads them)\n- removed: 8 rows from grid [ref=ref_3]', before, after);
    expect(counted.missed).to.deep.equal([]);
    expect(counted.counted).to.equal(16);
    const cut = run('scroll: delivered.\n- row "41 Vandelay" [ref=ref_141]\n- (delta cut at 4000 chars; read_page with ref_id [ref=ref_142] reads the first part left out (row "42 Vandelay"))', before, after);
    expect(cut.falseCut).to.have.length(1);
    expect(cut.falseCut[0].why).to.match(/under the 4000 cap/);
  });

  it('a spreadsheet row whose name changed with the cell the reply names (a cell read_page lists only in the row) is covered', () => {
    const sheet = (amount) => `Budget sheet — http://x/\n- table [ref=ref_3]\n  - row "1 Rent Office ${amount} monthly" [ref=ref_5]\n  - row "2 Laptops Hardware 4500 once" [ref=ref_6]`;
    const v = run('key on generic (body): delivered.\nPressed Delete.\n- cell "1500" [ref=ref_20]', sheet(1200), sheet(1500));
    expect(v.missed).to.deep.equal([]);
    const silent = run('type on generic (body): delivered.', sheet(1200), sheet(1500));
    expect(silent.missed.map((m) => m.line)).to.deep.equal(['row "1 Rent Office 1500 monthly"']);
  });

  it('a new page: the old document\'s lines are gone with it, the new one\'s in view must be listed', () => {
    const before = 'json — http://x/json.html\n- main\n  - heading "json" [ref=ref_1] [level=1]\n  - link "next" [ref=ref_2]';
    const after = 'mailbox — http://x/mailbox.html\n- main\n  - heading "mailbox" [ref=ref_9] [level=1]\n  - text: Manipulate mailboxes';
    const v = run('left_click ref_2: delivered.\nNew page: mailbox — http://x/mailbox.html\n- main\n  - heading "mailbox" [ref=ref_9] [level=1]', before, after);
    expect(v.missed.map((m) => `${m.kind} ${m.line}`)).to.deep.equal(['added text: Manipulate mailboxes']);
  });

  it('items inside a removed dialog the reply names are covered; NOT delivered while the page reacted is false', () => {
    const withDialog = `${FORM_CLOSED}\n- dialog "Confirm sign-up" [ref=ref_20]\n  - button "Submit" [ref=ref_22]\n  - button "Close" [ref=ref_21]`;
    const closed = run('left_click ref_22: delivered.\n- closed: dialog "Confirm sign-up"', withDialog, FORM_CLOSED);
    expect(closed.missed).to.deep.equal([]);
    const notDelivered = run('left_click ref_22: NOT delivered to the target (the input saw nothing at the target)', withDialog, FORM_CLOSED);
    expect(notDelivered.falseNotDelivered).to.have.length(1);
  });
});
