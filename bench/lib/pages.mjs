// The fixture pages every server is measured on, and the element each one clicks and types into.
export const PAGES = [
  { id: 'login', path: '/login.html', title: 'login form', click: { role: 'button', name: 'Show password' }, type: { role: 'textbox', name: 'Email' } },
  { id: 'table', path: '/table.html', title: '2,000-row table', click: { role: 'button', name: 'Refresh list' }, type: { role: 'textbox', name: 'Filter customers' } },
  { id: 'docs', path: '/docs.html', title: 'long docs page', click: { role: 'button', name: 'Toggle dark mode' }, type: { role: ['searchbox', 'textbox'], name: 'Search the docs' } },
  { id: 'shadow', path: '/shadow.html', title: 'shadow roots', click: { role: 'button', name: 'Like this page' }, type: { role: 'textbox', name: 'Message' } },
  { id: 'iframe', path: '/iframe.html', title: 'cross-origin iframe', click: { role: 'button', name: 'Pay now' }, type: { role: 'textbox', name: 'Card number' } },
];

export const TYPED_TEXT = 'bench typing 20 char';
