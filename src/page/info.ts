import type { PageInfo } from '../contract/index.js';
import { defang, squash } from './names.js';
import { documentId } from './registry.js';

/** How much of a title and a URL a reply carries: a page's 1 MB title would otherwise ride on every reply. */
const TITLE_LIMIT = 300;
const URL_LIMIT = 2_048;

function capped(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… [cut: ${text.length} chars]` : text;
}

/** The document's URL and title as replies show them: one line, no forged ref, capped (controls are escaped later). */
export function pageIdentity(): { url: string; title: string } {
  return { url: capped(location.href, URL_LIMIT), title: capped(defang(squash(document.title)), TITLE_LIMIT) };
}

export function pageInfo(): PageInfo {
  return {
    docId: documentId,
    ...pageIdentity(),
    readyState: document.readyState,
    viewport: { width: window.innerWidth, height: window.innerHeight },
    scroll: { x: Math.round(window.scrollX), y: Math.round(window.scrollY) },
  };
}
