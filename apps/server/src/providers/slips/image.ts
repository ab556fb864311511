// Uploaded images (bank-slip photos and screenshots): format detection by magic bytes and decoding
// to RGBA with sharp (libvips), with size limits checked from the header before any pixel is
// decoded. Only PNG, JPEG, WebP and HEIC are let through to the decoder: anything else (SVG, PDF,
// TIFF, GIF, ...) is refused without parsing it.
//
// HEIC: the prebuilt libvips that sharp ships (npm @img/sharp-libvips-*) reads the HEIF container
// (so dimensions and orientation are known) but has no HEVC decoder, for patent reasons; such an
// image is refused as UNSUPPORTED. AVIF (the same container holding AV1) would decode, but is not
// one of the formats accepted here.
import sharp, { type Metadata, type OutputInfo, type Sharp, type SharpOptions } from 'sharp';

/** The image formats we recognise. */
export type ImageFormat = 'png' | 'jpeg' | 'webp' | 'heic';

/** Why an image was refused. */
export type ImageErrorReason =
  /** Over `MAX_IMAGE_PIXELS` (width × height). */
  | 'TOO_LARGE'
  /** A side under `MIN_IMAGE_SIDE` pixels. */
  | 'TOO_SMALL'
  /** A recognised format whose content cannot be decoded (truncated, corrupt). */
  | 'UNREADABLE'
  /** Not PNG, JPEG, WebP or HEIC by its magic bytes, or a HEIC this build cannot decode. */
  | 'UNSUPPORTED';

/** Every refusal from this module: `reason` says which kind. */
export class ImageError extends Error {
  constructor(
    readonly reason: ImageErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'ImageError';
  }
}

/** Largest accepted image, in pixels (width × height, after EXIF orientation). */
export const MAX_IMAGE_PIXELS = 40_000_000;
/** Smallest accepted side, in pixels. */
export const MIN_IMAGE_SIDE = 64;

/** A decoded image: `data` holds `width × height` RGBA pixels, row by row (what canvases and QR decoders take). */
export interface DecodedImage {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

/** A validated image, ready to decode: see `openImage`. */
export interface OpenedImage {
  format: ImageFormat;
  /** Width as displayed, after EXIF orientation. */
  width: number;
  /** Height as displayed, after EXIF orientation. */
  height: number;
  /** A fresh sharp pipeline on the image, already turned upright by its EXIF orientation. */
  pipeline(): Sharp;
  /** Runs `pipeline`'s output to a buffer, turning decoder failures into `ImageError`. */
  toBuffer(image: Sharp): Promise<{ data: Buffer; info: OutputInfo }>;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** ISO-BMFF brands of HEVC-coded HEIF images and sequences (and the generic HEIF brands with them). */
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);

const ascii = (bytes: Buffer, start: number, end: number) => bytes.toString('latin1', start, end);

/** The brands of an ISO-BMFF `ftyp` box at the start of `bytes` (major brand first), or null. */
function ftypBrands(bytes: Buffer): string[] | null {
  if (bytes.length < 12 || ascii(bytes, 4, 8) !== 'ftyp') return null;
  const boxSize = Math.min(bytes.readUInt32BE(0), bytes.length, 4096);
  if (boxSize < 16) return [ascii(bytes, 8, 12)];
  const brands = [ascii(bytes, 8, 12)];
  // Bytes 12-16 are the minor version; compatible brands follow, 4 bytes each.
  for (let at = 16; at + 4 <= boxSize; at += 4) brands.push(ascii(bytes, at, at + 4));
  return brands;
}

/**
 * The format of an image by its magic bytes (never by a file name or a declared type): PNG
 * signature, JPEG SOI marker, RIFF/WEBP, or an ISO-BMFF `ftyp` box naming an HEVC HEIF brand.
 * Anything else, including AVIF, GIF, PDF, ZIP, text and an empty buffer, gives null.
 */
export function sniffImage(bytes: Buffer): ImageFormat | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  const brands = ftypBrands(bytes);
  if (brands?.some((brand) => HEIC_BRANDS.has(brand))) return 'heic';
  return null;
}

const OPTIONS: SharpOptions = {
  // The header is checked before decoding; this is libvips' own guard in case a header lies.
  limitInputPixels: MAX_IMAGE_PIXELS,
  // Untrusted input: abort on any decoder warning (truncated or corrupt data).
  failOn: 'warning',
};

const detail = (error: unknown) => (error instanceof Error ? error.message.split('\n')[0] ?? '' : String(error));

/**
 * Checks an image without decoding its pixels: the format by magic bytes, then the header's
 * dimensions (after EXIF orientation) against the limits. Throws `ImageError`: `UNSUPPORTED` (not
 * PNG, JPEG, WebP or HEIC), `UNREADABLE` (a header sharp cannot read), `TOO_LARGE`, `TOO_SMALL`.
 */
export async function openImage(bytes: Buffer): Promise<OpenedImage> {
  const format = sniffImage(bytes);
  if (format === null) throw new ImageError('UNSUPPORTED', 'not a PNG, JPEG, WebP or HEIC image');

  let metadata: Metadata;
  try {
    // Header only: no pixel limit here, so that an oversized image is reported as TOO_LARGE.
    metadata = await sharp(bytes, { ...OPTIONS, limitInputPixels: false }).metadata();
  } catch (error) {
    throw new ImageError('UNREADABLE', `cannot read the ${format} header: ${detail(error)}`);
  }
  const { width, height } = metadata.autoOrient;
  if (!(width > 0 && height > 0)) throw new ImageError('UNREADABLE', `the ${format} header has no dimensions`);
  if (width * height > MAX_IMAGE_PIXELS) {
    throw new ImageError('TOO_LARGE', `${width}×${height} is over ${MAX_IMAGE_PIXELS / 1_000_000} megapixels`);
  }
  if (width < MIN_IMAGE_SIDE || height < MIN_IMAGE_SIDE) {
    throw new ImageError('TOO_SMALL', `${width}×${height} has a side under ${MIN_IMAGE_SIDE} pixels`);
  }

  return {
    format,
    width,
    height,
    pipeline: () => sharp(bytes, OPTIONS).autoOrient(),
    async toBuffer(image) {
      try {
        return await image.toBuffer({ resolveWithObject: true });
      } catch (error) {
        if (format === 'heic') throw new ImageError('UNSUPPORTED', `this build cannot decode HEIC images: ${detail(error)}`);
        throw new ImageError('UNREADABLE', `cannot decode the ${format} image: ${detail(error)}`);
      }
    },
  };
}

/**
 * Decodes a PNG, JPEG, WebP or HEIC image to 8-bit RGBA, turned upright by its EXIF orientation
 * (so `width` and `height` are as displayed). Throws `ImageError` (see `openImage`; decoding
 * failures are `UNREADABLE`, or `UNSUPPORTED` for HEIC when the decoder is missing).
 */
export async function decodeImage(bytes: Buffer): Promise<DecodedImage> {
  const image = await openImage(bytes);
  const { data, info } = await image.toBuffer(image.pipeline().toColourspace('srgb').ensureAlpha().raw({ depth: 'uchar' }));
  if (info.channels !== 4 || data.length !== info.width * info.height * 4) {
    throw new ImageError('UNREADABLE', `unexpected decoder output: ${info.width}×${info.height}×${info.channels}`);
  }
  return { width: info.width, height: info.height, data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length) };
}
