// How one query word matches a text in find: numbers as whole numbers ("42" is not in "426"), code-like words
// ("json.dumps(", "cls=None", "sys.getrecursionlimit()") literally or, failing that, by their letter-and-digit
// runs in order with any punctuation or space between (text split over many spans reads that way), plain words
// as substrings.

export interface QueryWord {
  /** The word as typed, lower-cased. */
  raw: string;
  /** Its runs of letters, digits and underscores: what the native pre-scan looks for. */
  tokens: string[];
  kind: 'number' | 'code' | 'plain';
  /** Whole-number or loose (punctuation-tolerant) pattern; null for plain words. */
  pattern: RegExp | null;
}

const TOKEN = /[\p{L}\p{N}_]+/gu;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Roles people write as two words ("column header", "menu item"): joined, they match the role. */
const SPLIT_ROLES = /\b(column|row|menu|tab|list|check|text|combo|search|spin|grid|tree|progress|scroll|radio|tool)\s+(header|item|panel|box|button|cell|bar|group|list)\b/g;
const ROLE_WORDS = new Set(['columnheader', 'rowheader', 'menuitem', 'tabpanel', 'listitem', 'checkbox', 'textbox', 'combobox', 'searchbox', 'spinbutton', 'gridcell', 'treeitem', 'progressbar', 'scrollbar', 'radiogroup', 'toolbar', 'menubar', 'listbox', 'tablist']);

export function parseQuery(query: string): QueryWord[] {
  return query
    .toLowerCase()
    .replace(SPLIT_ROLES, (pair: string, first: string, second: string) => (ROLE_WORDS.has(first + second) ? first + second : pair))
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 12)
    .map((raw) => {
      const tokens = raw.match(TOKEN) ?? [];
      if (/^\d+$/.test(raw)) return { raw, tokens, kind: 'number', pattern: new RegExp(`(?<!\\d)${raw}(?!\\d)`) };
      if (tokens.length && tokens.join('') !== raw) {
        return { raw, tokens, kind: 'code', pattern: new RegExp(tokens.map(escape).join('[^\\p{L}\\p{N}_]*'), 'u') };
      }
      return { raw, tokens: tokens.length ? tokens : [raw], kind: 'plain', pattern: null };
    });
}

/** Words to look for natively: a word's tokens (a code word's longest one stands for it). */
export function scanWords(words: QueryWord[]): string[] {
  const out = new Set<string>();
  for (const word of words) {
    if (word.kind === 'code') out.add([...word.tokens].sort((a, b) => b.length - a.length)[0]!);
    else out.add(word.kind === 'number' ? word.raw : word.tokens[0]!);
  }
  return [...out];
}

/** 2: the word as typed; 1: a loose match (code tokens in order); 0: none. */
export function matchIn(text: string, word: QueryWord): 0 | 1 | 2 {
  if (!text) return 0;
  if (word.kind === 'number') return word.pattern!.test(text) ? 2 : 0;
  if (text.includes(word.raw)) return 2;
  return word.kind === 'code' && word.pattern!.test(text) ? 1 : 0;
}

/** Some of a code word's tokens are in the text, though not all in order: worth showing as a partial match. */
export function tokensIn(text: string, word: QueryWord): boolean {
  return word.kind === 'code' && word.tokens.some((token) => text.includes(token));
}

/** About `width` characters of `text` around the first place `word` matches, for a match whose name lacks it. */
export function excerptAround(text: string, word: QueryWord, width = 90): string {
  let at = text.toLowerCase().indexOf(word.raw);
  if (at < 0 && word.pattern) at = text.toLowerCase().search(word.pattern);
  if (at < 0) return '';
  const from = Math.max(0, at - Math.floor(width / 3));
  const to = Math.min(text.length, from + width);
  return `${from > 0 ? '…' : ''}${text.slice(from, to)}${to < text.length ? '…' : ''}`;
}
