// Key names, modifiers and chords as agents write them, mapped to WebDriver key values (the \uE0xx code points).
import { ToolError } from '../../../errors.js';

export type Modifier = 'ctrl' | 'shift' | 'alt' | 'meta';

/** Made once: a new Intl.Segmenter costs ~0.2 ms, more than splitting a typical text. */
export const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** WebDriver values of the left-hand modifier keys. */
export const MODIFIER_VALUES: Record<Modifier, string> = {
  ctrl: '\uE009',
  shift: '\uE008',
  alt: '\uE00A',
  meta: '\uE03D',
};

/** Every spelling of a modifier; "cmd" and "win" are the Meta key (on Linux as elsewhere). */
const MODIFIER_NAMES: Record<string, Modifier> = {
  ctrl: 'ctrl',
  control: 'ctrl',
  shift: 'shift',
  alt: 'alt',
  option: 'alt',
  cmd: 'meta',
  command: 'meta',
  meta: 'meta',
  win: 'meta',
  windows: 'meta',
  super: 'meta',
};

/** Named keys; lookups are case-insensitive and ignore "_" (so xdotool's "Page_Down" works too). */
const NAMED_KEYS: Record<string, string> = {
  enter: '\uE007',
  return: '\uE007',
  tab: '\uE004',
  escape: '\uE00C',
  esc: '\uE00C',
  backspace: '\uE003',
  delete: '\uE017',
  del: '\uE017',
  insert: '\uE016',
  arrowup: '\uE013',
  up: '\uE013',
  arrowdown: '\uE015',
  down: '\uE015',
  arrowleft: '\uE012',
  left: '\uE012',
  arrowright: '\uE014',
  right: '\uE014',
  home: '\uE011',
  end: '\uE010',
  pageup: '\uE00E',
  pgup: '\uE00E',
  pagedown: '\uE00F',
  pgdn: '\uE00F',
  space: '\uE00D',
  spacebar: '\uE00D',
  pause: '\uE00B',
  plus: '+',
  minus: '-',
  equal: '=',
  equals: '=',
};
for (let n = 1; n <= 12; n++) NAMED_KEYS[`f${n}`] = String.fromCharCode(0xe031 + n - 1);

/** Numpad keys that zoom with ctrl held, besides "+", "-", "=" and "0". */
const ZOOM_KEYS = new Set(['+', '-', '=', '0', '_', '\uE025', '\uE027', '\uE01A']);

export interface Chord {
  /** As written, for messages. */
  text: string;
  modifiers: Modifier[];
  /** The WebDriver value of the main key, or null for a modifier pressed alone ("shift"). */
  key: string | null;
}

/** Keys whose default action scrolls the document (with no modifier but shift), when no field has focus. */
const SCROLLING_KEYS = new Set(['\uE00D', ' ', '\uE00E', '\uE00F', '\uE010', '\uE011', '\uE012', '\uE013', '\uE014', '\uE015']);

/** Whether any of `chords` may scroll the document by its default action. */
export function mayScroll(chords: Chord[]): boolean {
  return chords.some((chord) => chord.key !== null && SCROLLING_KEYS.has(chord.key) && chord.modifiers.every((modifier) => modifier === 'shift'));
}

export function modifierFromName(name: string): Modifier | undefined {
  return MODIFIER_NAMES[name.toLowerCase()];
}

/** "ctrl+shift" → ['ctrl', 'shift'] (deduplicated, in order). */
export function parseModifiers(spec: string | undefined, field = 'modifiers'): Modifier[] {
  if (!spec) return [];
  const out: Modifier[] = [];
  for (const part of spec.split('+')) {
    const modifier = modifierFromName(part.trim());
    if (!modifier) throw new ToolError('invalid_arguments', `${field}: "${part}" is not a modifier (use ctrl, shift, alt, cmd/meta, win).`, { field });
    if (!out.includes(modifier)) out.push(modifier);
  }
  return out;
}

/** The WebDriver value of one key name, or undefined. Single characters stand for themselves. */
export function keyValue(name: string): string | undefined {
  if ([...name].length === 1) return name;
  if (GRAPHEMES.segment(name)[Symbol.iterator]().next().value?.segment === name) return name;
  return NAMED_KEYS[name.toLowerCase().replace(/_/g, '')];
}

/** One chord such as "ctrl+a", "ctrl++", "shift+Tab", "Enter" or "shift". */
export function parseChord(text: string): Chord {
  let parts: string[];
  if (text === '+') parts = ['+'];
  else if (text.endsWith('++')) parts = [...text.slice(0, -2).split('+'), '+'];
  else parts = text.split('+');
  if (parts.some((part) => part === '')) throw new ToolError('invalid_arguments', `text: "${text}" is not a key or chord.`, { field: 'text' });
  const last = parts[parts.length - 1]!;
  const modifiers = parseModifiers(parts.slice(0, -1).join('+') || undefined, 'text');
  const lastModifier = parts.length === 1 ? modifierFromName(last) : undefined;
  if (lastModifier) return { text, modifiers: [lastModifier], key: null };
  const key = keyValue(last);
  if (key === undefined) {
    throw new ToolError(
      'invalid_arguments',
      `text: "${last}" is not a key name. Use a single character or one of Enter, Tab, Escape, Backspace, Delete, ArrowUp/Down/Left/Right, Home, End, PageUp, PageDown, Space, F1-F12.`,
      { field: 'text' },
    );
  }
  return { text, modifiers, key };
}

/** "ArrowDown ArrowDown Enter" → chords; zoom chords are refused because the agent could not see the new scale. */
export function parseKeySequence(text: string): Chord[] {
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  if (tokens.length === 0) throw new ToolError('invalid_arguments', 'text: name at least one key, e.g. "Enter" or "ctrl+a".', { field: 'text' });
  const chords = tokens.map(parseChord);
  for (const chord of chords) {
    const zooms = chord.key !== null && ZOOM_KEYS.has(chord.key) && (chord.modifiers.includes('ctrl') || chord.modifiers.includes('meta'));
    if (zooms) {
      throw new ToolError(
        'invalid_arguments',
        `text: "${chord.text}" would change the page zoom, which screenshots and coordinates would not show; nothing was pressed. Use the zoom action to look closer.`,
        { field: 'text' },
      );
    }
  }
  return chords;
}
