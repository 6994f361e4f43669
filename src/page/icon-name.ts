// Names of icon-only controls, which carry no text: an SVG <title>, a title on a part, a tooltip's text. Tried
// only after the accname steps found nothing, so a control with a real name never pays for this.
import { composedParent, shadowOf } from './composed.js';

/** Roles an agent clicks, whose line is useless without a name or a position. */
export const ICON_ROLES = new Set(['button', 'link', 'menuitem', 'tab', 'switch', 'checkbox', 'radio', 'option', 'treeitem']);

/** Roles whose icon-only lines get a box (a checkbox or switch is found by its label instead). */
export const ICON_BOX_ROLES = new Set(['button', 'link', 'menuitem', 'tab']);

/** How far up the composed tree a wrapping tooltip component or titled host may be (slots count as levels). */
const UP = 10;

/** Text of an element, with what its slots show (a tooltip's content slot holds the page's text). */
function text(node: Element | null | undefined): string {
  if (!node) return '';
  let out = '';
  const walk = (current: Node): void => {
    if (current.nodeType === Node.TEXT_NODE) out += current.nodeValue ?? '';
    if (current.nodeType !== Node.ELEMENT_NODE) return;
    const assigned = (current as Element).localName === 'slot' ? (current as HTMLSlotElement).assignedNodes({ flatten: true }) : [];
    for (const child of assigned.length ? assigned : [...current.childNodes]) walk(child);
  };
  walk(node);
  return out.replace(/\s+/g, ' ').trim();
}

/** Elements of the element's subtree and of the shadow roots in it (bounded: an icon control is small). */
function* parts(element: Element, budget = 60): Generator<Element> {
  const stack: Element[] = [element];
  while (stack.length && budget-- > 0) {
    const current = stack.pop()!;
    yield current;
    const root = shadowOf(current);
    if (root) for (const child of root.children) stack.push(child);
    for (const child of current.children) stack.push(child);
  }
}

function tooltipOf(element: Element): string {
  for (const id of (element.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean)) {
    const described = (element.getRootNode() as Document | ShadowRoot).getElementById?.(id);
    if (described?.getAttribute('role') === 'tooltip' && text(described)) return text(described);
  }
  // A tooltip component wrapping the control keeps its bubble in its own shadow root (Shoelace's sl-tooltip).
  let up: Element | null = composedParent(element);
  for (let i = 0; up && i < UP; i++, up = composedParent(up)) {
    // A wrapper (or the slot showing the control) described by a tooltip: Shoelace's anchor slot.
    const described = up.getAttribute('aria-describedby');
    if (described) {
      const bubble = (up.getRootNode() as Document | ShadowRoot).getElementById?.(described.split(/\s+/)[0]!);
      if (bubble?.getAttribute('role') === 'tooltip' && text(bubble)) return text(bubble);
    }
    const bubble = shadowOf(up)?.querySelector('[role="tooltip"]');
    if (bubble && text(bubble)) return text(bubble);
    const hostTitle = up.getAttribute('title');
    if (hostTitle?.trim() && up.localName.includes('-')) return hostTitle.trim();
  }
  return '';
}

/** The name of a control without one from the accname steps: its parts' SVG title or title, else a tooltip. */
export function iconName(element: Element): string {
  for (const part of parts(element)) {
    if (part === element) continue;
    if (part.localName === 'title' && part.parentElement?.localName === 'svg' && text(part)) return text(part);
    const title = part.getAttribute('title') ?? part.getAttribute('aria-label');
    if (title?.trim() && part.getAttribute('aria-hidden') !== 'true') return title.trim();
  }
  return tooltipOf(element) || generatedText(element);
}

/**
 * Text a style sheet draws (`::before { content: "Normal" }` or `attr(data-label)`: Quill's pickers), which browsers
 * count in a name. Icon fonts draw private-use glyphs, which are no text.
 */
function generatedText(element: Element): string {
  let budget = 6;
  for (const part of parts(element)) {
    if (budget-- <= 0) break;
    for (const pseudo of ['::before', '::after']) {
      const content = getComputedStyle(part, pseudo).content;
      const attr = /^attr\(([\w-]+)\)$/.exec(content);
      const shown = attr ? part.getAttribute(attr[1]!) ?? '' : /^"(.*)"$/.exec(content)?.[1] ?? '';
      const readable = shown.replace(/[\uE000-\uF8FF]/g, '').trim();
      if (/[\p{L}\p{N}]/u.test(readable)) return readable;
    }
  }
  return '';
}

/** Whether the control shows no text of its own (an icon): such lines get their box in read_page. */
export function iconOnly(element: Element): boolean {
  if (element.textContent?.trim()) return false;
  for (const part of parts(element)) {
    for (const child of part.childNodes) if (child.nodeType === Node.TEXT_NODE && child.nodeValue?.trim()) return false;
    if (part.localName === 'slot') for (const node of (part as HTMLSlotElement).assignedNodes({ flatten: true })) if (node.textContent?.trim()) return false;
  }
  return true;
}
