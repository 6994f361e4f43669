// find on the page side: query words scored against each element's role, name, label, placeholder, value and own
// text. An exact name beats a partial one, shown beats hidden, controls beat static content.
import type { PageFindMatch, PageFindResult } from '../contract/index.js';
import { composedChildren, composedParent } from './composed.js';
import { drawnBy } from './drawn.js';
import { placeOf, virtualizedNote } from './find-place.js';
import { excerptAround, matchIn, parseQuery, scanWords, tokensIn, type QueryWord } from './find-match.js';
import { clip, defang, fieldValue, nameOf, nameWasCut, squash } from './names.js';
import { documentId, localIdOf } from './registry.js';
import { INTERACTIVE, NAME_FROM_CONTENT, SKIPPED_TAGS, roleOf } from './roles.js';
import { VALUE_ROLES, renders, shadowOf, shownValue, visibilityHidden } from './snapshot-walk.js';

export interface FindArgs {
  query: string;
  maxResults: number;
}

interface Candidate {
  element: Element;
  role: string;
  name: string;
  /** The name was shortened. */
  cut: boolean;
  score: number;
  /** Query words this element lacks. */
  missing: string[];
  excerpt: string;
}

/** The text shown directly in an element: its own text nodes in the rendered tree, those given to its slots included. */
function ownText(element: Element): string {
  let text = '';
  const add = (parent: Node): void => {
    const children = composedChildren(parent);
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (child.nodeType === Node.TEXT_NODE) text += child.nodeValue;
      else if ((child as Element).localName === 'slot') add(child);
    }
  };
  add(element);
  return squash(text);
}

/** The element that shows a text node: a slot it was given to has no box of its own, the slot's parent does. */
function shownIn(node: Node): Element | null {
  let parent = composedParent(node);
  while (parent?.localName === 'slot') parent = composedParent(parent);
  return parent;
}

function extras(element: Element): string {
  const parts = [element.getAttribute('placeholder'), element.getAttribute('title'), element.getAttribute('alt'), element.id, element.getAttribute('name')];
  const role = roleOf(element) ?? '';
  if (INTERACTIVE.has(role)) parts.push(fieldValue(element, role));
  return parts.filter(Boolean).join(' ').toLowerCase();
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const ATTRS = '@aria-label|@placeholder|@title|@alt|@value|@name|@id|@role';

/** Selectors of the elements with a role, for queries that name one ("button", "link"). */
const ROLE_SELECTORS: Record<string, string> = {
  button: 'button, input[type=button], input[type=submit], input[type=reset], input[type=image], summary, [role=button]',
  link: 'a[href], area[href], [role=link]',
  // A search box is a text box to the person asking for one.
  textbox: 'input:not([type]), input[type=text], input[type=email], input[type=password], input[type=tel], input[type=url], input[type=search], textarea, [role=textbox], [role=searchbox], [contenteditable=""], [contenteditable=true]',
  checkbox: 'input[type=checkbox], [role=checkbox]',
  radio: 'input[type=radio], [role=radio]',
  combobox: 'select, [role=combobox]',
  searchbox: 'input[type=search], [role=searchbox]',
  heading: 'h1, h2, h3, h4, h5, h6, [role=heading]',
  img: 'img:not([alt=""]), [role=img]',
  slider: 'input[type=range], [role=slider]',
  iframe: 'iframe',
};

function literal(word: string): string {
  if (!word.includes("'")) return `'${word}'`;
  if (!word.includes('"')) return `"${word}"`;
  return `concat(${word.split("'").map((part) => `'${part}'`).join(`, "'", `)})`;
}

/** Document and open shadow roots (hosts found natively: custom elements have a hyphen in their name). */
function searchRoots(): Node[] {
  const roots: Node[] = [document];
  for (let i = 0; i < roots.length; i++) {
    for (const hosts of evaluateIn(roots[i]!, "descendant-or-self::*[contains(local-name(), '-')]")) {
      for (let j = 0; j < hosts.snapshotLength; j++) {
        const shadow = shadowOf(hosts.snapshotItem(j) as Element);
        if (shadow) roots.push(shadow);
      }
    }
  }
  return roots;
}

/** XPath from a document, or from each child of a shadow root (XPath refuses a shadow root as context). */
function evaluateIn(root: Node, expr: string): XPathResult[] {
  const contexts = root instanceof ShadowRoot ? [...root.children] : [root];
  return contexts.map((context) => document.evaluate(expr, context, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null));
}

/** Characters of a field's value shown, as in a snapshot line. */
const VALUE_LIMIT = 120;

/** At most this many elements are scored. */
const CANDIDATES = 150;

/** Index of the first item whose box ends below the viewport's top (n when none); items without a box count as above. */
function firstBelowTop(n: number, item: (i: number) => Element | null): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const rect = item(mid)?.getBoundingClientRect();
    if (!rect || rect.bottom < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A word matching this few nodes is selective enough (scoring them costs less than another scan of the page). */
const FEW_MATCHES = 200;

/**
 * Elements matching each word, found natively by XPath over text and a few attributes (walking every element
 * through the sandbox's wrappers would cost a second on a big page), plus their ancestors up to the nearest one
 * with a role, which is what a name from content belongs to.
 */
function gather(words: string[]): Map<Element, number> {
  const hits = new Map<Element, number>();
  const roots = searchRoots();
  // Candidates come from the rarest word's nodes alone: each node read is a wrapper call, and common words match
  // thousands. Words that look rarest go first (digits, then longer words), and a word with few matches ends the search:
  // candidates come from one word only (scoring checks the others), and each word costs a native scan of the
  // whole document. Words without letters skip translate(), the costly part of that scan.
  const exprOf = (word: string): string => {
    const lit = literal(word);
    const text = /[a-z]/.test(word) ? `translate(., '${UPPER}', '${LOWER}')` : '.';
    return `descendant-or-self::text()[contains(${text}, ${lit})] | descendant-or-self::*[(${ATTRS})[contains(${text}, ${lit})]]`;
  };
  const order = [...words].sort((x, y) => Number(/\d/.test(y)) - Number(/\d/.test(x)) || y.length - x.length);
  let rarest: { results: XPathResult[]; byRole: NodeListOf<Element>[]; count: number } | null = null;
  for (const word of order) {
    const entry = { results: [] as XPathResult[], byRole: [] as NodeListOf<Element>[], count: 0 };
    const selector = ROLE_SELECTORS[word];
    for (const root of roots) {
      for (const result of evaluateIn(root, exprOf(word))) {
        entry.results.push(result);
        entry.count += result.snapshotLength;
      }
      if (selector && (root instanceof Document || root instanceof ShadowRoot)) {
        const list = root.querySelectorAll(selector);
        entry.byRole.push(list);
        entry.count += list.length;
      }
    }
    if (entry.count > 0 && (!rarest || entry.count < rarest.count)) rarest = entry;
    if (rarest && rarest.count <= FEW_MATCHES) break;
  }
  if (!rarest) return hits;
  const found: Element[] = [];
  const take = (n: number, item: (i: number) => Element | null) => {
    const room = CANDIDATES - found.length;
    if (room <= 0) return;
    // A long list (a word or role on every row) is read from near the viewport, where shown matches score best;
    // lists flow top to bottom in document order, so the spot is found by bisecting on boxes.
    const from = n > room ? Math.max(0, firstBelowTop(n, item) - Math.floor(room / 4)) : 0;
    for (let i = from; i < n && found.length < CANDIDATES; i++) {
      const element = item(i);
      if (element) found.push(element);
    }
  };
  const elementOf = (node: Node | null): Element | null => (!node ? null : node.nodeType === Node.ELEMENT_NODE ? (node as Element) : shownIn(node));
  for (const result of rarest.results) take(result.snapshotLength, (i) => elementOf(result.snapshotItem(i)));
  for (const list of rarest.byRole) take(list.length, (i) => list[i] ?? null);
  for (const element of found) {
    // Up the composed tree: text slotted into a web component names the control inside its shadow root.
    for (let up: Element | null = element, steps = 0; up && steps < 4; up = composedParent(up), steps++) {
      hits.set(up, 1);
      // A label's words name its control, which is what an agent is after.
      if (up.localName === 'label') {
        const control = (up as HTMLLabelElement).control;
        if (control) hits.set(control, 1);
      }
    }
  }
  return hits;
}

function bits(value: number): number {
  let count = 0;
  for (let v = value; v; v &= v - 1) count++;
  return count;
}

export function find(args: FindArgs): PageFindResult {
  // A document still being created (a page replacing itself) has nothing to find yet.
  if (!document.documentElement) return { docId: documentId, matches: [], scanned: 0 };
  const words = parseQuery(args.query);
  const phrase = words.map((word) => word.raw).join(' ');
  const hits = gather(scanWords(words));
  // Score the elements that cover the most words first; a few hundred are plenty to rank.
  const ranked = [...hits].sort((a, b) => bits(b[1]) - bits(a[1])).slice(0, CANDIDATES * 2);
  const candidates: Candidate[] = [];
  for (const [element] of ranked) {
    if (SKIPPED_TAGS.has(element.localName) || element === document.body || element === document.documentElement) continue;
    const hidden = !renders(element) || element.closest('[aria-hidden=true]') !== null;
    const candidate = scoreOf(element, words, phrase, hidden);
    if (candidate) candidates.push(candidate);
  }
  candidates.sort((a, b) => b.score - a.score);
  const matches: PageFindMatch[] = [];
  for (const candidate of candidates) {
    if (matches.length >= args.maxResults) break;
    const place = placeOf(candidate.element, candidate.score % 2 === 1);
    // A field's value as its snapshot line shows it (cut at the same length).
    const value = VALUE_ROLES.has(candidate.role) ? shownValue(candidate.element, candidate.role) : null;
    const valueCut = value !== null && value.length > VALUE_LIMIT;
    matches.push({
      id: localIdOf(candidate.element),
      role: candidate.role,
      name: candidate.name,
      score: Math.floor(candidate.score / 2),
      visible: place.visible,
      box: place.box,
      ...(place.clipped ? { clipped: true } : {}),
      ...(place.coveredBy ? { coveredBy: place.coveredBy } : {}),
      ...(value ? { value: defang(clip(value, VALUE_LIMIT)) } : {}),
      ...(candidate.cut || valueCut ? { cut: true } : {}),
      ...(candidate.missing.length ? { missing: candidate.missing } : {}),
      ...(candidate.excerpt ? { excerpt: candidate.excerpt } : {}),
    });
  }
  const result: PageFindResult = { docId: documentId, matches, scanned: hits.size };
  // A number that no match holds whole: in a virtualized grid the row may simply not be rendered.
  const numbers = words.filter((word) => word.kind === 'number');
  if (numbers.length && (!matches.length || numbers.some((word) => matches[0]!.missing?.includes(word.raw)))) {
    const note = virtualizedNote();
    if (note) result.note = note;
  }
  return result;
}

/**
 * Score × 2 + 1 when shown (the low bit carries visibility), or null when the element does not match. A word
 * found in the name scores most, then in attributes, then in the element's text; an element that holds only
 * some of the words is kept with the others listed as missing.
 */
function scoreOf(element: Element, words: QueryWord[], phrase: string, hidden: boolean): Candidate | null {
  const role = roleOf(element);
  const ownShown = ownText(element);
  const own = ownShown.toLowerCase();
  const attrs = extras(element);
  const label = (element.getAttribute('aria-label') ?? '').toLowerCase();
  // Cheap pre-check before computing a name: some word must appear somewhere on or in this element.
  if (!role && !own && !attrs && !label) return null;
  const haystack = `${role ?? ''} ${own} ${attrs} ${label}`;
  // Text split over many spans (a code signature) is whole only in textContent.
  const textualShown = role && TEXT_ROLES.has(role) ? squash((element.textContent ?? '').slice(0, TEXT_SCAN)) : '';
  const textual = textualShown.toLowerCase();
  // A field named by a <label> or aria-labelledby holds none of its name's words itself.
  const namedElsewhere = role !== null && (element.hasAttribute('aria-labelledby') || ((element as HTMLInputElement).labels?.length ?? 0) > 0 || element.localName.includes('-'));
  if (!namedElsewhere && !words.some((word) => matchIn(haystack, word) || matchIn(textual, word) || tokensIn(textual || haystack, word))) return null;
  const name = role ? nameOf(element, role) : '';
  const nameCut = name !== '' && nameWasCut();
  const lowerName = name.toLowerCase();
  let score = 0;
  let matched = 0;
  const missing: string[] = [];
  let inTextOnly: QueryWord | null = null;
  for (const word of words) {
    let best = 0;
    if (role === word.raw || (role !== null && ROLE_ALIASES[word.raw] === role)) best = 6;
    else if (role === 'searchbox' && (word.raw === 'textbox' || ROLE_ALIASES[word.raw] === 'textbox')) best = 5;
    const inName = matchIn(lowerName, word);
    if (inName) best = Math.max(best, inName === 1 ? 9 : new RegExp(`\\b${escape(word.raw)}`).test(lowerName) ? 10 : 7);
    if (matchIn(attrs, word) || matchIn(label, word)) best = Math.max(best, 6);
    if (matchIn(own, word)) best = Math.max(best, 4);
    if (!best && matchIn(textual, word)) {
      best = 4;
      inTextOnly ??= word;
    }
    if (best) matched++;
    else {
      missing.push(word.raw);
      if (tokensIn(textual || own || lowerName, word)) score += 2;
    }
    score += best;
  }
  if (matched === 0 && score === 0) return null;
  if (matched < words.length) score -= 8 * (words.length - matched);
  if (lowerName && lowerName === phrase) score += 40;
  else if (lowerName && words.length > 1 && lowerName.includes(phrase)) score += 15;
  // A name given by content (a row, a list) that only contains the words is weaker than the element that holds them.
  if (role && !own && !attrs && !label && lowerName.length > phrase.length * 4) score -= 6;
  if (role && INTERACTIVE.has(role)) score += 12;
  else if (role) score += 3;
  let shown = false;
  if (!hidden) {
    // A control drawn by another box (an editor's sizeless input) is seen there.
    const rect = (drawnBy(element) ?? element).getBoundingClientRect();
    shown = (rect.width > 0 || rect.height > 0) && !visibilityHidden(element);
    if (shown) score += 20;
    if (shown && rect.bottom > 0 && rect.top < window.innerHeight) score += 5;
  }
  if (score <= 0) return null;
  const shownName = name || clipText(ownShown);
  // Words the reader would not see in the name: show where they are in the element's text.
  const excerpt = inTextOnly && !matchIn(shownName.toLowerCase(), inTextOnly) ? excerptAround(textualShown, inTextOnly) : '';
  // Page text must not pose as a ref line of ours.
  const cut = name ? nameCut : shownName !== ownShown;
  return { element, role: role ?? 'generic', name: defang(shownName), cut, score: score * 2 + (shown ? 1 : 0), missing, excerpt: defang(excerpt) };
}

function clipText(text: string): string {
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** Words people use for a role ("image" for img). */
const ROLE_ALIASES: Record<string, string> = { image: 'img', picture: 'img', field: 'textbox', input: 'textbox', dropdown: 'combobox' };

/** Roles whose text (split over spans) counts as theirs; a list or a table only contains it. */
const TEXT_ROLES = new Set([...NAME_FROM_CONTENT, 'listitem', 'definition', 'paragraph', 'blockquote', 'status', 'alert', 'note', 'code']);

/** Characters of an element's text that scoring reads (a whole article's text is no name). */
const TEXT_SCAN = 4_000;

function escape(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
