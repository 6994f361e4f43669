// Waiting for the page: until its DOM has been quiet for a while with no transition or finite animation running
// (navigate's settle), or until a text or an element appears or goes away (wait_for). Mutation observers drive
// the checks; timers only back them up (Firefox clamps timers in background tabs to one a second).
import type { QuietArgs, QuietReport, WaitForArgs, WaitForReport } from '../contract/index.js';
import { ACTIVITY_PROBE, type PageActivity } from '../contract/page-activity.js';
import { composedChildren, shadowRootsIn } from './composed.js';
import { squash } from './names.js';
import { elementFor } from './registry.js';
import { renders } from './snapshot-walk.js';

const OBSERVE: MutationObserverInit = { childList: true, subtree: true, attributes: true, characterData: true };

/**
 * Transitions and animations that will end by themselves (an endless spinner never does, so it is not waited for)
 * and change more than paint: a focus ring's colour or shadow changes nothing a snapshot shows.
 */
export function runningAnimations(roots: readonly (Document | ShadowRoot)[] = [document, ...shadowRootsIn(document, 200)]): Animation[] {
  if (typeof document.getAnimations !== 'function') return [];
  // Web components animate inside their shadow roots (a dropdown's panel, a dialog's overlay).
  const all = roots.flatMap((root) => root.getAnimations());
  return [...new Set(all)].filter((animation) => {
    if (animation.playState !== 'running') return false;
    const timing = animation.effect?.getComputedTiming();
    return timing !== undefined && Number.isFinite(timing.endTime as number) && timing.iterations !== Infinity && !paintOnly(animation);
  });
}

/**
 * Properties that change only how things are painted, never what is shown, where, or whether: colours, shadows,
 * outlines, filters. Opacity is not one of them: a fade ends with the element hidden or shown.
 */
const PAINT_ONLY =
  /^(color|background(-color|-image|-position|-size)?|border(-(top|right|bottom|left|block|inline)(-(start|end))?)?-color|outline(-color|-offset|-width|-style)?|box-shadow|text-shadow|text-decoration-color|caret-color|accent-color|column-rule-color|fill|stroke|filter|backdrop-filter)$/;
const NOT_PROPERTIES = new Set(['offset', 'computedOffset', 'easing', 'composite']);

function paintOnly(animation: Animation): boolean {
  if (animation instanceof CSSTransition) return PAINT_ONLY.test(animation.transitionProperty);
  const effect = animation.effect;
  if (!(effect instanceof KeyframeEffect)) return false;
  const properties = new Set<string>();
  for (const frame of effect.getKeyframes()) {
    for (const key of Object.keys(frame)) if (!NOT_PROPERTIES.has(key)) properties.add(key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`));
  }
  return properties.size > 0 && [...properties].every((property) => PAINT_ONLY.test(property));
}

/** Watches the document and its open shadow roots; returns a stop function. */
function observe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document, OBSERVE);
  for (const shadow of shadowRootsIn(document, 200)) observer.observe(shadow, OBSERVE);
  return () => observer.disconnect();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => window.setTimeout(resolve, ms));
}

/** What marks a page as still loading: aria-busy, or an element named as a loading bar or spinner. */
const LOADING = '[aria-busy="true"], [id*="loading" i], [class*="loading" i], [class*="spinner" i]';

function holdsContent(element: Element): boolean {
  return (element.textContent?.length ?? 0) > 200 || element.querySelector('input, select, textarea, button, a[href], table, [role="row"]') !== null;
}

/**
 * A loading indicator the page shows (pdf.js's #loadingBar while its worker compiles and parses, an app's
 * spinner), as tag#id.class; null when none is shown. Only the first few candidates are looked at.
 */
export function loadingIndicator(): string | null {
  const candidates = document.querySelectorAll(LOADING);
  for (let i = 0; i < candidates.length && i < 20; i++) {
    const element = candidates[i]!;
    // "lazy-loading", "loaded", "no-loading": only a name that says it is loading counts.
    const names = `${element.id} ${element.getAttribute('class') ?? ''}`;
    if (element.getAttribute('aria-busy') !== 'true' && !/(^|[\s_-])(loading|spinner)([\s_-]|bar|indicator|$)/i.test(names)) continue;
    // A wrapper that kept a loading class while it shows the content (simple-datatables leaves 'datatable-loading'
    // on its table's wrapper for good) is no indicator: an indicator holds no controls, no table and little text.
    if (element.getAttribute('aria-busy') !== 'true' && holdsContent(element)) continue;
    if (!renders(element)) continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const classes = (element.getAttribute('class') ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 2);
    return `${element.localName}${element.id ? `#${element.id}` : ''}${classes.map((name) => `.${name}`).join('')}`;
  }
  return null;
}

/**
 * Changes since the document began (the bundle runs as a preload script): a page no script has touched since it was
 * parsed settles on a shorter window than one still being rendered. The observer stops a few seconds after load,
 * once navigate has looked, so busy pages do not pay for it all their life.
 */
interface ChangeClock {
  /** performance.now() of the newest change. */
  last: number;
  /** Whether a script changed the document after it was parsed. */
  scripted: boolean;
}
const sinceStart: ChangeClock = { last: performance.now(), scripted: false };
const AFTER_LOAD_MS = 10_000;
/** Set when DOMContentLoaded fires: the parser's own insertions are reported before it, script changes after. */
let parsed = typeof document === 'undefined' || document.readyState !== 'loading';

function noteChange(clock: ChangeClock): void {
  clock.last = performance.now();
  if (parsed) clock.scripted = true;
}

function trackFromStart(): void {
  if (typeof document === 'undefined' || typeof MutationObserver === 'undefined') return;
  const observer = new MutationObserver(() => noteChange(sinceStart));
  observer.observe(document, OBSERVE);
  if (!parsed) document.addEventListener('DOMContentLoaded', () => (parsed = true), { once: true, capture: true });
  const stopLater = (): void => void window.setTimeout(() => observer.disconnect(), AFTER_LOAD_MS);
  if (document.readyState === 'complete') stopLater();
  else window.addEventListener('load', stopLater, { once: true });
}
trackFromStart();

let completeWithoutLoadSince: number | undefined;
const LOAD_EVENT_GRACE_MS = 300;

/**
 * When the load event's handlers ended (performance.now() clock); Infinity while they run, 0 without timing. A
 * document complete whose load event has not begun is given a moment for it, then counts as loaded: its load was
 * stopped (a page that navigates itself as it loads, to a URL Firefox then refuses, never fires it).
 */
function loadEnd(): number {
  const entry = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  if (!entry) return 0;
  if (entry.loadEventEnd > 0) return entry.loadEventEnd;
  if (document.readyState !== 'complete') return 0;
  if (entry.loadEventStart > 0) return Infinity;
  completeWithoutLoadSince ??= performance.now();
  return completeWithoutLoadSince + LOAD_EVENT_GRACE_MS;
}

/** Whether an element of the page (its open shadow roots too) is a custom element still waiting for its definition. */
function undefinedElements(roots: readonly (Document | ShadowRoot)[]): boolean {
  return roots.some((root) => root.querySelector(':not(:defined)') !== null);
}

/**
 * How long the DOM must have been unchanged, ms: the full quietMs while a custom element still waits for its
 * definition (its module may be a script still running or a timer away), or while the page has something scheduled
 * that may change it (see nothingScheduled); else the short parsed window for a document no script changed since
 * parsing, and the fast window for one a script changed. Where the page's activity cannot be read, the windows are
 * those of a page with nothing scheduled but a changed document waits quietMs.
 */
function quietWindow(clock: ChangeClock, args: QuietArgs, roots: readonly (Document | ShadowRoot)[], quietFor: number): number {
  if (undefinedElements(roots)) return args.quietMs;
  const activity = args.fastQuietMs === undefined ? null : pageActivity();
  if (activity && !nothingScheduled(activity, args, args.quietMs - quietFor)) return args.quietMs;
  if (!clock.scripted) return Math.min(args.quietMs, args.parsedQuietMs);
  return activity ? Math.min(args.quietMs, args.fastQuietMs!) : args.quietMs;
}

/**
 * What the page's realm has scheduled and not yet run (src/page/main-realm.ts), through the sandbox's Xray
 * waiver; null when it cannot be read (a document that predates the preload, a page that broke it).
 */
function pageActivity(): PageActivity | null {
  try {
    const probe = (window as unknown as { wrappedJSObject?: Record<string, unknown> }).wrappedJSObject?.[ACTIVITY_PROBE];
    const text: unknown = typeof probe === 'function' ? (probe as () => unknown)() : null;
    return typeof text === 'string' ? (JSON.parse(text) as PageActivity) : null;
  } catch {
    return null;
  }
}

/**
 * Whether the page has nothing scheduled that could change it before the full window would end (`leftMs` from now):
 * no timer due by then, no frame or idle callback waiting, no fetch unanswered, no message a scheduler posted just
 * now. Such a page needs only the short window: what the full one would read is what it shows already. Without
 * this, every page paid the full window (docs/benchmark.md, session 23).
 */
function nothingScheduled(activity: PageActivity, args: QuietArgs, leftMs: number): boolean {
  const timerSoon = activity.timerDueMs !== null && activity.timerDueMs <= leftMs;
  return !timerSoon && activity.frames === 0 && activity.idle === 0 && activity.requests === 0 && activity.sinceTaskMs >= Math.min(args.fastQuietMs ?? args.quietMs, args.parsedQuietMs);
}

/**
 * Resolves once the DOM has been unchanged for its window (quietWindow; the short fast window when the page has
 * nothing scheduled), no finite animation runs, no web font is loading and no loading indicator is shown, or after
 * maxMs.
 */
export async function waitQuiet(args: QuietArgs): Promise<QuietReport> {
  const started = performance.now();
  const seen: ChangeClock = { ...sinceStart };
  const stop = observe(() => noteChange(seen));
  try {
    for (;;) {
      const now = performance.now();
      const roots = [document, ...shadowRootsIn(document, 200)];
      const animations = runningAnimations(roots);
      const fontsLoading = document.fonts?.status === 'loading';
      // An unchanged document counts its quiet from the end of its load event too: a fetch started by a load
      // handler must have the time to reach the network log before "no request in flight" is believed.
      const since = Math.max(seen.last, loadEnd(), args.fromNow ? started : 0);
      const window_ = quietWindow(seen, args, roots, now - since);
      const quiet = now - since >= window_ && animations.length === 0 && !fontsLoading;
      const indicator = quiet ? loadingIndicator() : null;
      if (quiet && !indicator) return { quiet: true, waitedMs: Math.round(now - started) };
      if (now - started >= args.maxMs) {
        if (indicator) return { quiet: false, waitedMs: Math.round(now - started), busy: 'loading', indicator };
        return { quiet: false, waitedMs: Math.round(now - started), busy: animations.length ? 'animations' : fontsLoading ? 'fonts' : 'dom' };
      }
      await sleep(Math.max(5, Math.min(window_ - (now - since), 25)));
    }
  } finally {
    stop();
  }
}

/** The shown text of the document, shadow roots included, spaces collapsed. */
function shownText(): string {
  const parts: string[] = [];
  const walk = (node: Node): void => {
    if (node.nodeType === Node.TEXT_NODE) {
      parts.push(node.nodeValue ?? '');
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const element = node as Element;
    if (['script', 'style', 'template', 'noscript', 'head'].includes(element.localName) || !renders(element)) return;
    parts.push(' ');
    const children = composedChildren(element);
    for (let i = 0; i < children.length; i++) walk(children[i]!);
  };
  if (document.body) walk(document.body);
  return squash(parts.join('')).toLowerCase();
}

function elementShown(ref: { docId: string; id: number }): boolean {
  try {
    const element = elementFor(ref.docId, ref.id);
    return element.isConnected && renders(element);
  } catch {
    return false;
  }
}

/** The waits of waitFor under way in this document, each ended (not met) by cancelWaits. */
const pendingWaits = new Set<() => void>();

/** Ends every waitFor of this document at once, as not met: its call was cancelled. */
export function cancelWaits(): { cancelled: number } {
  const count = pendingWaits.size;
  for (const finish of [...pendingWaits]) finish();
  return { cancelled: count };
}

/** Waits until `text` (case-insensitive, spaces collapsed) or the ref's element is shown, or gone, within timeoutMs. */
export async function waitFor(args: WaitForArgs): Promise<WaitForReport> {
  const started = performance.now();
  const wanted = args.text ? squash(args.text).toLowerCase() : '';
  const check = (): boolean => {
    const present = args.ref ? elementShown(args.ref) : shownText().includes(wanted);
    return args.gone ? !present : present;
  };
  if (check()) return { met: true, waitedMs: 0 };
  return new Promise((resolve) => {
    let pending = false;
    let done = false;
    const finish = (met: boolean) => {
      if (done) return;
      done = true;
      pendingWaits.delete(cancel);
      stop();
      window.clearInterval(timer);
      resolve({ met, waitedMs: Math.round(performance.now() - started) });
    };
    // Checks at most once per 50 ms, however many mutations a render makes: reading the text walks the page.
    let lastCheck = 0;
    const schedule = () => {
      if (pending || done) return;
      pending = true;
      const run = () => {
        pending = false;
        lastCheck = performance.now();
        if (check()) finish(true);
      };
      const since = performance.now() - lastCheck;
      if (since >= 50) queueMicrotask(run);
      else window.setTimeout(run, 50 - since);
    };
    const cancel = () => finish(false);
    pendingWaits.add(cancel);
    const stop = observe(schedule);
    const timer = window.setInterval(() => {
      if (check()) finish(true);
      else if (performance.now() - started >= args.timeoutMs) finish(false);
    }, 100);
    window.setTimeout(() => finish(check()), args.timeoutMs);
  });
}
