// A document's localStorage, read and written from the sandbox: the sandbox sees the page's own Storage object
// (through its Xray wrapper), and the page's scripts cannot intercept or fake what is read.
import type { OriginStorage } from '../contract/index.js';

/** The document's origin and its localStorage items; null where storage is denied (sandboxed frames, opaque origins). */
export function readLocalStorage(): OriginStorage | null {
  try {
    const items: OriginStorage['localStorage'] = [];
    for (let i = 0; i < localStorage.length; i++) {
      const name = localStorage.key(i);
      if (name !== null) items.push({ name, value: localStorage.getItem(name) ?? '' });
    }
    return { origin: location.origin, localStorage: items };
  } catch {
    return null;
  }
}

/** Writes `items` into the document's localStorage, only if the document is of `origin` (false otherwise). */
export function writeLocalStorage({ origin, localStorage: items }: OriginStorage): { written: boolean } {
  if (location.origin !== origin) return { written: false };
  for (const { name, value } of items) localStorage.setItem(name, value);
  return { written: true };
}
