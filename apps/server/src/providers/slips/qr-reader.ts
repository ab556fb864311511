// Finds and decodes the QR code on a photo or screenshot of a bank transfer slip with ZXing-C++
// (zxing-wasm; see zxing.ts).
//
// Slip QRs are small (about a quarter of the slip's width: often 60-150 px in a phone screenshot)
// and the images are re-encoded by chat apps, scaled, cropped or photographed. A decoder handed a
// small or noisy QR in a big image reads it poorly, and its time grows with the pixels (and the
// noise) it is given, so the image is tried in passes, likeliest and cheapest first; the first
// text wins:
//   1. regions that look like a QR code, found by a cheap texture map of the grey image at three
//      scales, each cut out with a margin and enlarged so the QR is about 320 px (up to ×4);
//   2. the whole image, 3×3 median filtered (sensor noise, JPEG speckle), at most 1000 px long;
//   3. the whole image at up to 1600 px (or ×2 when it is small), median filtered;
//   4. the regions again, median filtered;
//   5. the whole image inverted (light modules on dark). When the image is mostly dark (a
//      dark-mode screenshot) the regions and the whole image are tried inverted first instead;
//   6. last, the whole image at up to 1600 px with ZXing's own slower tries (inverted, downscaled):
//      only an image every other pass missed pays for it.
// Every pass is contrast-stretched. The decoder reads any rotation; EXIF orientation is applied first.
//
// ZXing replaced jsQR here (no release since 2021, a crash on 'onlyInvert' worked around): on the
// slip corpus it reads more and takes less time (the README's "Slip reading" has the figures;
// test/slip-decoders.ts measures them). Everything here is CPU work on the calling thread: the
// server calls it only in its worker threads (reader-pool.ts).
import sharp, { type Sharp } from 'sharp';
import { openImage } from './image';
import { zxingRead } from './zxing';

/** A grey image, one byte a pixel, row by row. */
export interface Grey {
  width: number;
  height: number;
  data: Buffer;
}

/** One attempt at a QR: a region of the image, scaled, filtered, handed to the decoder. */
export interface QrPass {
  name: string;
  /** The region, as fractions of the (upright) image. */
  left: number;
  top: number;
  width: number;
  height: number;
  /** The region's long side, in pixels, as handed to the decoder. */
  side: number;
  /** Median filter size (odd), against sensor noise and JPEG speckle. */
  median?: number;
  /** Light and dark swapped (dark-mode screenshots). */
  invert?: boolean;
  /** The decoder's own slower tries too (ZXing: inverted, downscaled): the last resort. */
  thorough?: boolean;
}

/** What `trace` is told: first `prepare` (decoding, grey copy, finding regions), then each pass. */
export interface QrPassTrace {
  pass: string;
  /** The size handed to the decoder. */
  width: number;
  height: number;
  /** Time for the pass: cutting and scaling (sharp) and decoding. */
  ms: number;
  found: boolean;
}

/** Reads a QR in a grey image: its text, or null when none decodes. */
export type QrDecoder = (grey: Grey, pass: QrPass) => Promise<string | null> | string | null;

/** Options for `readSlipQr`. */
export interface ReadSlipQrOptions {
  /** The QR decoder each pass is handed to (ZXing unless told: for comparisons). */
  decoder?: QrDecoder;
  /** Called after each pass: for measurements and diagnostics. */
  trace?: (step: QrPassTrace) => void;
  /** Replaces the built-in passes (`defaultPasses`): for experiments. */
  passes?: (base: Grey) => QrPass[];
}

/** The long side of the grey copy every pass is cut from. */
const BASE_SIDE = 2400;
/** Long side of the first, cheap whole-image pass. */
const FIRST_SIDE = 1000;
/** Long side of the full-detail whole-image pass. */
const FULL_SIDE = 1600;
/** Long side a candidate region's QR is enlarged to (at most ×4). */
const CANDIDATE_SIDE = 320;
/** How many candidate regions are tried. */
const CANDIDATES = 8;
/** Side, in base pixels, of the blocks of the QR-texture map. */
const BLOCK = 8;

function firstChannel(data: Buffer, channels: number): Buffer {
  if (channels === 1) return data;
  const out = Buffer.alloc(Math.floor(data.length / channels));
  for (let i = 0; i < out.length; i++) out[i] = data[i * channels] ?? 0;
  return out;
}

/** ZXing on one pass's pixels; the thorough pass with its slower tries. */
export const zxingDecoder: QrDecoder = (grey, pass) => zxingRead(grey, pass.thorough === true);

async function render(base: Grey, pass: QrPass): Promise<Grey> {
  const left = Math.min(base.width - 1, Math.floor(pass.left * base.width));
  const top = Math.min(base.height - 1, Math.floor(pass.top * base.height));
  const width = Math.max(1, Math.min(base.width - left, Math.ceil(pass.width * base.width)));
  const height = Math.max(1, Math.min(base.height - top, Math.ceil(pass.height * base.height)));
  const factor = pass.side / Math.max(width, height);
  let image: Sharp = sharp(base.data, { raw: { width: base.width, height: base.height, channels: 1 } });
  if (left > 0 || top > 0 || width < base.width || height < base.height) image = image.extract({ left, top, width, height });
  if (Math.abs(factor - 1) > 0.01) {
    image = image.resize(Math.max(1, Math.round(width * factor)), Math.max(1, Math.round(height * factor)), {
      kernel: factor > 1 ? 'cubic' : 'lanczos3',
    });
  }
  if (pass.median) image = image.median(pass.median);
  if (pass.invert) image = image.negate();
  // Raw single-channel input would come out as sRGB unless told otherwise.
  const { data, info } = await image.normalise().toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: firstChannel(data, info.channels) };
}

/** A rectangle of the base image, in its pixels. */
interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Per block of the base image: mean and contrast (max - min). */
function blockStats(base: Grey, cols: number, rows: number): { mean: Float32Array; contrast: Uint8Array } {
  const { width, data } = base;
  const mean = new Float32Array(cols * rows);
  const contrast = new Uint8Array(cols * rows);
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < cols; bx++) {
      let sum = 0;
      let min = 255;
      let max = 0;
      for (let y = by * BLOCK; y < (by + 1) * BLOCK; y++) {
        for (let at = y * width + bx * BLOCK, end = at + BLOCK; at < end; at++) {
          const v = data[at] ?? 0;
          sum += v;
          if (v < min) min = v;
          if (v > max) max = v;
        }
      }
      mean[by * cols + bx] = sum / (BLOCK * BLOCK);
      contrast[by * cols + bx] = max - min;
    }
  }
  return { mean, contrast };
}

/**
 * Marks blocks with QR texture: enough contrast, about as much dark as light (against the mean of
 * the 5×5 block neighbourhood), and frequent light/dark changes both across and down.
 */
function texturedBlocks(base: Grey, cols: number, rows: number): Uint8Array {
  const { width, data } = base;
  const { mean, contrast } = blockStats(base, cols, rows);
  const textured = new Uint8Array(cols * rows);
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < cols; bx++) {
      if ((contrast[by * cols + bx] ?? 0) < 48) continue;
      let sum = 0;
      let count = 0;
      for (let y = Math.max(0, by - 2); y <= Math.min(rows - 1, by + 2); y++) {
        for (let x = Math.max(0, bx - 2); x <= Math.min(cols - 1, bx + 2); x++) {
          sum += mean[y * cols + x] ?? 0;
          count++;
        }
      }
      const threshold = sum / count;
      let dark = 0;
      let across = 0;
      let down = 0;
      for (let y = by * BLOCK; y < (by + 1) * BLOCK; y++) {
        for (let x = 0, at = y * width + bx * BLOCK; x < BLOCK; x++, at++) {
          const isDark = (data[at] ?? 0) < threshold;
          if (isDark) dark++;
          if (x > 0 && isDark !== (data[at - 1] ?? 0) < threshold) across++;
          if (y > by * BLOCK && isDark !== (data[at - width] ?? 0) < threshold) down++;
        }
      }
      const fraction = dark / (BLOCK * BLOCK);
      if (fraction >= 0.2 && fraction <= 0.8 && across >= 4 && down >= 4) textured[by * cols + bx] = 1;
    }
  }
  return textured;
}

/** `grey` at half size, each pixel the mean of a 2×2 square. */
function halve(grey: Grey): Grey {
  const width = Math.floor(grey.width / 2);
  const height = Math.floor(grey.height / 2);
  const data = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) {
    const top = 2 * y * grey.width;
    const bottom = top + grey.width;
    for (let x = 0; x < width; x++) {
      const sum = (grey.data[top + 2 * x] ?? 0) + (grey.data[top + 2 * x + 1] ?? 0) + (grey.data[bottom + 2 * x] ?? 0) + (grey.data[bottom + 2 * x + 1] ?? 0);
      data[y * width + x] = (sum + 2) >> 2;
    }
  }
  return { width, height, data };
}

const overlap = (a: Box, b: Box) => {
  const w = Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left);
  const h = Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top);
  return w <= 0 || h <= 0 ? 0 : (w * h) / Math.min(a.width * a.height, b.width * b.height);
};

/**
 * Regions of the base image that look like a QR code, best first: found at full, half and quarter
 * size, so that QRs with modules of about 1.5 to 16 px all show as texture. Overlapping finds are
 * merged into the best of them.
 */
function qrCandidates(base: Grey, limit: number): Box[] {
  const found: { box: Box; score: number }[] = [];
  let level = base;
  for (let scale = 1; scale <= 4 && Math.min(level.width, level.height) >= 3 * BLOCK; scale *= 2, level = halve(level)) {
    for (const { box, score } of textureClusters(level)) {
      found.push({ box: { left: box.left * scale, top: box.top * scale, width: box.width * scale, height: box.height * scale }, score });
    }
  }
  const kept: Box[] = [];
  for (const { box } of found.sort((a, b) => b.score - a.score)) {
    if (kept.length >= limit) break;
    if (!kept.some((other) => overlap(box, other) > 0.6)) kept.push(box);
  }
  return kept;
}

/**
 * Square-ish clusters of QR-textured blocks in `base` (text makes wide, flat clusters), scored by
 * how square and how filled they are. Cheap (one walk over the pixels) and liberal: a false
 * candidate costs one decoder call on a small crop.
 */
function textureClusters(base: Grey): { box: Box; score: number }[] {
  const cols = Math.floor(base.width / BLOCK);
  const rows = Math.floor(base.height / BLOCK);
  if (cols < 3 || rows < 3) return [];
  const textured = texturedBlocks(base, cols, rows);

  // Close small gaps (a finder pattern's solid centre) by growing each block by one, then take
  // 8-connected clusters.
  const grown = new Uint8Array(cols * rows);
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < cols; bx++) {
      if (!textured[by * cols + bx]) continue;
      for (let y = Math.max(0, by - 1); y <= Math.min(rows - 1, by + 1); y++) {
        for (let x = Math.max(0, bx - 1); x <= Math.min(cols - 1, bx + 1); x++) grown[y * cols + x] = 1;
      }
    }
  }
  const seen = new Uint8Array(cols * rows);
  const found: { box: Box; score: number }[] = [];
  const stack: number[] = [];
  for (let start = 0; start < grown.length; start++) {
    if (!grown[start] || seen[start]) continue;
    let [minX, minY, maxX, maxY] = [cols, rows, 0, 0];
    seen[start] = 1;
    stack.push(start);
    for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
      const x = at % cols;
      const y = (at - x) / cols;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
      for (let ny = Math.max(0, y - 1); ny <= Math.min(rows - 1, y + 1); ny++) {
        for (let nx = Math.max(0, x - 1); nx <= Math.min(cols - 1, x + 1); nx++) {
          const next = ny * cols + nx;
          if (grown[next] && !seen[next]) {
            seen[next] = 1;
            stack.push(next);
          }
        }
      }
    }
    // Undo the growth: the textured cluster is one block smaller on every side (except at edges).
    const x0 = Math.min(minX + 1, maxX);
    const y0 = Math.min(minY + 1, maxY);
    const x1 = Math.max(maxX - 1, x0);
    const y1 = Math.max(maxY - 1, y0);
    const w = x1 - x0 + 1;
    const h = y1 - y0 + 1;
    if (w < 3 || h < 3) continue;
    const squareness = Math.min(w, h) / Math.max(w, h);
    if (squareness < 0.55) continue;
    let filled = 0;
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) filled += textured[y * cols + x] ?? 0;
    const fill = filled / (w * h);
    if (fill < 0.3) continue;
    found.push({ box: { left: x0 * BLOCK, top: y0 * BLOCK, width: w * BLOCK, height: h * BLOCK }, score: fill * squareness });
  }
  return found;
}

const WHOLE = { left: 0, top: 0, width: 1, height: 1 };

/** A pass on `box` grown by a margin (the quiet zone), its QR enlarged to about CANDIDATE_SIDE. */
function candidatePass(base: Grey, box: Box, name: string): QrPass {
  const margin = Math.max(2 * BLOCK, Math.round(0.2 * Math.max(box.width, box.height)));
  const left = Math.max(0, box.left - margin);
  const top = Math.max(0, box.top - margin);
  const right = Math.min(base.width, box.left + box.width + margin);
  const bottom = Math.min(base.height, box.top + box.height + margin);
  const factor = Math.min(4, Math.max(1, CANDIDATE_SIDE / Math.max(box.width, box.height)));
  return {
    name,
    left: left / base.width,
    top: top / base.height,
    width: (right - left) / base.width,
    height: (bottom - top) / base.height,
    side: Math.round(Math.max(right - left, bottom - top) * factor),
  };
}

/** The built-in passes for a base image (see the top of this file), cheapest and likeliest first. */
export function defaultPasses(base: Grey): QrPass[] {
  const long = Math.max(base.width, base.height);
  let sum = 0;
  let count = 0;
  for (let i = 0; i < base.data.length; i += 7, count++) sum += base.data[i] ?? 0;
  // Mostly dark: a dark-mode screenshot, whose QR is likelier light on dark.
  const dark = count > 0 && sum / count < 100;
  const candidates = qrCandidates(base, CANDIDATES).map((box, i) => candidatePass(base, box, `candidate${i}`));
  const whole: QrPass = { name: 'whole', ...WHOLE, side: Math.min(long, FIRST_SIDE) };
  const inverted = (pass: QrPass): QrPass => ({ ...pass, name: `${pass.name}-inverted`, invert: true });
  const medianed = (pass: QrPass): QrPass => ({ ...pass, name: `${pass.name}-median`, median: 3 });

  const passes: QrPass[] = [];
  if (dark) passes.push(...candidates.map(inverted), inverted(medianed(whole)));
  passes.push(...candidates, medianed(whole));
  if (long > FIRST_SIDE * 1.1) passes.push(medianed({ name: 'whole-full', ...WHOLE, side: Math.min(long, FULL_SIDE) }));
  if (long < FIRST_SIDE * 0.8) passes.push(medianed({ name: 'whole-x2', ...WHOLE, side: Math.min(long * 2, FULL_SIDE) }));
  passes.push(...candidates.map(medianed));
  if (!dark) passes.push(inverted(medianed(whole)));
  passes.push({ name: 'whole-thorough', ...WHOLE, side: Math.min(long, FULL_SIDE), thorough: true });
  return passes;
}

/**
 * Finds a QR code in a PNG, JPEG, WebP (or HEIC, where decodable) image and returns its text, or
 * null when no QR decodes. Any QR counts: the caller decides whether the text is a slip payload
 * (`parseSlipPayload`). Throws `ImageError` for an image that is refused or cannot be decoded
 * (`UNSUPPORTED`, `UNREADABLE`, `TOO_LARGE`, `TOO_SMALL`): "no QR" and "not an image" differ.
 */
export async function readSlipQr(bytes: Buffer, options: ReadSlipQrOptions = {}): Promise<{ text: string } | null> {
  const started = performance.now();
  const image = await openImage(bytes);
  const long = Math.max(image.width, image.height);
  const scale = Math.min(1, BASE_SIDE / long);
  let pipeline = image.pipeline().greyscale();
  if (scale < 1) pipeline = pipeline.resize(Math.round(image.width * scale), Math.round(image.height * scale), { kernel: 'lanczos3' });
  const { data, info } = await image.toBuffer(pipeline.toColourspace('b-w').raw({ depth: 'uchar' }));
  const base: Grey = { width: info.width, height: info.height, data: firstChannel(data, info.channels) };
  const passes = (options.passes ?? defaultPasses)(base);
  options.trace?.({ pass: 'prepare', width: base.width, height: base.height, ms: performance.now() - started, found: false });

  const decoder = options.decoder ?? zxingDecoder;
  for (const pass of passes) {
    const passStarted = performance.now();
    const grey = await render(base, pass);
    const text = await decoder(grey, pass);
    const ok = text !== null && text.length > 0;
    options.trace?.({ pass: pass.name, width: grey.width, height: grey.height, ms: performance.now() - passStarted, found: ok });
    if (ok) return { text };
  }
  return null;
}
