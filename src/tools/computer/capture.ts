// screenshot and zoom: PNGs of the viewport or of one region of it, optionally re-rendered at a higher DPR.
import sharp from 'sharp';
import { saveImage } from '../../browser/output.js';
import { ToolError } from '../../errors.js';
import type { ImageFormat } from '../../browser/tab.js';
import type { ActionHandler, ComputerResult } from '../computer.js';

const screenshot: ActionHandler = async (context, args) => {
  const { options } = context;
  // JPEG by default: a third of PNG's time and size in Firefox (docs/benchmark.md); zoom is the lossless look.
  const format: ImageFormat = (args.image_format ?? options.screenshotFormat) === 'jpeg' ? { type: 'jpeg', quality: options.screenshotQuality } : { type: 'png' };
  const mimeType = format.type === 'jpeg' ? 'image/jpeg' : 'image/png';
  const base64 = await context.tab.screenshotBase64(undefined, 'viewport', format);
  const { width, height } = context.tab.viewport;
  const result: ComputerResult = { action: 'screenshot', ok: true, width, height };
  if (args.save_to_disk) result.savedTo = await saveImage(options.outputDir, `tab${context.tab.id}-screenshot`, Buffer.from(base64, 'base64'), mimeType);
  const encoding = format.type === 'jpeg' ? `JPEG quality ${format.quality}` : 'PNG';
  const text = `Screenshot of tab ${context.tab.id}, ${width}x${height} ${encoding} at device pixel ratio 1.${result.savedTo ? ` Saved to ${result.savedTo}` : ''}`;
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
  const { width = 0, height = 0 } = await sharp(png).metadata();
  if (width === want.width && height === want.height) return png;
  const image = sharp(png).extract({ left: 0, top: 0, width: Math.min(width, want.width), height: Math.min(height, want.height) });
  const right = Math.max(0, want.width - width);
  const bottom = Math.max(0, want.height - height);
  if (right || bottom) image.extend({ right, bottom, extendWith: 'copy' });
  return image.png().toBuffer();
}

const zoom: ActionHandler = async (context, args) => {
  const { tab } = context;
  const box = checkRegion(args.region, tab.viewport);
  const scale = args.scale ?? 1;
  let png: Buffer;
  if (scale === 1) {
    png = await tab.screenshot({ type: 'box', ...box });
  } else {
    const { width, height } = tab.viewport;
    await tab.setViewport(width, height, scale);
    try {
      png = await tab.screenshot({ type: 'box', ...box });
    } finally {
      await tab.setViewport(width, height, 1);
    }
  }
  const want = { width: Math.round(box.width * scale), height: Math.round(box.height * scale) };
  png = await exactSize(png, want);
  const result: ComputerResult = { action: 'zoom', ok: true, width: want.width, height: want.height };
  if (args.save_to_disk) result.savedTo = await saveImage(context.options.outputDir, `tab${tab.id}-zoom`, png);
  const how = scale === 1 ? 'at device pixel ratio 1' : `re-rendered at device pixel ratio ${scale} (${scale} image pixels per CSS pixel)`;
  const text = `Zoom of [${box.x}, ${box.y}, ${box.x + box.width}, ${box.y + box.height}]: ${want.width}x${want.height} PNG ${how}.${result.savedTo ? ` Saved to ${result.savedTo}` : ''}`;
  if (scale !== 1) result.note = how;
  return { structured: result, text, images: [{ data: png, mimeType: 'image/png' }] };
};

const wait: ActionHandler = async (context, args) => {
  if (args.duration === undefined) throw new ToolError('invalid_arguments', 'duration: wait needs the seconds to wait (0-10).', { field: 'duration' });
  await context.tab.race(new Promise((resolve) => setTimeout(resolve, args.duration! * 1000)));
  return { structured: { action: 'wait', ok: true }, text: `Waited ${args.duration} s.` };
};

export const captureHandlers = { screenshot, zoom, wait } satisfies Record<string, ActionHandler>;
