// The real-app trial's tasks: what an agent is asked to do on third-party apps served from 127.0.0.1 by
// test/helpers/real-apps.mjs (Shoelace, ag-grid-community, Swagger UI, the Python docs, the pdf.js viewer,
// CodeMirror, Monaco). Each task names its targets by role and accessible name, as an agent reads them from a snapshot,
// and ends with the text that proves it was done (the app's own log line or content).
//
// Steps: click | dblclick | type (into a target) | key (a key press on the focused element).
// `effect` on a step: text the page shows once that step worked; a reply to it saying it did not land
// ("NOT delivered", "No change on the page") while that text then shows is counted as misleading.
// `fallback` on a target: the role an agent clicks instead when the control itself has no ref (Playwright gives
// none to Shoelace's visually hidden native checkbox, so its agent clicks the label text).

const button = (name) => ({ role: 'button', name });

export const TASKS = [
  // Shoelace 2.20 web components: shadow DOM, slotted labels, visually hidden native inputs.
  { id: 'sl-agree', app: 'Shoelace', title: 'tick "I agree to the terms"', start: '/apps/shoelace.html',
    steps: [{ act: 'click', target: { role: 'checkbox', name: 'I agree to the terms', fallback: 'generic' }, effect: 'change terms true' }],
    expect: 'change terms true' },
  { id: 'sl-untick', app: 'Shoelace', title: 'tick the terms box, then untick it', start: '/apps/shoelace.html',
    steps: [
      { act: 'click', target: { role: 'checkbox', name: 'I agree to the terms', fallback: 'generic' }, effect: 'change terms true' },
      { act: 'click', target: { role: 'checkbox', name: 'I agree to the terms', fallback: 'generic' }, effect: 'change terms false' },
    ],
    expect: 'change terms false' },
  { id: 'sl-switch', app: 'Shoelace', title: 'turn on the newsletter switch', start: '/apps/shoelace.html',
    steps: [{ act: 'click', target: { role: 'switch', name: 'Send me the newsletter', fallback: 'generic' }, effect: 'change news true' }],
    expect: 'change news true' },
  { id: 'sl-menu', app: 'Shoelace', title: 'open Actions and choose Help', start: '/apps/shoelace.html',
    steps: [
      { act: 'click', target: button('Actions'), reveals: true },
      { act: 'click', target: { role: 'menuitem', name: 'Help' }, effect: 'menu help' },
    ],
    expect: 'menu help' },
  { id: 'sl-select', app: 'Shoelace', title: 'choose the Team plan', start: '/apps/shoelace.html',
    steps: [
      { act: 'click', target: { role: 'combobox', name: 'Plan' }, reveals: true },
      { act: 'click', target: { role: 'option', name: 'Team' }, effect: 'change plan team' },
    ],
    expect: 'change plan team' },
  { id: 'sl-dialog', app: 'Shoelace', title: 'review, then submit in the dialog', start: '/apps/shoelace.html',
    steps: [
      { act: 'click', target: button('Review and submit'), reveals: true },
      { act: 'click', target: button('Submit'), effect: 'submitted' },
    ],
    expect: 'submitted' },
  { id: 'sl-icon', app: 'Shoelace', title: 'press the icon-only "Add a teammate" button', start: '/apps/shoelace.html',
    steps: [{ act: 'click', target: button('Add a teammate'), effect: 'teammate added' }],
    expect: 'teammate added' },
  { id: 'sl-email', app: 'Shoelace', title: 'type an email address', start: '/apps/shoelace.html',
    steps: [{ act: 'type', target: { role: 'textbox', name: 'Email' }, text: 'ann@example.com' }],
    expect: 'ann@example.com' },

  // ag-grid-community 36: a virtualised grid of 2,000 orders.
  { id: 'grid-sort', app: 'ag-grid', title: 'sort by amount', start: '/apps/grid.html',
    steps: [{ act: 'click', target: { role: 'columnheader', name: 'Amount' }, effect: 'Sorted by amount asc' }],
    expect: 'Sorted by amount asc' },
  { id: 'grid-sort-desc', app: 'ag-grid', title: 'sort by amount, largest first', start: '/apps/grid.html',
    steps: [
      { act: 'click', target: { role: 'columnheader', name: 'Amount' }, effect: 'Sorted by amount asc' },
      { act: 'click', target: { role: 'columnheader', name: 'Amount' }, effect: 'Sorted by amount desc' },
    ],
    expect: 'Sorted by amount desc' },
  { id: 'grid-sort-customer', app: 'ag-grid', title: 'sort by customer', start: '/apps/grid.html',
    steps: [{ act: 'click', target: { role: 'columnheader', name: 'Customer' }, effect: 'Sorted by customer asc' }],
    expect: 'Sorted by customer asc' },
  { id: 'grid-edit', app: 'ag-grid', title: 'set order 1 to Shipped with the cell editor', start: '/apps/grid.html',
    steps: [
      { act: 'dblclick', target: { role: 'gridcell', name: 'Pending' }, reveals: true },
      // agSelectCellEditor (v36) opens as a collapsed combobox: its options exist only once its list is opened.
      { act: 'click', target: { role: 'combobox', name: /.*/ }, reveals: true },
      { act: 'click', target: { role: 'option', name: 'Shipped' }, effect: 'order 1 status: Pending -> Shipped' },
    ],
    expect: 'order 1 status: Pending -> Shipped' },

  // Swagger UI 5: expanding operations and trying one out against the test server.
  { id: 'sw-expand', app: 'Swagger UI', title: 'open the "Find an order by id" operation', start: '/apps/swagger.html',
    steps: [{ act: 'click', target: { role: 'button', name: /Find an order by id/ }, effect: 'Try it out' }],
    expect: 'Try it out' },
  { id: 'sw-try', app: 'Swagger UI', title: 'try "Find an order by id" with id 42', start: '/apps/swagger.html',
    steps: [
      { act: 'click', target: { role: 'button', name: /Find an order by id/ }, reveals: true },
      { act: 'click', target: button('Try it out'), reveals: true },
      { act: 'type', target: { role: 'textbox', name: /id/ }, text: '42' },
      { act: 'click', target: button('Execute'), effect: 'Vandelay the cat' },
    ],
    expect: 'Vandelay the cat' },
  { id: 'sw-schema', app: 'Swagger UI', title: 'open the Order schema', start: '/apps/swagger.html',
    steps: [{ act: 'click', target: { role: 'button', name: /^Order/ }, effect: 'quantity' }],
    expect: 'quantity' },

  // The Python 3.11 documentation, as Debian ships it (python3.11-doc).
  { id: 'py-json', app: 'Python docs', title: 'go from the library index to the json module', start: '/pydocs/library/index.html',
    steps: [{ act: 'click', target: { role: 'link', name: 'json — JSON encoder and decoder' }, changesPage: true }],
    expect: 'json.dumps' },
  { id: 'py-search', app: 'Python docs', title: 'search the docs for getrecursionlimit', start: '/pydocs/library/sys.html',
    steps: [
      { act: 'type', target: { role: ['textbox', 'searchbox'], name: /search/i }, text: 'getrecursionlimit' },
      { act: 'click', target: { role: 'button', name: 'Go' }, changesPage: true },
    ],
    expect: 'sys.getrecursionlimit' },
  { id: 'py-next', app: 'Python docs', title: 'follow "next" from the json page', start: '/pydocs/library/json.html',
    steps: [{ act: 'click', target: { role: 'link', name: /^json\.tool|^mailbox|^next/i }, changesPage: true }],
    expect: 'mailbox' },

  // The pdf.js viewer (Debian's libjs-pdf) on a 3-page PDF.
  { id: 'pdf-next', app: 'pdf.js', title: 'go to the next page', start: '/pdfjs/web/viewer.html?file=/apps/sample.pdf',
    steps: [{ act: 'click', target: { role: 'button', name: /^Next/ } }],
    expect: /Quarterly report, page 2 of 3/ },
  { id: 'pdf-sidebar', app: 'pdf.js', title: 'open the sidebar', start: '/pdfjs/web/viewer.html?file=/apps/sample.pdf',
    steps: [{ act: 'click', target: { role: 'button', name: /Sidebar/i } }],
    expect: /Thumbnail|Show Thumbnails/ },

  // CodeMirror 5 with auto-closing brackets.
  { id: 'cm-type', app: 'CodeMirror', title: 'append a line to the snippet', start: '/apps/codemirror.html',
    steps: [{ act: 'type', target: { role: 'textbox', name: /.*/ }, text: 'let done = true;' }],
    expect: 'let done = true;' },

  // Monaco 0.57: its input is a zero-size textarea under lines drawn aria-hidden.
  { id: 'monaco-type', app: 'Monaco', title: 'type a statement into the script', start: '/apps/monaco.html',
    steps: [{ act: 'type', target: { role: 'textbox', name: 'Editor content' }, text: 'let done = true;' }],
    expect: 'let done = true;' },
];
