// The trace's picture after an action: the tab's viewport as the computer tool's screenshot takes it, scaled down to
// a small JPEG, with the click point or the drag path drawn on it.
import type SharpModule from 'sharp';
import type { TabHandle } from '../browser/tab/index.js';
import type { TracePicture } from './trace-html.js';

/** Loaded with the first picture, as the screenshot tool does (sharp costs a cold start ~55 ms). */
const loadSharp = async (): Promise<typeof SharpModule> => (await import('sharp')).default;

export interface Point {
  x: number;
  y: number;
}

/** Where the action went, in viewport CSS pixels: a point, or a drag `from` it. */
export interface Mark {
  point?: Point;
  from?: Point;
  /** What went there (`left_click`), for the caption. */
  label?: string;
}

/** ~20 KB a picture of a plain form (more for a busy page): 200 of them keep a trace to a few MB. */
export const PICTURE_MAX_WIDTH = 800;
const PICTURE_QUALITY = 60;
/** The capture itself: good enough to survive the scaling and the second encoding. */
const CAPTURE_QUALITY = 85;

const COLOR = '#e8590c';
const r1 = (value: number) => Math.round(value * 10) / 10;

/** The SVG drawn over a picture `width` x `height` whose CSS pixels are `k` picture pixels; null when nothing to draw. */
export function markSvg(mark: Mark, k: number, width: number, height: number): string | null {
  if (!mark.point) return null;
  const to = { x: r1(mark.point.x * k), y: r1(mark.point.y * k) };
  const parts: string[] = [];
  if (mark.from) {
    const from = { x: r1(mark.from.x * k), y: r1(mark.from.y * k) };
    const angle = Math.atan2(to.y - from.y, to.x - from.x);
    const head = (turn: number) => `${r1(to.x - 18 * Math.cos(angle + turn))},${r1(to.y - 18 * Math.sin(angle + turn))}`;
    const line = `x1="${from.x}" y1="${from.y}" x2="${to.x}" y2="${to.y}"`;
    parts.push(
      `<line ${line} stroke="#fff" stroke-width="8" stroke-linecap="round"/>`,
      `<line ${line} stroke="${COLOR}" stroke-width="4" stroke-linecap="round"/>`,
      `<circle cx="${from.x}" cy="${from.y}" r="8" fill="${COLOR}" stroke="#fff" stroke-width="2.5"/>`,
      `<polygon points="${to.x},${to.y} ${head(0.45)} ${head(-0.45)}" fill="${COLOR}" stroke="#fff" stroke-width="2"/>`,
    );
  } else {
    parts.push(
      `<circle cx="${to.x}" cy="${to.y}" r="19" fill="${COLOR}" fill-opacity="0.2" stroke="#fff" stroke-width="6"/>`,
      `<circle cx="${to.x}" cy="${to.y}" r="19" fill="none" stroke="${COLOR}" stroke-width="3.5"/>`,
      `<circle cx="${to.x}" cy="${to.y}" r="4" fill="${COLOR}" stroke="#fff" stroke-width="1.5"/>`,
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`;
}

/** How the mark reads under the picture. */
export function markText(mark: Mark): string | undefined {
  const at = (p: Point) => `(${Math.round(p.x)}, ${Math.round(p.y)})`;
  if (mark.point && mark.from) return `drag from ${at(mark.from)} to ${at(mark.point)}`;
  if (mark.point) return `${mark.label ?? 'pointer'} at ${at(mark.point)}`;
  return undefined;
}

/** Takes the picture; the caller holds the tab's call queue, so no call of the agent runs meanwhile. */
export async function tracePicture(tab: TabHandle, mark: Mark): Promise<TracePicture> {
  const captured = Buffer.from(await tab.screenshotBase64(undefined, 'viewport', { type: 'jpeg', quality: CAPTURE_QUALITY }), 'base64');
  const sharp = await loadSharp();
  const meta = await sharp(captured).metadata();
  // At a device scale factor N the capture has N pixels per CSS pixel; the mark is in CSS pixels.
  const cssWidth = meta.width / (tab.deviceScaleFactor || 1);
  const width = Math.max(1, Math.min(PICTURE_MAX_WIDTH, Math.round(cssWidth)));
  const height = Math.max(1, Math.round((meta.height * width) / meta.width));
  const overlay = markSvg(mark, width / cssWidth, width, height);
  let image = sharp(captured).resize(width, height, { fit: 'fill' });
  if (overlay) image = image.composite([{ input: Buffer.from(overlay), top: 0, left: 0 }]);
  const jpeg = await image.jpeg({ quality: PICTURE_QUALITY }).toBuffer();
  const text = markText(mark);
  return { dataUrl: `data:image/jpeg;base64,${jpeg.toString('base64')}`, width, height, ...(text ? { mark: text } : {}) };
}
