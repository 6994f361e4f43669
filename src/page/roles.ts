// Roles of elements, the way an accessibility tree would name them: an explicit ARIA role when it is one we know,
// else the implicit role of the tag. An approximation of the platform tree, built from the DOM alone.

/** ARIA roles we honour in a `role` attribute (the first known token wins, as in ARIA's fallback lists). */
const KNOWN_ROLES = new Set([
  'alert', 'alertdialog', 'application', 'article', 'banner', 'blockquote', 'button', 'caption', 'cell', 'checkbox',
  'code', 'columnheader', 'combobox', 'complementary', 'contentinfo', 'definition', 'deletion', 'dialog', 'directory',
  'document', 'emphasis', 'feed', 'figure', 'form', 'generic', 'grid', 'gridcell', 'group', 'heading', 'img',
  'image', 'insertion', 'link', 'list', 'listbox', 'listitem', 'log', 'main', 'marquee', 'math', 'menu', 'menubar',
  'menuitem', 'menuitemcheckbox', 'menuitemradio', 'meter', 'navigation', 'none', 'note', 'option', 'paragraph',
  'presentation', 'progressbar', 'radio', 'radiogroup', 'region', 'row', 'rowgroup', 'rowheader', 'scrollbar',
  'search', 'searchbox', 'separator', 'slider', 'spinbutton', 'status', 'strong', 'switch', 'tab', 'table',
  'tablist', 'tabpanel', 'term', 'textbox', 'timer', 'toolbar', 'tooltip', 'tree', 'treegrid', 'treeitem',
]);

/** Roles an agent acts on. */
export const INTERACTIVE = new Set([
  'button', 'checkbox', 'combobox', 'link', 'listbox', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option',
  'radio', 'searchbox', 'slider', 'spinbutton', 'switch', 'tab', 'textbox', 'treeitem', 'gridcell', 'file',
]);

/** Roles that frame a page: they are kept around controls by `filter: "interactive"`. */
export const LANDMARKS = new Set([
  'banner', 'main', 'navigation', 'contentinfo', 'complementary', 'region', 'form', 'search', 'dialog',
  'alertdialog', 'menu', 'menubar', 'listbox', 'tablist', 'toolbar', 'tree', 'grid', 'table', 'radiogroup',
]);

/**
 * Page regions, shown without a ref (as in the contract's `- main` line): nothing acts on a landmark, and a
 * long page is paged by the refs the truncation hint names. Dialogs, menus, tables and lists keep theirs.
 */
export const PAGE_LANDMARKS = new Set(['banner', 'main', 'navigation', 'contentinfo', 'complementary', 'region', 'form', 'search']);

/** Roles whose name comes from their content (so their text is not repeated as child lines). */
export const NAME_FROM_CONTENT = new Set([
  'button', 'cell', 'checkbox', 'columnheader', 'gridcell', 'heading', 'link', 'menuitem', 'menuitemcheckbox',
  'menuitemradio', 'option', 'radio', 'row', 'rowheader', 'switch', 'tab', 'tooltip', 'treeitem', 'caption', 'term',
]);

/** Roles that only structure: folded away, their children shown one level up. */
const FOLDED = new Set(['generic', 'none', 'presentation', 'rowgroup', 'paragraph', 'strong', 'emphasis', 'code', 'deletion', 'insertion']);

/** Items of a collection: `read_page ref_id` of one continues with the siblings that follow it (paging). */
export const COLLECTION_ITEMS = new Set(['row', 'listitem', 'option', 'treeitem', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'article']);

/** Popups an action may open (reported as `opened_popup`). */
export const POPUPS = new Set(['menu', 'listbox', 'dialog', 'alertdialog', 'tree', 'grid']);

const LANDMARK_SCOPES = 'article, aside, main, nav, section';

function inputRole(input: HTMLInputElement): string | null {
  switch (input.type) {
    case 'hidden':
      return null;
    case 'button':
    case 'submit':
    case 'reset':
    case 'image':
      return 'button';
    case 'checkbox':
      return input.getAttribute('switch') !== null ? 'switch' : 'checkbox';
    case 'radio':
      return 'radio';
    case 'range':
      return 'slider';
    case 'number':
      return 'spinbutton';
    case 'search':
      return input.list ? 'combobox' : 'searchbox';
    case 'file':
      return 'file';
    default:
      return input.list ? 'combobox' : 'textbox';
  }
}

/** The implicit role of a tag, or null for elements that are plain structure. */
function implicitRole(element: Element): string | null {
  const tag = element.localName;
  switch (tag) {
    case 'a':
    case 'area':
      return element.hasAttribute('href') ? 'link' : null;
    case 'button':
      return 'button';
    case 'input':
      return inputRole(element as HTMLInputElement);
    case 'select': {
      const select = element as HTMLSelectElement;
      return select.multiple || select.size > 1 ? 'listbox' : 'combobox';
    }
    case 'textarea':
      return 'textbox';
    case 'option':
      return 'option';
    case 'optgroup':
      return 'group';
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
      return 'heading';
    case 'nav':
      return 'navigation';
    case 'main':
      return 'main';
    case 'aside':
      return 'complementary';
    case 'header':
      return element.parentElement?.closest(LANDMARK_SCOPES) ? null : 'banner';
    case 'footer':
      return element.parentElement?.closest(LANDMARK_SCOPES) ? null : 'contentinfo';
    case 'section':
      return element.hasAttribute('aria-label') || element.hasAttribute('aria-labelledby') || element.hasAttribute('title') ? 'region' : null;
    case 'form':
      return 'form';
    case 'search':
      return 'search';
    case 'article':
      return 'article';
    case 'ul':
    case 'ol':
    case 'menu':
      return 'list';
    case 'li':
      // A detached item (just removed) still reads as the list item it was.
      return !element.parentElement || ['ul', 'ol', 'menu'].includes(element.parentElement.localName) ? 'listitem' : null;
    case 'dl':
      return 'list';
    case 'dt':
      return 'term';
    case 'dd':
      return 'definition';
    case 'table':
      return 'table';
    case 'tr':
      return 'row';
    case 'td':
      return element.closest('table')?.getAttribute('role') === 'grid' ? 'gridcell' : 'cell';
    case 'th':
      // A header row of th only (tables without a thead put it in a tbody too) heads columns, whatever its place.
      return (element as HTMLTableCellElement).scope === 'row' ||
        (element.parentElement?.firstElementChild === element && element.parentElement?.parentElement?.localName === 'tbody' && element.parentElement.querySelector(':scope > td') !== null)
        ? 'rowheader'
        : 'columnheader';
    case 'img':
      return element.getAttribute('alt') === '' ? null : 'img';
    case 'svg':
      return element.querySelector(':scope > title') || element.hasAttribute('aria-label') ? 'img' : null;
    case 'figure':
      return 'figure';
    case 'dialog':
      return 'dialog';
    case 'details':
    case 'fieldset':
      return 'group';
    case 'summary':
      return 'button';
    case 'progress':
      return 'progressbar';
    case 'meter':
      return 'meter';
    case 'output':
      return 'status';
    case 'hr':
      return 'separator';
    case 'iframe':
    case 'frame':
      return 'iframe';
    case 'blockquote':
      return 'blockquote';
    case 'p':
      return 'paragraph';
    case 'video':
    case 'audio':
      return tag;
    default:
      if ((element as HTMLElement).isContentEditable && !element.parentElement?.isContentEditable) return 'textbox';
      return null;
  }
}

/** The role an element shows in the snapshot, or null when it is folded away. */
export function roleOf(element: Element): string | null {
  const attr = element.getAttribute('role');
  if (attr) {
    for (const token of attr.trim().toLowerCase().split(/\s+/)) {
      if (KNOWN_ROLES.has(token)) {
        if ((token === 'none' || token === 'presentation') && isFocusable(element)) break;
        const role = token === 'image' ? 'img' : token;
        return FOLDED.has(role) ? null : role;
      }
    }
  }
  const role = implicitRole(element);
  return role && FOLDED.has(role) ? null : role;
}

function isFocusable(element: Element): boolean {
  return element.hasAttribute('tabindex') || ['a', 'button', 'input', 'select', 'textarea'].includes(element.localName);
}

/** Elements whose content is never shown (scripts, styles, templates). */
export const SKIPPED_TAGS = new Set(['script', 'style', 'template', 'noscript', 'head', 'meta', 'link', 'title', 'datalist', 'slot-fallback']);

/** Elements that end a run of text (block boxes in the default style sheet). */
export const BLOCK_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer',
  'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table',
  'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'label', 'legend', 'summary', 'details',
  // An SVG text element is a label of its own (a chart's bar, a Gantt task), never run into the next one.
  'text',
]);
