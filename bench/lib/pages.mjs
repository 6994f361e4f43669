// The pages every server is measured on, and the element each one clicks and types into: our fixtures, then real
// third-party apps (`app: true`) served from 127.0.0.1 by test/helpers/real-apps.mjs, so the figures describe what
// agents meet. A page without a `type` target is not typed into.
export const PAGES = [
  { id: 'login', path: '/login.html', title: 'login form', click: { role: 'button', name: 'Show password' }, type: { role: 'textbox', name: 'Email' } },
  { id: 'table', path: '/table.html', title: '2,000-row table', click: { role: 'button', name: 'Refresh list' }, type: { role: 'textbox', name: 'Filter customers' } },
  { id: 'docs', path: '/docs.html', title: 'long docs page', click: { role: 'button', name: 'Toggle dark mode' }, type: { role: ['searchbox', 'textbox'], name: 'Search the docs' } },
  { id: 'shadow', path: '/shadow.html', title: 'shadow roots', click: { role: 'button', name: 'Like this page' }, type: { role: 'textbox', name: 'Message' } },
  { id: 'iframe', path: '/iframe.html', title: 'cross-origin iframe', click: { role: 'button', name: 'Pay now' }, type: { role: 'textbox', name: 'Card number' } },
  // Each click toggles something or jumps within the page, so ten in a row leave it where it was.
  { id: 'shoelace', app: true, path: '/apps/shoelace.html', title: 'Shoelace 2 form (web components)', click: { role: 'switch', name: 'Send me the newsletter' }, type: { role: 'textbox', name: 'Email' } },
  { id: 'grid', app: true, path: '/apps/grid.html', title: 'ag-grid 36, 2,000 rows', click: { role: 'columnheader', name: 'Amount' } },
  { id: 'swagger', app: true, path: '/apps/swagger.html', title: 'Swagger UI 5', click: { role: 'button', name: /Find an order by id/ } },
  { id: 'pydocs', app: true, path: '/pydocs/library/sys.html', title: 'Python 3.11 docs, sys module', click: { role: 'link', name: 'sys.argv' }, type: { role: ['searchbox', 'textbox'], name: 'Quick search' } },
];

/** The pages a run measures: all, or those --pages names (ids, comma-separated). */
export function selectedPages(ids) {
  if (!ids) return PAGES;
  const wanted = ids.split(',');
  const unknown = wanted.filter((id) => !PAGES.some((page) => page.id === id));
  if (unknown.length) throw new Error(`--pages: no page ${unknown.join(', ')} (pages: ${PAGES.map((page) => page.id).join(', ')})`);
  return PAGES.filter((page) => wanted.includes(page.id));
}

/** Where a page is served: the fixture server, or the real-app server (null when the apps are not installed). */
export function pageUrl(page, fixtures) {
  if (!page.app) return fixtures.url(page.path);
  return fixtures.apps ? fixtures.apps.url(page.path) : null;
}

export const TYPED_TEXT = 'bench typing 20 char';
