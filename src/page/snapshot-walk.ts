// The tree walk behind read_page and deltas: one line per element with a role, text runs between them, wrappers
// folded away. Lines carry page-local ids as `[ref=#N]`; the server rewrites them to global refs.
import type { SnapshotHint } from '../contract/index.js';
import { composedChildren, composedParent, shadowOf } from './composed.js';
import { Legibility } from './legible.js';
import { NAME_LIMIT, clip, defang, fieldValue, nameOf, nameWasCut, quote, squash, statesOf } from './names.js';
import { editorText } from './drawn.js';
import { ICON_BOX_ROLES, iconOnly } from './icon-name.js';
import { localIdOf } from './registry.js';
import { setApart } from './text-runs.js';
import { BISECT_OVER, ViewBand } from './view-band.js';
import { BLOCK_TAGS, COLLECTION_ITEMS, INTERACTIVE, LANDMARKS, NAME_FROM_CONTENT, PAGE_LANDMARKS, SKIPPED_TAGS, roleOf } from './roles.js';

export type WalkMode = 'visible' | 'all' | 'interactive';

export interface WalkOptions {
  mode: WalkMode;
  /** Deepest line depth to render (0 = only the root lines). */
  depth?: number;
  /** Budget for the rendered lines, in characters. */
  maxChars: number;
  /**
   * How many options of a closed (dropdown) select to list under it: a select with at most FEW_OPTIONS is always
   * listed whole; a longer one lists this many (read_page filter "all" or ref_id) or none (the default view).
   */
  selectOptions?: number;
  /** Names and text runs whole (up to the budget) instead of cut at 100 / 200 characters: a subtree read by ref. */
  wholeText?: boolean;
  /**
   * A diff walk (deltas): only what changed is rendered. Elements in `whole` are rendered with their subtree;
   * elements in `path` (ancestors of changes) give their own line as context; anything else is counted into one
   * `- … N unchanged siblings` line per parent.
   */
  focus?: { whole: Set<Element>; path: Set<Element>; renamed?: Set<Element>; tails?: Map<Element, string> };
  /** A multi-line field's value as the lines around its caret (a delta after typing into a code editor). */
  aroundCaret?: boolean;
  /**
   * The most characters one navigation or sidebar landmark may take (a page walk that did not fit its budget):
   * the rest of it is counted on one line with its ref, so a long menu cannot push the page's content out.
   */
  sideShare?: number;
}

/** Landmarks that hold a site's menus, not the page's content. */
const SIDE_LANDMARKS = new Set(['navigation', 'complementary']);

/** A dropdown with this many options or fewer is always listed: its options cost less than a second read. */
export const FEW_OPTIONS = 6;

interface Flags {
  /** Text here is already part of a name (a button's label, a label's text): do not repeat it. */
  quiet: boolean;
  /** Inside an element named by its content: show only controls and frames. */
  onlyControls: boolean;
  /** The parent is visibility:hidden, so its own text is not shown. */
  hiddenText: boolean;
  /** Out-of-viewport checks do not apply (a subtree asked for by ref). */
  anywhere: boolean;
  /** Directly inside a row: its header cells are shown too, since a grid sorts by clicking them. */
  inRow?: boolean;
  /** Inside a changed subtree of a diff walk (everything is rendered). */
  inWhole?: boolean;
  /** The name of the cell this text is in (padded with spaces): a run that is a word of it is not repeated. */
  echo?: string;
}

interface Pending {
  line: string;
  depth: number;
  emitted: boolean;
}

const TEXT_LIMIT = 200;
/** Whether a text run only repeats a word or words of its cell's name (`echo`). */
function echoes(text: string, echo: string | undefined): boolean {
  if (!echo) return false;
  const run = squash(text).toLowerCase().replace(/[,.]$/, '');
  return run.length > 0 && (echo.includes(` ${run} `) || echo.includes(` ${run}, `));
}

/** A text run this short may share a line with the runs beside it. */
const SHORT_RUN = 24;

/** Runs held by elements of one kind (siblings, or of one tag and class): a row of day numbers, a chart's labels. */
function alike(a: Element | null, b: Element | null): boolean {
  if (!a || !b || a.localName !== b.localName) return false;
  return a.parentNode === b.parentNode || (a.getAttribute('class') ?? '') === (b.getAttribute('class') ?? '');
}
/** Roles named by their content unless an attribute names them, and then holding content the name does not say. */
const LABELLED_CONTAINERS = new Set(['row', 'cell', 'gridcell']);

function namedByAttribute(element: Element): boolean {
  return Boolean(element.getAttribute('aria-label')?.trim() || element.getAttribute('aria-labelledby')?.trim());
}
/** Characters a server ref (`ref_1234`) may add over a local placeholder (`#12`). */
const REF_SLACK = 5;

export { composedChildren, shadowOf } from './composed.js';

/** The node whose childNodes composedChildren gives (a shadow root or the node), or null for a slot's assigned nodes. */
function childContainer(node: Node): ParentNode | null {
  if (node.nodeType === Node.ELEMENT_NODE) {
    const element = node as Element;
    const shadow = shadowOf(element);
    if (shadow) return shadow;
    if (element.localName === 'slot' && (element as HTMLSlotElement).assignedNodes({ flatten: true }).length) return null;
    return element;
  }
  return node.nodeType === Node.DOCUMENT_NODE || node.nodeType === Node.DOCUMENT_FRAGMENT_NODE ? (node as ParentNode) : null;
}

/**
 * Whether an element renders (false for display:none and what it hides). checkVisibility answers in one call;
 * reading computed styles through the sandbox's Xray wrappers costs ten times more, so styles are read only for
 * the rare display:contents box.
 */
export function renders(element: Element): boolean {
  if (element.checkVisibility()) return true;
  return getComputedStyle(element).display === 'contents' && (element.parentElement === null || renders(element.parentElement));
}

/** visibility:hidden (or collapse): the element itself is not shown, though children may be. */
export function visibilityHidden(element: Element): boolean {
  return !element.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions) && element.checkVisibility();
}

/** ` [box=x,y,wxh]` in viewport CSS pixels, the way find shows it. */
function boxOf(element: Element): string {
  const r = element.getBoundingClientRect();
  return ` [box=${Math.round(r.x)},${Math.round(r.y)},${Math.round(r.width)}x${Math.round(r.height)}]`;
}

/** The caret's line of a multi-line field with one line either side; before/after: lines left out there. */
function caretLines(element: Element, value: string): { text: string; before: boolean; after: boolean } | null {
  if (!value.includes('\n') || (element.localName !== 'textarea' && element.localName !== 'input')) return null;
  const caret = (element as HTMLTextAreaElement).selectionEnd ?? value.length;
  const lines = value.split('\n');
  const at = value.slice(0, caret).split('\n').length - 1;
  const from = Math.max(0, at - 1);
  const to = Math.min(lines.length, at + 2);
  return { text: lines.slice(from, to).join('\n'), before: from > 0, after: to < lines.length };
}

/**
 * Whether a label's text is already a control's name: its control's (`for`, or wrapped), or, in a component, that
 * of the control that names itself by the label's id (Shoelace's select: aria-labelledby="label").
 */
function labelsAControl(label: HTMLLabelElement): boolean {
  if (label.control) return true;
  const root = label.getRootNode() as Document | ShadowRoot;
  return label.id !== '' && typeof root.querySelector === 'function' && root.querySelector(`[aria-labelledby~="${CSS.escape(label.id)}"]`) !== null;
}

/**
 * ` [selected=all]` or ` [selected="…"]` when a text field has a selection (after ctrl+a or a triple click): the
 * next keys replace it, which the value alone does not say.
 */
function selectionOf(element: Element, value: string): string {
  if ((element as HTMLElement).isContentEditable) return editableSelection(element, value);
  if (element.localName !== 'textarea' && element.localName !== 'input') return '';
  const field = element as HTMLInputElement;
  let start: number | null;
  let end: number | null;
  try {
    start = field.selectionStart;
    end = field.selectionEnd;
  } catch {
    return '';
  }
  if (start === null || end === null || start === end) return '';
  if (start === 0 && end >= value.length) return ' [selected=all]';
  return ` [selected=${quote(clip(value.slice(start, end), 60)).replace(/\n/g, '\\n')}]`;
}

/** The same for a rich-text field: the document's selection, when it lies inside the field. */
function editableSelection(element: Element, value: string): string {
  const selection = element.ownerDocument.getSelection();
  if (!selection || selection.isCollapsed || selection.rangeCount === 0 || !element.contains(selection.getRangeAt(0).commonAncestorContainer)) return '';
  const raw = selection.toString();
  if (!raw.trim()) return '';
  if (squash(raw) === value) return ' [selected=all]';
  // A selected paragraph end (a triple click) is shown: the next keys join the paragraphs.
  return ` [selected=${quote(clip(raw.replace(/[^\S\n]+/g, ' ').replace(/^ | $/gm, ''), 60)).replace(/\n/g, '\\n')}]`;
}

/** Roles whose line shows the element's current value. */
export const VALUE_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider', 'file', 'listbox']);

/** The value a field's line shows (VALUE_ROLES), whole: '' or null when it has none. */
export function shownValue(element: Element, role: string, aroundCaret = false): string | null {
  // A code editor's hidden input: CodeMirror 5's holds only a typing buffer (its lines are page text, listed
  // anyway), Monaco's at most the lines around the caret, so its drawn lines are its value (an action's reply
  // keeps the caret's lines).
  const drawn = editorText(element);
  const own = drawn && 'onPage' in drawn ? '' : fieldValue(element, role);
  return own && aroundCaret ? own : drawn && 'lines' in drawn ? drawn.lines : own;
}

/** The block a text node belongs to (its paragraph, cell or item), else its parent. */
function blockOf(text: Node): Element | null {
  const parent = composedParent(text);
  for (let up = parent, steps = 0; up && steps < 6; up = composedParent(up), steps++) {
    if (BLOCK_TAGS.has(up.localName) || roleOf(up)) return up;
  }
  return parent;
}

export class SnapshotWalker {
  readonly lines: string[] = [];
  readonly frames: { line: number; id: number; depth: number }[] = [];
  readonly hints: SnapshotHint[] = [];
  chars = 0;
  full = false;
  omitted = 0;
  deeper = 0;
  private hintDepth = Infinity;
  private text = '';
  private textDepth = 0;
  /** The element holding the current text run: its ref reads the run whole. */
  private textOwner: Element | null = null;
  /** Lines whose name or text was cut (they carry `[cut]`). */
  cut = 0;
  /** Diff walk: indexes of lines that only give context (an ancestor of a change, a count of unchanged ones). */
  readonly contextLines = new Set<number>();
  /** Diff walk: unchanged children skipped, by depth, not yet said. */
  private readonly skipped = new Map<number, number>();
  private readonly pending: Pending[] = [];
  /** The index of the last line when it is a short text run that the next one may join (-1 otherwise). */
  private shortRunLine = -1;
  private shortRunOwner: Element | null = null;
  /** While a side landmark is walked under sideShare: where its share ends, and whether it ran out. */
  private sideLimit: number | null = null;
  private sideFull = false;
  /** A navigation or sidebar landmark was walked: a walk that ran out of room may give it a share and walk again. */
  sawSide = false;
  private readonly band = new ViewBand();
  /** Text a person cannot see (opacity 0, off the page, white on white) is not listed, as get_page_text leaves it out. */
  private readonly legibility = new Legibility();

  constructor(readonly options: WalkOptions) {}

  /** Elements left out above and below the viewport (a 'visible' walk). */
  get above(): number {
    return this.band.above;
  }

  get below(): number {
    return this.band.below;
  }

  /** Renders a subtree root's children (the document body) at depth 0. */
  walkChildren(node: Node, anywhere = false): void {
    this.visitChildren(node, 0, { quiet: false, onlyControls: false, hiddenText: false, anywhere });
    this.flushText();
  }

  /** Renders one element and its subtree as a root line at depth 0. */
  walkElement(element: Element): void {
    const inWhole = !this.options.focus || this.options.focus.whole.has(element);
    this.visitElement(element, 0, { quiet: false, onlyControls: false, hiddenText: false, anywhere: true, inWhole });
    this.flushText();
    // Unchanged ones beside the changes at the top, with no line above them to be siblings under, are not worth one.
    this.skipped.delete(0);
  }

  /** After a root element, the items of the same collection that follow it (paging a long table or list). */
  walkFollowing(element: Element): void {
    if (!COLLECTION_ITEMS.has(roleOf(element) ?? '')) return;
    const siblings: Element[] = [];
    for (let next = element.nextElementSibling; next; next = next.nextElementSibling) siblings.push(next);
    for (let i = 0; i < siblings.length; i++) {
      if (this.full) {
        this.skipRest(siblings, i, 0);
        return;
      }
      this.walkElement(siblings[i]!);
    }
  }

  private visitChildren(node: Node, depth: number, flags: Flags): void {
    const focus = this.options.focus;
    if (focus && !flags.inWhole) {
      this.visitChanged(composedChildren(node), depth, flags, focus);
      return;
    }
    let children = composedChildren(node);
    if (children.length > BISECT_OVER && !flags.anywhere && this.options.mode !== 'all') {
      const container = childContainer(node);
      children = container ? this.band.withinChildrenOf(container) : this.band.within(children);
    }
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (this.full) {
        this.skipRest(children, i, depth);
        return;
      }
      if (child.nodeType === Node.TEXT_NODE) {
        if (!flags.quiet && !flags.hiddenText && !this.full && this.options.mode !== 'interactive') {
          const value = child.nodeValue;
          if (value && value.trim() && this.legibility.textShown(child) && !echoes(value, flags.echo)) {
            if (this.text && this.textDepth !== depth) this.flushText();
            if (!this.text) this.textOwner = blockOf(child);
            this.text += value;
            this.textDepth = depth;
          } else if (value && this.text) {
            this.text += ' ';
          }
        }
      } else if (child.nodeType === Node.ELEMENT_NODE) {
        this.visitElement(child as Element, depth, flags);
      }
    }
  }

  /** Diff walk through unchanged ground: changes and the way to them are visited, the rest is counted. */
  private visitChanged(children: ArrayLike<Node>, depth: number, flags: Flags, focus: NonNullable<WalkOptions['focus']>): void {
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (this.full) return;
      if (child.nodeType === Node.ELEMENT_NODE) {
        const element = child as Element;
        if (focus.whole.has(element)) this.visitElement(element, depth, { ...flags, inWhole: true });
        else if (focus.path.has(element)) this.visitElement(element, depth, flags);
        else if (!flags.onlyControls && !SKIPPED_TAGS.has(element.localName) && element.getAttribute('aria-hidden') !== 'true' && renders(element)) this.skip(depth);
      } else if (child.nodeType === Node.TEXT_NODE && child.nodeValue?.trim() && !flags.quiet && !flags.hiddenText && !flags.onlyControls) {
        this.skip(depth);
      }
    }
  }

  /** Only what was added to the end of a text (a log's new line), marked as a continuation. */
  private emitTail(tail: string, depth: number): void {
    const text = squash(tail);
    if (text && !this.emit(`- text: …${defang(clip(text, TEXT_LIMIT))}`, depth)) this.omitted++;
  }

  private skip(depth: number): void {
    this.skipped.set(depth, (this.skipped.get(depth) ?? 0) + 1);
  }

  /** Says how many unchanged children were left out at this depth (one line for them all). */
  private flushSkipped(depth: number): void {
    const count = this.skipped.get(depth);
    if (!count) return;
    this.skipped.delete(depth);
    if (this.full) return;
    const line = `- … ${count} unchanged ${count === 1 ? 'sibling' : 'siblings'}`;
    if (this.emit(line, depth)) this.contextLines.add(this.lines.length - 1);
  }

  private visitElement(element: Element, depth: number, flags: Flags): void {
    const tag = element.localName;
    if (SKIPPED_TAGS.has(tag) || element.getAttribute('aria-hidden') === 'true') return;
    if (this.full) {
      this.omitted++;
      return;
    }
    if (!renders(element)) return;
    let anywhere = flags.anywhere || this.options.mode === 'all';
    if (!anywhere) {
      const band = this.band.place(element);
      if (band === 'out') return;
      // Children of a box wholly inside the band are inside too (bar positioned ones): skip their checks.
      anywhere = band === 'inside';
    }
    const role = roleOf(element);
    // renders() said it has a box, so one more call tells visibility:hidden apart. An element without a box of
    // its own (a slot, display: contents) fails that check too: its style says whether its text is hidden.
    const hidden =
      !element.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions) &&
      (element.checkVisibility() || getComputedStyle(element).visibility !== 'visible');
    const childFlags: Flags = { ...flags, hiddenText: hidden, anywhere: flags.anywhere || anywhere, inRow: role === 'row' || (!role && flags.inRow) };
    const shownInRow = flags.inRow === true && (role === 'columnheader' || role === 'rowheader');
    const tail = this.options.focus?.tails?.get(element);
    if (!role || (flags.onlyControls && !INTERACTIVE.has(role) && role !== 'iframe' && !shownInRow)) {
      if (tail !== undefined && !flags.quiet) {
        this.flushText();
        this.emitTail(tail, depth);
        return;
      }
      if ((tag === 'label' && labelsAControl(element as HTMLLabelElement)) || tag === 'legend' || tag === 'figcaption' || tag === 'caption') childFlags.quiet = true;
      // Where text is read, the layout says where a run ends, not the tag: a span laid out as a block or a flex item
      // (a date picker's day cells) ends one, and an inline box with room around it (a status bar's counter) is a
      // word of its own, with the text a style sheet draws around it.
      const style = !BLOCK_TAGS.has(tag) && !childFlags.quiet && !hidden && this.options.mode !== 'interactive' ? getComputedStyle(element) : null;
      const block = BLOCK_TAGS.has(tag) || (style !== null && !style.display.startsWith('inline') && style.display !== 'contents');
      if (block) this.flushText();
      const apart = !block && style ? setApart(element, style) : null;
      if (apart) this.addApart(element, apart.before, depth);
      this.visitChildren(element, depth, childFlags);
      if (apart) this.addApart(element, apart.after, depth);
      if (block) this.flushText();
      return;
    }
    this.flushText();
    if (hidden) {
      this.visitChildren(element, depth, childFlags);
      return;
    }
    if (this.options.depth !== undefined && depth > this.options.depth) {
      this.deeper++;
      return;
    }
    const interactiveMode = this.options.mode === 'interactive';
    if (interactiveMode && !INTERACTIVE.has(role) && role !== 'iframe') {
      if (!LANDMARKS.has(role)) {
        this.visitChildren(element, depth, childFlags);
        return;
      }
      const pending: Pending = { line: this.render(element, role), depth, emitted: false };
      this.pending.push(pending);
      this.visitChildren(element, depth + 1, childFlags);
      this.pending.pop();
      return;
    }
    if (!this.emit(this.render(element, role), depth)) {
      this.recordOmitted(element, role, depth);
      return;
    }
    if (this.options.focus && !flags.inWhole && !this.options.focus.renamed?.has(element)) this.contextLines.add(this.lines.length - 1);
    if (tail !== undefined) {
      this.emitTail(tail, depth + 1);
      return;
    }
    if (role === 'iframe') {
      this.frames.push({ line: this.lines.length - 1, id: localIdOf(element), depth: depth + 1 });
      return;
    }
    if (tag === 'select' && role === 'combobox') {
      this.listOptions(element as HTMLSelectElement, depth + 1);
      return;
    }
    if (tag === 'details' && !(element as HTMLDetailsElement).open) {
      const summary = element.querySelector(':scope > summary');
      if (summary) this.visitElement(summary, depth + 1, childFlags);
      return;
    }
    if (tag === 'input' || tag === 'textarea') return;
    // A rich-text field's whole text is its value, on its line: under it only what has a role (a heading, a link).
    // Not in a delta, where the text that changed under it (a word made bold) is the change.
    if (!this.options.focus && VALUE_ROLES.has(role) && (element as HTMLElement).isContentEditable && /\[value=/.test(this.lines.at(-1) ?? '') && !/\[cut\]$/.test(this.lines.at(-1) ?? '')) {
      childFlags.quiet = true;
    }
    // A drawn combobox's text is its value, already on its line: only the controls inside it are listed.
    // A row or cell named by an attribute (a calendar's "Week 50", "December 11") does not hold its text in that name:
    // its cells and events are listed under it.
    if ((NAME_FROM_CONTENT.has(role) && !(LABELLED_CONTAINERS.has(role) && namedByAttribute(element))) || role === 'combobox') {
      childFlags.quiet = true;
      childFlags.onlyControls = true;
    } else if (LABELLED_CONTAINERS.has(role)) {
      // Its text that the name says already (a day cell "December 27, 2026" showing "27") is not repeated.
      childFlags.echo = ` ${nameOf(element, role).toLowerCase()} `;
    }
    if (SIDE_LANDMARKS.has(role)) this.sawSide = true;
    if (this.options.sideShare && this.sideLimit === null && !this.options.focus && SIDE_LANDMARKS.has(role)) {
      this.visitSide(element, depth + 1, childFlags);
      return;
    }
    this.visitChildren(element, depth + 1, childFlags);
    this.flushText();
    this.flushSkipped(depth + 1);
  }

  /** A side landmark's children within its share; what did not fit is one counted line, not the page's cut. */
  private visitSide(element: Element, depth: number, flags: Flags): void {
    const omitted = this.omitted;
    const hints = this.hints.length;
    const hintDepth = this.hintDepth;
    this.sideLimit = this.chars + this.options.sideShare!;
    this.visitChildren(element, depth, flags);
    this.flushText();
    this.sideLimit = null;
    if (!this.sideFull) return;
    // The share ran out, not the budget: the walk goes on after this landmark, its leftovers counted here.
    const left = this.omitted - omitted;
    this.sideFull = false;
    this.full = false;
    this.omitted = omitted;
    this.hints.length = hints;
    this.hintDepth = hintDepth;
    const line = `- (${left} more ${left === 1 ? 'element' : 'elements'} in this ${roleOf(element)}; read_page with ref_id [ref=#${localIdOf(element)}] lists them)`;
    if (!this.emit(line, depth)) this.omitted += left;
  }

  /**
   * The options of a dropdown select, which render only in the browser's own popup: each with its ref (form_input
   * takes an option's ref with true), optgroups as groups, cut at the cap with a counted line.
   */
  private listOptions(select: HTMLSelectElement, depth: number): void {
    const total = select.options.length;
    const cap = total <= FEW_OPTIONS ? total : Math.min(total, this.options.selectOptions ?? 0);
    if (cap === 0) return;
    let shown = 0;
    let group: Element | null = null;
    for (const option of select.options) {
      if (shown >= cap || this.full) break;
      const parent = option.parentElement;
      const inGroup = parent instanceof HTMLOptGroupElement ? parent : null;
      if (inGroup && inGroup !== group) {
        group = inGroup;
        if (!this.emit(this.render(inGroup, 'group'), depth)) break;
      } else if (!inGroup) {
        group = null;
      }
      if (!this.emit(this.render(option, 'option'), inGroup ? depth + 1 : depth)) break;
      shown++;
    }
    if (shown < total && !this.full) {
      const more = `- (${total - shown} more options; form_input on the select takes any option's label or value)`;
      if (!this.emit(more, depth)) this.omitted += total - shown;
    }
  }

  /** Past the budget: count the rest of this child list, and name its first element with a role as a hint. */
  private skipRest(children: ArrayLike<Node>, from: number, depth: number): void {
    for (let i = from; i < children.length; i++) {
      const child = children[i]!;
      if (child.nodeType !== Node.ELEMENT_NODE) continue;
      const element = child as Element;
      if (SKIPPED_TAGS.has(element.localName)) continue;
      const role = depth < this.hintDepth ? roleOf(element) : null;
      if (role) this.recordOmitted(element, role, depth);
      else this.omitted++;
    }
  }

  /** The line of one element, without indentation. */
  render(element: Element, role: string): string {
    const limit = this.nameLimit;
    const name = nameOf(element, role, limit);
    const ref = PAGE_LANDMARKS.has(role) ? '' : ` [ref=#${localIdOf(element)}]`;
    let line = `- ${role}${name ? ` ${quote(name)}` : ''}${ref}${statesOf(element, role)}`;
    // An icon has no text to find it by: its box says where it is.
    if (ref && ICON_BOX_ROLES.has(role) && iconOnly(element)) line += boxOf(element);
    let cut = nameWasCut();
    if (VALUE_ROLES.has(role)) {
      const value = shownValue(element, role, this.options.aroundCaret);
      const valueLimit = this.options.wholeText ? this.options.maxChars : 120;
      const around = value && this.options.aroundCaret ? caretLines(element, value) : null;
      // Line breaks are shown as \n: a value must stay on its line.
      if (around) line += ` [value=${around.before ? '…' : ''}${quote(clip(around.text, valueLimit)).replace(/\n/g, '\\n')}${around.after ? '…' : ''}]`;
      else if (value) line += ` [value=${quote(clip(value, valueLimit)).replace(/\n/g, '\\n')}]`;
      if (value && (around?.text ?? value).length > valueLimit) cut = true;
      if (value && this.options.aroundCaret) line += selectionOf(element, value);
    }
    // A dropdown too long to list by default says how many options it has (read it by ref_id to list them).
    if (element.localName === 'select' && role === 'combobox') {
      const total = (element as HTMLSelectElement).options.length;
      if (total > FEW_OPTIONS) line += ` [options=${total}]`;
    }
    if (cut) {
      this.cut++;
      line += ' [cut]';
    }
    return line;
  }

  /** What is left of the budget for one long name or text run (whole-text mode), at least the usual cut. */
  private get room(): number {
    return Math.max(TEXT_LIMIT, this.options.maxChars - this.chars - 80);
  }

  private get nameLimit(): number {
    return this.options.wholeText ? this.room : NAME_LIMIT;
  }

  /** Adds a line if the budget allows; false when it does not (the walk is then full). */
  private emit(line: string, depth: number): boolean {
    for (const pending of this.pending) {
      if (pending.emitted) continue;
      if (!this.fits(pending.line, pending.depth)) return false;
      this.push(pending.line, pending.depth);
      pending.emitted = true;
    }
    if (!this.fits(line, depth)) return false;
    this.push(line, depth);
    return true;
  }

  private fits(line: string, depth: number): boolean {
    const cost = depth * 2 + line.length + 1 + (line.includes('[ref=#') ? REF_SLACK : 0);
    if (this.chars + cost <= Math.min(this.options.maxChars, this.sideLimit ?? Infinity)) return true;
    if (this.sideLimit !== null && this.chars + cost <= this.options.maxChars) this.sideFull = true;
    this.full = true;
    return false;
  }

  private push(line: string, depth: number): void {
    const text = `${'  '.repeat(depth)}${line}`;
    this.lines.push(text);
    this.chars += text.length + 1 + (line.includes('[ref=#') ? REF_SLACK : 0);
  }

  /** Ends a word at the edge of an inline box set apart, with the text a style sheet draws there. */
  private addApart(element: Element, drawn: string, depth: number): void {
    if (!drawn) {
      if (this.text) this.text += ' ';
      return;
    }
    if (this.text && this.textDepth !== depth) this.flushText();
    if (!this.text) this.textOwner = element;
    this.text += ` ${drawn} `;
    this.textDepth = depth;
  }

  private flushText(): void {
    if (!this.text) return;
    const text = squash(this.text);
    const owner = this.textOwner;
    this.text = '';
    this.textOwner = null;
    if (!text || this.full) return;
    if (this.options.depth !== undefined && this.textDepth > this.options.depth) return;
    const limit = this.options.wholeText ? this.room : TEXT_LIMIT;
    let line = `- text: ${defang(clip(text, limit))}`;
    // A cut run says so, with the ref of the element that holds it: read_page with it gives the whole text.
    if (text.length > limit) {
      this.cut++;
      line += owner ? ` [ref=#${localIdOf(owner)}] [cut]` : ' [cut]';
    }
    const short = text.length <= SHORT_RUN && line.length === `- text: ${text}`.length;
    if (short && this.joinShortRun(text, owner)) return;
    if (!this.emit(line, this.textDepth)) this.omitted++;
    this.shortRunLine = short ? this.lines.length - 1 : -1;
    this.shortRunOwner = owner;
  }

  /**
   * Short runs one after another at one depth (a calendar's day numbers, a chart's labels, tags) share one line:
   * `- text: 06 07 08 …`, not a line each. False when the last line is not such a run or the joined one would be long.
   */
  private joinShortRun(text: string, owner: Element | null): boolean {
    const index = this.lines.length - 1;
    if (this.shortRunLine !== index || this.pending.some((pending) => !pending.emitted) || !alike(owner, this.shortRunOwner)) return false;
    const last = this.lines[index]!;
    if (!last.startsWith(`${'  '.repeat(this.textDepth)}- text: `) || last.length + text.length + 1 > TEXT_LIMIT + this.textDepth * 2 + 8) return false;
    if (this.chars + text.length + 1 > this.options.maxChars) return false;
    this.lines[index] = `${last} ${text}`;
    this.chars += text.length + 1;
    return true;
  }

  private recordOmitted(element: Element, role: string, depth: number): void {
    this.omitted++;
    if (depth < this.hintDepth && this.hints.length < 6) {
      this.hintDepth = depth;
      this.hints.push({ id: localIdOf(element), role, name: clip(nameOf(element, role), 40), continues: COLLECTION_ITEMS.has(role) });
    }
  }
}
