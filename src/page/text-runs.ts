// Where markup alone misreads a run of text: a box laid out on its own inside a line with room around it
// (inline-block or inline-flex with a margin or padding: a status bar's counters, chips, badges) is a word of its
// own, not glued to its neighbours ("1" and "0" read "10"), and the text a style sheet draws around it
// (`.lines::before { content: 'lines: ' }`) is read with it, as a person reads "lines: 1 words: 0". Boxes with no
// room around them (a word split into a span a letter for an animation) stay glued. Only inline boxes are asked
// for their drawn text: a style read or two a box, not for every element of the page.

const CONTENT_PART = /"((?:[^"\\]|\\.)*)"|attr\(([\w-]+)\)/g;

/** The readable text a style sheet draws ::before or ::after the element: strings and attr(), no icon glyphs. */
function drawnAround(element: Element, pseudo: '::before' | '::after'): string {
  const content = getComputedStyle(element, pseudo).content;
  if (!content || content === 'none' || content === 'normal') return '';
  let text = '';
  for (const match of content.matchAll(CONTENT_PART)) {
    text += match[2] !== undefined ? (element.getAttribute(match[2]) ?? '') : match[1]!.replace(/\\(.)/g, '$1');
  }
  // Icon fonts draw private-use glyphs: no text for a reader.
  text = text.replace(/[\uE000-\uF8FF]/g, '');
  return /[\p{L}\p{N}]/u.test(text) ? text.trim() : '';
}

/** An inline box set apart from its neighbours, with the text drawn before and after it; null for anything else. */
export function setApart(element: Element, style: CSSStyleDeclaration): { before: string; after: string } | null {
  if (!style.display.startsWith('inline-')) return null;
  const before = drawnAround(element, '::before');
  const after = drawnAround(element, '::after');
  const room = [style.marginLeft, style.marginRight, style.paddingLeft, style.paddingRight].some((length) => parseFloat(length) > 0);
  return room || before || after ? { before, after } : null;
}

/**
 * An element's text with a space where one element's text ends and another's begins, for a subtree that has no layout
 * to ask (removed, or hidden by a style): a calendar's day cells would otherwise run together ("2930123…").
 */
export function wordsOf(element: Element): string {
  let out = '';
  let lastParent: Node | null = null;
  const walker = element.ownerDocument.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const value = node.nodeValue ?? '';
    if (!value.trim()) {
      out += ' ';
      continue;
    }
    if (lastParent && node.parentNode !== lastParent) out += ' ';
    out += value;
    lastParent = node.parentNode;
  }
  return out.replace(/\s+/g, ' ').trim();
}
