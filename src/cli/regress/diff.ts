import pixelmatch from 'pixelmatch';
import sharp from 'sharp';

export interface DiffResult {
  changedPixels: number;
  ratio: number;
  width: number;
  height: number;
  /** Bounding box of the changed pixels, or null when none changed. */
  box: { x: number; y: number; width: number; height: number } | null;
  /** The diff image (PNG), when anything changed. */
  image: Buffer | null;
}

async function rgba(png: Buffer, width: number, height: number): Promise<Buffer> {
  const meta = await sharp(png).metadata();
  const image = sharp(png).ensureAlpha();
  const padded = meta.width === width && meta.height === height ? image : image.extend({ right: width - (meta.width ?? 0), bottom: height - (meta.height ?? 0), background: { r: 0, g: 0, b: 0, alpha: 0 } });
  return padded.raw().toBuffer();
}

/** Compares two PNGs with pixelmatch (anti-aliased pixels are not counted); pages of different sizes are padded. */
export async function diffPngs(baseline: Buffer, actual: Buffer, colorThreshold: number): Promise<DiffResult> {
  const [a, b] = await Promise.all([sharp(baseline).metadata(), sharp(actual).metadata()]);
  const width = Math.max(a.width ?? 0, b.width ?? 0);
  const height = Math.max(a.height ?? 0, b.height ?? 0);
  if (baseline.equals(actual)) return { changedPixels: 0, ratio: 0, width, height, box: null, image: null };
  const [one, two] = await Promise.all([rgba(baseline, width, height), rgba(actual, width, height)]);
  const out = Buffer.alloc(width * height * 4);
  const changedPixels = pixelmatch(one, two, out, width, height, { threshold: colorThreshold, includeAA: false, diffColor: [255, 0, 0] });
  let box: DiffResult['box'] = null;
  if (changedPixels > 0) {
    let minX = width, minY = height, maxX = -1, maxY = -1;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        if (out[i] === 255 && out[i + 1] === 0 && out[i + 2] === 0) {
          if (x < minX) minX = x;
          if (x > maxX) maxX = x;
          if (y < minY) minY = y;
          if (y > maxY) maxY = y;
        }
      }
    }
    if (maxX >= 0) box = { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
  }
  const image = changedPixels > 0 ? await sharp(out, { raw: { width, height, channels: 4 } }).png().toBuffer() : null;
  return { changedPixels, ratio: changedPixels / (width * height), width, height, box, image };
}

/** Beyond any of the limits given (max_diff_pixels, max_diff_ratio). */
export function overLimits(diff: DiffResult, limits: { maxDiffPixels?: number | undefined; maxDiffRatio?: number | undefined }): boolean {
  return (limits.maxDiffPixels !== undefined && diff.changedPixels > limits.maxDiffPixels) || (limits.maxDiffRatio !== undefined && diff.ratio > limits.maxDiffRatio);
}
