// How long a delta waits before it is read: until what the action set off has run (renders in later tasks and
// timers, work continuing in slices) and the transitions it started have ended, within bounds.
import { runningAnimations } from './settle.js';

/** What settling watches: the mutation records of the action so far (they grow while we wait). */
interface Recording {
  readonly records: MutationRecord[];
}

export interface SettleArgs {
  /** Longest wait for the page to go quiet after the action, ms. */
  settleMs: number;
  /** Longest wait, all told, for transitions and animations the action set off to end, ms. */
  animationMs?: number;
  /** Wait this long for a first change when the action made none yet (a tooltip shown after a hover delay), ms. */
  lingerMs?: number;
  /** Keyboard input: its change is a field's value (no mutation), so no frame is waited for a first change. */
  focusedField?: boolean;
}

/**
 * One task turn through a message channel. Not setTimeout: Firefox clamps timers in background tabs (every tab
 * the server opens is one) to a second, which made every delta cost a second.
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** A task turn slower than this means the page had work queued ahead of ours (a render yielding in slices). */
const BUSY_TURN_MS = 3;

/** A timer turn (setTimeout 0 renders); skipped in a hidden document, where Firefox clamps timers to a second. */
function timerTurn(): Promise<void> {
  return document.hidden ? Promise.resolve() : new Promise((resolve) => window.setTimeout(resolve, 0));
}

/**
 * Lets what the action scheduled run before the delta is read: renders queued in a microtask have run already,
 * those posted to the next task (React's scheduler uses a MessageChannel) or a 0 ms timer run before our own turn.
 * Then more turns while the last one brought mutations or ran long (work continuing in slices), up to settleMs.
 */
async function settle(current: Recording, settleMs: number): Promise<void> {
  const started = performance.now();
  let count = current.records.length;
  let turnStarted = started;
  await Promise.all([nextTask(), timerTurn()]);
  while (current.records.length !== count || performance.now() - turnStarted >= BUSY_TURN_MS) {
    if (performance.now() - started >= settleMs) return;
    count = current.records.length;
    turnStarted = performance.now();
    await nextTask();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => window.setTimeout(resolve, ms));
}

/** The next animation frame, when transitions set off by the action start (none run in a hidden document). */
function nextFrame(): Promise<void> {
  if (document.hidden) return Promise.resolve();
  return Promise.race([new Promise<void>((resolve) => window.requestAnimationFrame(() => resolve())), sleep(50)]);
}

/** A change this large re-rendered something: its transitions start on the next frame, so wait one. */
const RERENDER_RECORDS = 10;
/** Most animation frames followed while each one changes the page. */
const RENDER_FRAMES_MAX = 20;

/**
 * settle(), then, when the action changed something, the transitions and finite animations it set off (a dialog
 * fading out, grid rows sliding into their sorted places) and what the page does once they end, within
 * animationMs. Returns what was still moving when that bound ran out.
 */
export async function settleAll(current: Recording, args: SettleArgs, seen = 0, arrival: (record: MutationRecord) => boolean = () => true): Promise<string | undefined> {
  const started = performance.now();
  // `seen`: records an earlier read of the same watch already had; the linger waits for one beyond them that
  // brought something (`arrival`): the last hover's tooltip leaving is not the new one's coming.
  if (args.lingerMs && !document.hidden) {
    const until = started + args.lingerMs;
    let checked = seen;
    const arrived = (): boolean => {
      for (; checked < current.records.length; checked++) if (arrival(current.records[checked]!)) return true;
      return false;
    };
    while (!arrived() && performance.now() < until) await sleep(Math.min(25, until - performance.now()));
  }
  await settle(current, args.settleMs);
  // A page that answers a click in its next animation frame (a render scheduled with requestAnimationFrame) has
  // changed nothing yet: one frame before "no change" is believed. Not for keys, which change values, unseen here.
  if (!args.focusedField && current.records.length === seen && !document.hidden) {
    await nextFrame();
    await settle(current, args.settleMs);
  }
  const bound = args.animationMs ?? 0;
  if (!bound || current.records.length === 0) return undefined;
  // Renders driven by animation frames (a virtual grid drawing the rows a scroll brought into view, a few per
  // frame) go on frame after frame: follow them while each frame brings changes, within the bound.
  if (current.records.length >= RERENDER_RECORDS) {
    for (let frames = 0; frames < RENDER_FRAMES_MAX && performance.now() - started < bound; frames++) {
      const before = current.records.length;
      await nextFrame();
      await settle(current, args.settleMs);
      if (current.records.length === before) break;
    }
  }
  for (;;) {
    const left = bound - (performance.now() - started);
    const running = runningAnimations();
    if (!running.length) return undefined;
    if (left <= 0) return `transitions were still running after ${Math.round(bound)} ms`;
    let longest = 0;
    for (const animation of running) {
      const timing = animation.effect?.getComputedTiming();
      const end = Number(timing?.endTime ?? 0) - Number(timing?.localTime ?? 0);
      if (end > longest) longest = end;
    }
    await sleep(Math.max(10, Math.min(left, longest + 10)));
    await settle(current, args.settleMs);
  }
}

/** Elements a fade may be waited for, at most. */
const FADES_MAX = 50;

/** An element the action changed that renders, is transparent, and declares a transition of its opacity. */
function waitsToFadeIn(element: Element): boolean {
  if (!element.checkVisibility()) return false;
  const style = getComputedStyle(element);
  if (Number(style.opacity) >= 0.05) return false;
  const properties = style.transitionProperty.split(',').map((name) => name.trim());
  const durations = style.transitionDuration.split(',').map((value) => parseFloat(value));
  return properties.some((name, index) => (name === 'opacity' || name === 'all') && (durations[index % durations.length] ?? 0) > 0);
}

/** Waits, within `boundMs`, for transparent elements the action showed to start fading in; whether there were any. */
export async function fadeStarted(current: Recording, rendered: Map<Element, boolean>, boundMs: number): Promise<boolean> {
  const targets = new Set<Element>();
  for (const record of current.records) {
    if (targets.size >= FADES_MAX) break;
    if (record.type === 'attributes') targets.add(record.target as Element);
  }
  for (const [element, before] of rendered) if (!before && targets.size < FADES_MAX) targets.add(element);
  let fading = [...targets].filter((element) => element.isConnected && waitsToFadeIn(element));
  if (fading.length === 0) return false;
  const until = performance.now() + boundMs;
  while (fading.length && performance.now() < until) {
    await new Promise((resolve) => window.setTimeout(resolve, 25));
    fading = fading.filter((element) => element.isConnected && waitsToFadeIn(element) && !element.getAnimations().length);
  }
  return true;
}
