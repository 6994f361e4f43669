// screenshot (the viewport, the whole page or one element) and zoom (one region of the viewport, optionally
// re-rendered at a higher DPR).
import type SharpModule from 'sharp';
import { saveImage } from '../../browser/group/index.js';
import { resolveRef } from '../../browser/tab/index.js';
import { sleepUnlessCancelled } from '../../abort.js';
import { ToolError } from '../../errors.js';
import type { ImageFormat } from '../../browser/tab/index.js';
import type { ActionHandler, ComputerResult } from '../computer.js';

/** sharp (libvips) is loaded when an image needs it: at startup it cost ~55 ms the server spends beside Firefox's own start. */
const loadSharp = async (): Promise<typeof SharpModule> => (await import('sharp')).default;

type Size = { width: number; height: number };

/** The factor (at most 1) that brings `size` within `max` on both sides. */
export function fitFactor(size: Size, max: Size): number {
  return Math.min(1, max.width / size.width, max.height / size.height);
}

/**
 * At a device scale factor N Firefox renders N image pixels per CSS pixel. Screenshots are scaled back to CSS pixels,
 * so a point read off one is the coordinate computer takes; zoom is the way to see the detail. An image larger than
 * `max` (a long page, a big element or viewport) is scaled down further to fit: a model API refuses a larger one, and
 * the conversation with it.
 */
async function inCssPixels(
  base64: string,
  scale: number,
  format: ImageFormat,
  max: Size,
  known?: Size,
): Promise<{ base64: string; width: number; height: number; fit: number; css: Size }> {
  // The viewport at ratio 1 is the common case: its size is known, so the image is passed on untouched.
  if (scale === 1 && known && fitFactor(known, max) === 1) return { base64, ...known, fit: 1, css: known };
  const sharp = await loadSharp();
  const meta = await sharp(Buffer.from(base64, 'base64')).metadata();
  const css = { width: Math.max(1, Math.round(meta.width / scale)), height: Math.max(1, Math.round(meta.height / scale)) };
  const fit = fitFactor(css, max);
  if (scale === 1 && fit === 1) return { base64, ...css, fit, css };
  const width = Math.max(1, Math.min(max.width, Math.round(css.width * fit)));
  const height = Math.max(1, Math.min(max.height, Math.round(css.height * fit)));
  const resized = sharp(Buffer.from(base64, 'base64')).resize(width, height, { fit: 'fill' });
  const out = format.type === 'jpeg' ? await resized.jpeg({ quality: format.quality }).toBuffer() : await resized.png().toBuffer();
  return { base64: out.toString('base64'), width, height, fit: width / css.width, css };
}

/** How a reply says that an image was scaled down to fit, so that a point read off it maps back to CSS pixels. */
export function scaledDownNote(fit: number, css: Size, max: Size): string {
  return `the ${css.width}x${css.height} CSS pixels scaled down to ${percent(fit)} to fit ${max.width}x${max.height} (--screenshot-max-size): divide a point read off it by ${round3(fit)} for CSS pixels`;
}

const round3 = (value: number): number => Math.round(value * 1000) / 1000;
const percent = (fit: number): string => `${(fit * 100).toFixed(fit < 0.1 ? 1 : 0)}%`;

/** What a screenshot shows: the viewport, the whole document (full_page) or one element (ref). */
async function captureWhat(context: Parameters<ActionHandler>[0], args: Parameters<ActionHandler>[1], format: ImageFormat): Promise<{ base64: string; what: string; note?: string }> {
  const { tab } = context;
  if (args.ref) {
    if (args.full_page) throw new ToolError('invalid_arguments', 'full_page: give either ref (one element) or full_page (the whole page), not both. Nothing was done.', { field: 'full_page' });
    const { target, role, name } = await resolveRef(tab, args.ref);
    const element = await tab.elementReference(target.frameContext, target.docId, target.localId);
    // Document origin: the element is captured whole even where it is scrolled out of view.
    const base64 = await tab.screenshotBase64({ type: 'element', element }, 'document', format, target.frameContext);
    return { base64, what: `${args.ref} (${role}${name ? ` "${name}"` : ''})`, note: 'an element: its pixels are not viewport coordinates' };
  }
  if (args.full_page) {
    const base64 = await tab.screenshotBase64(undefined, 'document', format);
    return { base64, what: 'the whole page', note: 'the whole document from its top left: y here is viewport y plus the scroll offset, so aim computer with a ref or after scrolling' };
  }
  return { base64: await tab.screenshotBase64(undefined, 'viewport', format), what: 'the viewport' };
}

const screenshot: ActionHandler = async (context, args) => {
  const { options, tab } = context;
  // JPEG by default: about 35% fewer bytes than PNG and slightly faster to capture (docs/benchmark.md); zoom is the lossless look.
  const format: ImageFormat = (args.image_format ?? options.screenshotFormat) === 'jpeg' ? { type: 'jpeg', quality: options.screenshotQuality } : { type: 'png' };
  const mimeType = format.type === 'jpeg' ? 'image/jpeg' : 'image/png';
  const captured = await captureWhat(context, args, format);
  const scale = tab.deviceScaleFactor;
  const max = options.screenshotMaxSize;
  const { base64, width, height, fit, css } = await inCssPixels(captured.base64, scale, format, max, args.ref || args.full_page ? undefined : tab.viewport);
  const notes = [captured.note, fit < 1 ? scaledDownNote(fit, css, max) : undefined].filter((note) => note !== undefined);
  const result: ComputerResult = { action: 'screenshot', ok: true, width, height, ...(fit < 1 ? { imageScale: round3(fit) } : {}), ...(notes.length ? { note: notes.join('; ') } : {}) };
  if (args.save_to_disk) result.savedTo = await saveImage(context.group.outputDir, `tab${tab.id}-screenshot`, Buffer.from(base64, 'base64'), mimeType);
  const encoding = format.type === 'jpeg' ? `JPEG quality ${format.quality}` : 'PNG';
  const pixels = fit < 1 ? 'scaled down' : scale === 1 ? 'at device pixel ratio 1' : `in CSS pixels (rendered at device pixel ratio ${scale}, scaled back so coordinates match computer's)`;
  const text = `Screenshot of ${captured.what} of tab ${tab.id}, ${width}x${height} ${encoding} ${pixels}.${notes.length ? ` Note: ${notes.join('; ')}.` : ''}${result.savedTo ? ` Saved to ${result.savedTo}` : ''}`;
  return { structured: result, text, images: [{ base64, mimeType }] };
};

function checkRegion(region: readonly number[] | undefined, viewport: { width: number; height: number }) {
  const size = `the viewport is ${viewport.width}x${viewport.height}`;
  if (!region) throw new ToolError('invalid_arguments', `region: zoom needs [x0, y0, x1, y1] in viewport pixels (${size}).`, { field: 'region', viewport });
  const [x0, y0, x1, y1] = region.map((v) => Math.round(v)) as [number, number, number, number];
  if (x1 <= x0 || y1 <= y0) throw new ToolError('invalid_arguments', `region: x1 must exceed x0 and y1 exceed y0 (got [${region.join(', ')}]).`, { field: 'region', viewport });
  if (x0 < 0 || y0 < 0 || x1 > viewport.width || y1 > viewport.height) {
    throw new ToolError('invalid_arguments', `region: [${region.join(', ')}] does not fit inside the viewport; ${size}.`, { field: 'region', viewport });
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/**
 * The capture should already be `want`'s size; a rounding pixel either way is trimmed off the right and bottom
 * edges or padded there with copies of the edge pixels, never resampled (which would blur every pixel).
 */
async function exactSize(png: Buffer, want: { width: number; height: number }): Promise<Buffer> {
  const sharp = await loadSharp();
  const { width = 0, height = 0 } = await sharp(png).metadata();
  if (width === want.width && height === want.height) return png;
  const image = sharp(png).extract({ left: 0, top: 0, width: Math.min(width, want.width), height: Math.min(height, want.height) });
  const right = Math.max(0, want.width - width);
  const bottom = Math.max(0, want.height - height);
  if (right || bottom) image.extend({ right, bottom, extendWith: 'copy' });
  return image.png().toBuffer();
}

const zoom: ActionHandler = async (context, args) => {
  const { tab, options } = context;
  const box = checkRegion(args.region, tab.viewport);
  const max = options.screenshotMaxSize;
  // By default at the tab's own pixel ratio (--device-scale-factor), so a sharp render costs no re-layout.
  const asked = args.scale ?? Math.max(1, tab.deviceScaleFactor);
  // A render larger than an image may be is made at the largest ratio that fits, and below ratio 1 scaled down.
  const fits = asked * fitFactor({ width: box.width * asked, height: box.height * asked }, max);
  const scale = Math.max(1, fits);
  let png = await renderRegion(tab, box, scale);
  let want = { width: Math.min(max.width, Math.round(box.width * scale)), height: Math.min(max.height, Math.round(box.height * scale)) };
  png = await exactSize(png, want);
  if (fits < 1) {
    want = { width: Math.max(1, Math.round(box.width * fits)), height: Math.max(1, Math.round(box.height * fits)) };
    png = await (await loadSharp())(png).resize(want.width, want.height, { fit: 'fill' }).png().toBuffer();
  }
  const ratio = want.width / box.width;
  const result: ComputerResult = { action: 'zoom', ok: true, width: want.width, height: want.height };
  if (args.save_to_disk) result.savedTo = await saveImage(context.group.outputDir, `tab${tab.id}-zoom`, png);
  const how = fits < asked
    ? `${round3(ratio)} image pixels per CSS pixel, not the ${asked} asked for: the most that fits ${max.width}x${max.height} (--screenshot-max-size)`
    : scale === 1
      ? 'at device pixel ratio 1'
      : `rendered at device pixel ratio ${scale} (${scale} image pixels per CSS pixel)`;
  const text = `Zoom of [${box.x}, ${box.y}, ${box.x + box.width}, ${box.y + box.height}]: ${want.width}x${want.height} PNG ${how}.${result.savedTo ? ` Saved to ${result.savedTo}` : ''}`;
  if (fits < asked) result.imageScale = round3(ratio);
  if (ratio !== 1) result.note = how;
  return { structured: result, text, images: [{ data: png, mimeType: 'image/png' }] };
};

/** The region rendered at `scale` image pixels per CSS pixel (the viewport's ratio is put back after). */
async function renderRegion(tab: Parameters<ActionHandler>[0]['tab'], box: { x: number; y: number; width: number; height: number }, scale: number): Promise<Buffer> {
  if (scale === tab.deviceScaleFactor) return tab.screenshot({ type: 'box', ...box });
  const { width, height } = tab.viewport;
  await tab.setViewport(width, height, scale);
  try {
    return await tab.screenshot({ type: 'box', ...box });
  } finally {
    await tab.setViewport(width, height);
  }
}

const wait: ActionHandler = async (context, args) => {
  if (args.duration === undefined) throw new ToolError('invalid_arguments', 'duration: wait needs the seconds to wait (0-10).', { field: 'duration' });
  await context.tab.race(sleepUnlessCancelled(args.duration * 1000, context.signal));
  return { structured: { action: 'wait', ok: true }, text: `Waited ${args.duration} s.` };
};

export const captureHandlers = { screenshot, zoom, wait } satisfies Record<string, ActionHandler>;
