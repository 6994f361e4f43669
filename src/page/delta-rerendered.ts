// Re-renders that changed nothing: a framework that rebuilds a list (a table after one row was removed, a pager,
// an editor's element path) takes out every item and puts in copies. Copies put back in the same order as the
// items they replace are the same items to an agent: they take over their refs and are not news.
import { adoptIds } from './registry.js';

/** Removed items past this per place are not compared (a grid of thousands re-rendered: its own summary says it). */
const COMPARED_MAX = 400;

/**
 * Pairs, per place, the removed elements with the added ones now there whose markup is identical, in order (an
 * item whose copy went elsewhere in the order is left as a change: a sort moved it). Paired copies leave `added`
 * and `changed`, the items they replace leave `removals`, and their refs move to the copies.
 */
export function pairRerendered(removals: Map<Node, Element[]>, added: Set<Element>, changed: Set<Element>): void {
  for (const [place, removed] of removals) {
    if (!place.isConnected || removed.length > COMPARED_MAX) continue;
    const copies = [...place.childNodes].filter((node): node is Element => node instanceof Element && added.has(node));
    if (copies.length === 0) continue;
    const byMarkup = new Map<string, number[]>();
    for (const [index, element] of removed.entries()) {
      if (element.isConnected) continue;
      const markup = element.outerHTML;
      const alike = byMarkup.get(markup);
      if (alike) alike.push(index);
      else byMarkup.set(markup, [index]);
    }
    const paired = new Set<Element>();
    let last = -1;
    for (const copy of copies) {
      const candidates = byMarkup.get(copy.outerHTML);
      const at = candidates?.find((index) => index > last);
      if (at === undefined) continue;
      last = at;
      const old = removed[at]!;
      adoptIds(old, copy);
      paired.add(old);
      added.delete(copy);
      changed.delete(copy);
    }
    if (paired.size) removals.set(place, removed.filter((element) => !paired.has(element)));
  }
}
