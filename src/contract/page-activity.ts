// What the page's own realm reports of the work it has scheduled and not yet run (src/page/main-realm.ts),
// read by the sandbox's settle (src/page/settle.ts).

/** The window property (not enumerable, not writable) whose function answers a PageActivity as JSON text. */
export const ACTIVITY_PROBE = '__firefoxUseActivity';

export interface PageActivity {
  /** How soon the page's next timer (setTimeout or setInterval) is due, ms; null when none is pending. */
  timerDueMs: number | null;
  /** requestAnimationFrame callbacks waiting for a frame. */
  frames: number;
  /** requestIdleCallback callbacks waiting. */
  idle: number;
  /** fetch and XMLHttpRequest calls not answered yet. */
  requests: number;
  /** Since the page last posted a message (a scheduler yielding) or a timer of it ran, ms. */
  sinceTaskMs: number;
}
