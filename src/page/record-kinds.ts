// What a mutation record means for a delta: only a look (class, style, data-*), a focus or hover marker, an
// attribute no snapshot line shows, and whether it brought something (for a hover's wait) or only took it away.

/** Class names a component toggles as the pointer and focus move (button--focused, is-hovered, mdc-ripple-…). */
const INTERACTION_CLASS = /focus|hover|active|pressed|ripple|touched|pointer/i;

function classes(value: string | null): Set<string> {
  return new Set((value ?? '').split(/\s+/).filter(Boolean));
}

/** The class changed only by focus / hover / press markers: what the delta says about focus is enough. */
export function onlyInteractionClasses(before: string | null, after: string | null): boolean {
  const old = classes(before);
  const now = classes(after);
  const diff = [...old].filter((name) => !now.has(name)).concat([...now].filter((name) => !old.has(name)));
  return diff.length > 0 && diff.every((name) => INTERACTION_CLASS.test(name));
}

export function isCosmetic(attribute: string | null): boolean {
  return attribute === 'class' || attribute === 'style' || (attribute?.startsWith('data-') ?? false);
}

/**
 * Attributes no snapshot line shows: a trigger getting `aria-describedby` as its tooltip shows rendered its line
 * again, unchanged, in every hover's reply.
 */
const UNSHOWN = new Set(['aria-describedby', 'aria-controls', 'aria-owns', 'aria-details', 'aria-flowto', 'id', 'tabindex']);

export function unshownAttribute(attribute: string | null): boolean {
  return attribute !== null && UNSHOWN.has(attribute);
}

const POPUP = 'dialog, [role=dialog], [role=alertdialog], [role=menu], [role=listbox], [role=tooltip], [popover]';

/**
 * Whether a record brought something: an element or text added, text changed, an attribute set or a class added,
 * outside a popup that was shown before the action. What only leaves (the last hover's tooltip fading out and
 * removed, its trigger's aria-describedby taken away) is not what a hover waits for: the new tooltip comes later.
 */
export function arrivalOf(renderedBefore: Map<Element, boolean>): (record: MutationRecord) => boolean {
  const leaving = (node: Node): boolean => {
    const popup = (node.nodeType === Node.ELEMENT_NODE ? (node as Element) : node.parentElement)?.closest(POPUP);
    return popup ? renderedBefore.get(popup) === true : false;
  };
  return (record) => {
    if (record.type === 'childList') {
      return [...record.addedNodes].some((node) => node.nodeType === Node.ELEMENT_NODE || Boolean(node.nodeValue?.trim()));
    }
    if (leaving(record.target)) return false;
    if (record.type === 'characterData') return true;
    const element = record.target as Element;
    const name = record.attributeName;
    const now = name ? element.getAttribute(name) : null;
    if (now === null || unshownAttribute(name)) return false;
    if (name !== 'class') return now !== record.oldValue;
    const old = classes(record.oldValue);
    const added = [...classes(now)].filter((token) => !old.has(token));
    return added.length > 0 && !added.every((token) => INTERACTION_CLASS.test(token));
  };
}
