// find on the page side: query words scored against each element's role, name, label, placeholder, value and own
// text. An exact name beats a partial one, shown beats hidden, controls beat static content.
import type { PageFindMatch, PageFindResult } from '../browser/page-types.js';
import { fieldValue, nameOf, squash } from './names.js';
import { documentId, localIdOf } from './registry.js';
import { INTERACTIVE, SKIPPED_TAGS, roleOf } from './roles.js';
import { composedChildren } from './snapshot-walk.js';

export interface FindArgs {
  query: string;
  maxResults: number;
}

interface Candidate {
  element: Element;
  role: string;
  name: string;
  score: number;
}

function ownText(element: Element): string {
  let text = '';
  for (let child = element.firstChild; child; child = child.nextSibling) if (child.nodeType === Node.TEXT_NODE) text += child.nodeValue;
  return squash(text);
}

function extras(element: Element): string {
  const parts = [element.getAttribute('placeholder'), element.getAttribute('title'), element.getAttribute('alt'), element.id, element.getAttribute('name')];
  if (INTERACTIVE.has(roleOf(element) ?? '')) parts.push(fieldValue(element));
  return parts.filter(Boolean).join(' ').toLowerCase();
}

export function find(args: FindArgs): PageFindResult {
  const words = args.query.toLowerCase().split(/\s+/).filter(Boolean);
  const phrase = words.join(' ');
  const candidates: Candidate[] = [];
  let scanned = 0;
  const visit = (node: Node, hidden: boolean): void => {
    const children = composedChildren(node);
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (child.nodeType !== Node.ELEMENT_NODE) continue;
      const element = child as Element;
      if (SKIPPED_TAGS.has(element.localName)) continue;
      scanned++;
      const isHidden = hidden || element.getAttribute('aria-hidden') === 'true' || element.hasAttribute('hidden');
      const score = scoreOf(element, words, phrase, isHidden);
      if (score) candidates.push(score);
      if (element.localName !== 'iframe') visit(element, isHidden);
    }
  };
  visit(document.body ?? document.documentElement, false);
  candidates.sort((a, b) => b.score - a.score);
  const matches: PageFindMatch[] = [];
  for (const candidate of candidates) {
    // A match inside a better match with the same name adds nothing (a span inside its button).
    if (matches.length >= args.maxResults) break;
    const rect = candidate.element.getBoundingClientRect();
    const visible = candidate.score % 2 === 1;
    matches.push({
      id: localIdOf(candidate.element),
      role: candidate.role,
      name: candidate.name,
      score: Math.floor(candidate.score / 2),
      visible,
      box: { x: Math.round(rect.x), y: Math.round(rect.y), width: Math.round(rect.width), height: Math.round(rect.height) },
    });
  }
  return { docId: documentId, matches, scanned };
}

/** Score × 2 + 1 when shown (the low bit carries visibility), or null when the element does not match. */
function scoreOf(element: Element, words: string[], phrase: string, hidden: boolean): Candidate | null {
  const role = roleOf(element);
  const own = ownText(element).toLowerCase();
  const attrs = extras(element);
  const label = (element.getAttribute('aria-label') ?? '').toLowerCase();
  // Cheap pre-check before computing a name: some word must appear somewhere on or in this element.
  if (!role && !own && !attrs && !label) return null;
  const haystack = `${role ?? ''} ${own} ${attrs} ${label}`;
  const textual = role ? (element.textContent ?? '').toLowerCase() : '';
  if (!words.some((word) => haystack.includes(word) || textual.includes(word) || (element.hasAttribute('aria-labelledby') && role))) return null;
  const name = role ? nameOf(element, role) : '';
  const lowerName = name.toLowerCase();
  let score = 0;
  let matched = 0;
  for (const word of words) {
    let best = 0;
    if (role === word) best = 6;
    if (lowerName.includes(word)) best = Math.max(best, new RegExp(`\\b${escape(word)}`).test(lowerName) ? 10 : 7);
    if (attrs.includes(word)) best = Math.max(best, 6);
    if (own.includes(word)) best = Math.max(best, 4);
    if (best) matched++;
    score += best;
  }
  if (matched === 0) return null;
  if (matched < words.length) score -= 8 * (words.length - matched);
  if (lowerName && lowerName === phrase) score += 40;
  else if (lowerName && words.length > 1 && lowerName.includes(phrase)) score += 15;
  // A name given by content (a row, a list) that only contains the words is weaker than the element that holds them.
  if (role && !own && !attrs && !label && lowerName.length > phrase.length * 4) score -= 6;
  if (role && INTERACTIVE.has(role)) score += 12;
  else if (role) score += 3;
  let shown = false;
  if (!hidden) {
    const rect = element.getBoundingClientRect();
    shown = (rect.width > 0 || rect.height > 0) && getComputedStyle(element).visibility === 'visible';
    if (shown) score += 20;
    if (shown && rect.bottom > 0 && rect.top < window.innerHeight) score += 5;
  }
  if (score <= 0) return null;
  return { element, role: role ?? 'generic', name: name || clipText(own), score: score * 2 + (shown ? 1 : 0) };
}

function clipText(text: string): string {
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function escape(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
