// --confirm-actions: which acting calls wait for a person's yes before anything is dispatched (docs/watching.md, "Ask
// before acting"). Pure: what a call is about to do comes in as facts (src/tools/confirm.ts reads them off the page
// without acting), the kinds it matches go out. Unit-tested on its own (test/unit/confirm-policy.test.mjs).
import { originMatches } from '../browser/launch/index.js';
import type { ActionTarget } from '../contract/index.js';
import { ToolError } from '../errors.js';
import { closest } from '../suggest.js';

export const CONFIRM_KINDS = ['submit', 'purchase', 'download', 'upload', 'navigate-away', 'all'] as const;
export type ConfirmKind = (typeof CONFIRM_KINDS)[number];

export interface ConfirmPolicy {
  kinds: ReadonlySet<ConfirmKind>;
  /** --confirm-origins: only calls on (or navigating to) these origins are asked about; empty: every origin. */
  origins: readonly string[];
}

/** The --confirm-actions list as kinds; an unknown one is refused, naming the nearest. */
export function parseConfirmKinds(list: readonly string[]): ConfirmKind[] {
  const kinds: ConfirmKind[] = [];
  for (const raw of list) {
    const value = raw.trim().toLowerCase();
    if ((CONFIRM_KINDS as readonly string[]).includes(value)) {
      kinds.push(value as ConfirmKind);
      continue;
    }
    const suggestion = closest(value, [...CONFIRM_KINDS]);
    throw new ToolError('invalid_arguments', `--confirm-actions: no kind "${raw}".${suggestion ? ` Did you mean "${suggestion}"?` : ''} Known: ${CONFIRM_KINDS.join(', ')}.`, {
      field: 'confirm-actions',
    });
  }
  return kinds;
}

/** The policy of these options; null when --confirm-actions is not set (then nothing is read or asked). */
export function confirmPolicy(options: { confirmActions: readonly string[]; confirmOrigins: readonly string[] }): ConfirmPolicy | null {
  if (options.confirmActions.length === 0) return null;
  return { kinds: new Set(parseConfirmKinds(options.confirmActions)), origins: options.confirmOrigins };
}

/** What the control a click or key would activate is, as far as the policy reads it. */
export type TargetFacts = Pick<ActionTarget, 'role' | 'name' | 'submits' | 'enterSubmits' | 'download' | 'frame'> & { href?: string; submitter?: string };

/** An acting call as known before it is dispatched. */
export interface PlannedAction {
  /** The page the call acts on (the tab's URL); absent for session tools. */
  pageUrl?: string;
  /** The control a click activates (null: nothing there to read). */
  click?: TargetFacts | null;
  /** Keys pressed where focus is (or in a ref's field): Enter, or Space, which activates a focused button. */
  keys?: { target: TargetFacts | null; enter: boolean; space: boolean };
  /** Files put into a file input. */
  upload?: boolean;
  /** The absolute URL a navigation loads. */
  toUrl?: string;
}

/** Words of a control that pays or orders, case-insensitive, whole words only ("Display" is no "pay"). */
export const PURCHASE_WORDS = /\b(buy|purchase|pay|payment|order|checkout|check\s*out|place\s+order|confirm\s+payment|complete\s+purchase|subscribe|donate)\b/i;

/** Paths that name a file rather than a page: a click on a link to one starts a download in most sites. */
const FILE_LIKE = /\.(zip|gz|tgz|bz2|xz|7z|rar|tar|exe|msi|dmg|pkg|deb|rpm|apk|appimage|iso|img|bin|jar|pdf|csv|xlsx?|docx?|pptx?|odt|ods|odp|mp3|mp4|mov|avi|mkv|wav|torrent)$/i;

/** Two-letter country domains sell names one level down under these (example.co.uk): a short stand-in for the public suffix list. */
const SECOND_LEVEL = new Set(['co', 'com', 'net', 'org', 'gov', 'edu', 'ac', 'or', 'ne', 'go', 'gv', 'ltd', 'plc', 'nic', 'mil', 'sch']);

/** The site of a host: an IP address or single label as it is, else the registrable domain (approximately: see SECOND_LEVEL). */
export function registrableDomain(host: string): string {
  const name = host.toLowerCase().replace(/\.+$/, '');
  if (name.startsWith('[') || /^\d+(\.\d+){3}$/.test(name)) return name;
  const labels = name.split('.');
  if (labels.length <= 2) return name;
  const tld = labels[labels.length - 1]!;
  const second = labels[labels.length - 2]!;
  const take = tld.length === 2 && SECOND_LEVEL.has(second) ? 3 : 2;
  return labels.slice(-take).join('.');
}

function webUrl(href: string | undefined): URL | null {
  if (!href) return null;
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** A move from a web page to a web page of another site; from a blank or data: page there is no site to leave. */
export function leavesSite(fromUrl: string | undefined, toUrl: string | undefined): boolean {
  const from = webUrl(fromUrl);
  const to = webUrl(toUrl);
  return from !== null && to !== null && registrableDomain(from.hostname) !== registrableDomain(to.hostname);
}

export function isFileLikeUrl(href: string | undefined): boolean {
  const url = webUrl(href);
  return url !== null && FILE_LIKE.test(url.pathname);
}

function inOrigins(policy: ConfirmPolicy, planned: PlannedAction): boolean {
  if (policy.origins.length === 0) return true;
  const urls = [planned.pageUrl, planned.toUrl, planned.click?.href].map(webUrl).filter((url): url is URL => url !== null);
  return urls.some((url) => policy.origins.some((pattern) => originMatches(url, pattern)));
}

/** The kinds of the policy an acting call matches (empty: it goes on without asking). */
export function matchedKinds(policy: ConfirmPolicy, planned: PlannedAction): ConfirmKind[] {
  if (!inOrigins(policy, planned)) return [];
  const { click, keys } = planned;
  const enter = keys?.enter ?? false;
  const space = keys?.space ?? false;
  const keyed = keys?.target ?? null;
  // What Enter or Space would activate: a focused control takes both (a link Enter only), a field in a form submits it on Enter.
  const pressesControl = keyed !== null && (enter || space) && isControl(keyed);
  // Enter in a field submits its form through the form's submit button: that button's name is what is paid for.
  const keyedNames = keyed === null ? [] : [...(pressesControl ? [keyed.name] : []), ...(enter && keyed.enterSubmits && keyed.submitter ? [keyed.submitter] : [])];
  // The links a click or an Enter would follow.
  const links = [click?.href, enter ? keyed?.href : undefined].filter((href): href is string => href !== undefined);
  // A frame's inside is not read: every kind a click or key could be is assumed.
  const unread = Boolean(click?.frame) || ((enter || space) && Boolean(keyed?.frame));
  const found = new Set<ConfirmKind>();
  if (unread) for (const kind of ['submit', 'purchase', 'download'] as const) found.add(kind);
  if (click?.submits || (enter && keyed?.enterSubmits) || (space && keyed?.submits)) found.add('submit');
  if ((click && PURCHASE_WORDS.test(click.name)) || keyedNames.some((name) => PURCHASE_WORDS.test(name))) found.add('purchase');
  if (click?.download || (enter && keyed?.download) || links.some((href) => isFileLikeUrl(href))) found.add('download');
  if (planned.upload) found.add('upload');
  if (leavesSite(planned.pageUrl, planned.toUrl) || links.some((href) => leavesSite(planned.pageUrl, href))) found.add('navigate-away');
  found.add('all');
  return CONFIRM_KINDS.filter((kind) => found.has(kind) && policy.kinds.has(kind));
}

function isControl(target: TargetFacts): boolean {
  return ['button', 'link', 'menuitem', 'tab', 'option', 'checkbox', 'radio', 'switch'].includes(target.role);
}
