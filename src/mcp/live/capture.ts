// The live view's frames of one tab: captured only while someone watches it, about 8 a second, and passed on only
// when the picture changed (Firefox encodes the same pixels to the same JPEG, so a still page sends nothing).
import type { TabHandle } from '../../browser/tab/index.js';

/** One frame as the live page gets it. */
export interface LiveFrame {
  tabId: number;
  /** Counts the frames sent for this tab since the capture started. */
  seq: number;
  /** JPEG, base64. */
  jpeg: string;
  /** Capture pixels per CSS pixel (a click point in CSS pixels is drawn at this scale). */
  scale: number;
  at: number;
}

/** What the page shows beside the frame. */
export interface LiveLook {
  tabId: number;
  url: string;
  title: string;
}

/** One capture each this often at most: 8 a second while the page changes. */
export const FRAME_INTERVAL_MS = 125;
/** While an agent's call runs on the tab, 5 a second: a capture shares Firefox with the call (measured below). */
export const BUSY_FRAME_INTERVAL_MS = 200;
const FRAME_QUALITY = 70;
/** The URL and title are read again this often (a page can change its title without a new picture). */
const LOOK_INTERVAL_MS = 1_000;
/** After a failed capture (a dialog, a document being swapped), the next try waits this long. */
const RETRY_MS = 400;

export class FrameCapture {
  private running = false;
  private lastFrame: string | null = null;
  private lastLook = '';
  private lookedAt = 0;
  private seq = 0;
  /** Captures taken and frames sent, for the view's counter (and the test that measures them). */
  captures = 0;

  constructor(
    private readonly tab: TabHandle,
    private readonly wanted: () => boolean,
    /** Whether an agent's call on the tab is under way. */
    private readonly busy: () => boolean,
    private readonly emitFrame: (frame: LiveFrame) => void,
    private readonly emitLook: (look: LiveLook) => void,
    /** Captures began or stopped failing (a dialog opened or closed): the view shows the tab's state again. */
    private readonly stateChanged: () => void,
  ) {}

  private failing = false;

  /** Starts the loop if it is not running; it stops by itself once nobody wants the tab or it closed. */
  start(): void {
    if (this.running) return;
    this.running = true;
    void this.loop().finally(() => (this.running = false));
  }

  /** The tab is gone: this capture will never run again. */
  get ended(): boolean {
    return this.tab.isClosed;
  }

  /** The newest frame, for a viewer who just arrived (sent even when it has not changed since). */
  get latest(): string | null {
    return this.lastFrame;
  }

  /** Forgets the last frame and look, so the next ones go out even if unchanged (a new viewer). */
  refresh(): void {
    this.lookedAt = 0;
    this.lastLook = '';
  }

  private async loop(): Promise<void> {
    while (this.wanted() && !this.tab.isClosed) {
      const began = Date.now();
      let wait = this.busy() ? BUSY_FRAME_INTERVAL_MS : FRAME_INTERVAL_MS;
      try {
        const jpeg = await this.tab.screenshotBase64(undefined, 'viewport', { type: 'jpeg', quality: FRAME_QUALITY });
        this.captures++;
        if (this.failing) {
          this.failing = false;
          this.stateChanged();
        }
        if (jpeg !== this.lastFrame) {
          this.lastFrame = jpeg;
          this.emitFrame({ tabId: this.tab.id, seq: ++this.seq, jpeg, scale: this.tab.deviceScaleFactor || 1, at: Date.now() });
          this.lookedAt = 0;
        }
        if (Date.now() - this.lookedAt >= LOOK_INTERVAL_MS) await this.look();
      } catch {
        // A dialog open, a document being swapped, the tab closing: try again a little later.
        wait = RETRY_MS;
        if (!this.failing) {
          this.failing = true;
          this.stateChanged();
        }
      }
      const spent = Date.now() - began;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait - spent)));
    }
  }

  private async look(): Promise<void> {
    this.lookedAt = Date.now();
    const look = await this.tab.liveLook(1_000);
    const key = `${look.url}\n${look.title}`;
    if (key === this.lastLook) return;
    this.lastLook = key;
    this.emitLook({ tabId: this.tab.id, ...look });
  }
}
