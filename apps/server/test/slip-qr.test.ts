import { deflateSync } from 'node:zlib';
import jsQR from 'jsqr';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSlipPayload, buildThaiQr, EmvcoError, parseSlipPayload } from '../src/lib/emvco';
import { decodeImage, ImageError, type ImageErrorReason, sniffImage } from '../src/providers/slips/image';
import { readSlipQr } from '../src/providers/slips/qr-reader';
import { renderSlipImage, type SlipImageInput } from '../src/lib/slip-image';
import { exifRotated, screenshot, seeded, size, TRANSFORMS } from './slip-corpus';

/** Where jsQR finds the QR in a decoded image: its left and top edges and its width, in pixels. */
async function qrBox(image: Buffer): Promise<{ left: number; top: number; width: number }> {
  const { width, height, data } = await decodeImage(image);
  const found = jsQR(data, width, height);
  if (found === null) throw new Error('no QR in the rendered slip');
  const { topLeftCorner, topRightCorner, bottomLeftCorner } = found.location;
  return { left: Math.min(topLeftCorner.x, bottomLeftCorner.x), top: Math.min(topLeftCorner.y, topRightCorner.y), width: topRightCorner.x - topLeftCorner.x };
}

/** Paints over part of the rendered QR (white, or seeded black and white squares). */
async function paintOver(image: Buffer, box: { left: number; top: number; width: number; height: number }, seed: number | null): Promise<Buffer> {
  let patch: Buffer;
  if (seed === null) {
    patch = await sharp({ create: { width: box.width, height: box.height, channels: 3, background: '#ffffff' } }).png().toBuffer();
  } else {
    const random = seeded(seed);
    const cell = 6;
    const columns = Math.ceil(box.width / cell);
    const cells = Array.from({ length: columns * Math.ceil(box.height / cell) }, () => random() < 0.5);
    const pixels = Buffer.alloc(box.width * box.height);
    for (let y = 0; y < box.height; y++) {
      for (let x = 0; x < box.width; x++) pixels[y * box.width + x] = cells[Math.floor(y / cell) * columns + Math.floor(x / cell)] ? 0 : 255;
    }
    patch = await sharp(pixels, { raw: { width: box.width, height: box.height, channels: 1 } }).png().toBuffer();
  }
  return sharp(image)
    .composite([{ input: patch, left: box.left, top: box.top }])
    .png()
    .toBuffer();
}

/** A PNG made of a signature, an IHDR claiming `width`×`height` RGBA, a tiny IDAT and IEND. */
function pngHeader(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real 256×256 HEIC (HEVC) image, made with libheif's heif-enc (x265). */
const HEIC_256 = Buffer.from(
  'AAAAHGZ0eXBoZWljAAAAAG1pZjFoZWljbWlhZgAAAUNtZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAA' +
    'AA5waXRtAAAAAAABAAAAImlsb2MAAAAAREAAAQABAAAAAAFnAAEAAAAAAAAAUgAAACNpaW5mAAAAAAABAAAAFWluZmUCAAAAAAEA' +
    'AGh2YzEAAAAAw2lwcnAAAAClaXBjbwAAAHlodmNDAQNwAAAAAAAAAAAAPPAA/P34+AAADwMgAAEAGEABDAH//wNwAAADAJAAAAMA' +
    'AAMAPLoCQCEAAQAsQgEBA3AAAAMAkAAAAwAAAwA8oAgIBAWW6kkprm4EBAwIAAADAAgAAAMACEAiAAEAB0QBwXKwYkAAAAAUaXNw' +
    'ZQAAAAAAAAEAAAABAAAAABBwaXhpAAAAAAMICAgAAAAWaXBtYQAAAAAAAAABAAEDgQKDAAAAWm1kYXQAAABOKAGvEyF61kDmqHDT' +
    '/4lH/3B6v/NzStJ5vZDua7O2YEUtpQAAD4ijAiltKAAARoAAlAAKyJMAAMcABzAAAAMAtICHAAADAAADAAADAAaU',
  'base64',
);

async function imageError(promise: Promise<unknown>): Promise<ImageErrorReason> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ImageError) return error.reason;
    throw error;
  }
  throw new Error('expected an ImageError');
}

function slipInput(sendingBank: string, transRef: string, bankCode: string): SlipImageInput & { sendingBank: string } {
  return {
    sendingBank,
    bankCode,
    fromName: 'Somchai Jaidee',
    fromAccountMasked: 'xxx-x-x1234-x',
    toName: 'MW Wallet Co., Ltd.',
    toAccountMasked: 'xxx-x-x5678-x',
    amount: '1500',
    at: new Date('2026-03-12T07:32:00Z'),
    transRef,
    payload: buildSlipPayload({ sendingBank, transRef }),
  };
}

// Two slips: a KBANK-style 25-character reference and a longer SCB one (a bigger QR version).
const SLIPS = [slipInput('004', '016123141523BPM08237', 'KBANK'), slipInput('014', '2026031214320012345678ABCDEFGH', 'SCB')] as const;
const rendered = new Map<string, Buffer>();
const pngOf = (slip: SlipImageInput) => {
  const png = rendered.get(slip.transRef);
  if (png === undefined) throw new Error('slip not rendered');
  return png;
};

beforeAll(async () => {
  for (const slip of SLIPS) rendered.set(slip.transRef, await renderSlipImage(slip));
});

// ------------------------------------------------------------------------------------------------

describe('renderSlipImage', () => {
  it('renders a 720×1000 PNG with the QR in the bottom right, a quarter of the width', async () => {
    const png = pngOf(SLIPS[0]);
    expect(sniffImage(png)).toBe('png');
    expect(await size(png)).toEqual({ width: 720, height: 1000 });
    const box = await qrBox(png);
    expect(box.width / 720).toBeGreaterThan(0.2);
    expect(box.width / 720).toBeLessThan(0.3);
    expect(box.left).toBeGreaterThan(720 / 2);
    expect(box.top).toBeGreaterThan(1000 / 2);
  });

  it('is deterministic and honours the width option', async () => {
    expect((await renderSlipImage(SLIPS[0])).equals(pngOf(SLIPS[0]))).toBe(true);
    const wide = await renderSlipImage(SLIPS[1], { width: 1080 });
    expect(await size(wide)).toEqual({ width: 1080, height: 1500 });
    expect((await readSlipQr(wide))?.text).toBe(SLIPS[1].payload);
  });

  it('escapes text and survives unknown banks and non-Latin names', async () => {
    const png = await renderSlipImage({ ...SLIPS[0], bankCode: 'XYZ', fromName: 'นาย สมชาย <ใจดี> & "co"', amount: 'n/a' }, { width: 360 });
    expect(await size(png)).toEqual({ width: 360, height: 500 });
    expect((await readSlipQr(png))?.text).toBe(SLIPS[0].payload);
  });

  it('refuses a bad width', async () => {
    await expect(renderSlipImage(SLIPS[0], { width: 100 })).rejects.toThrow(RangeError);
    await expect(renderSlipImage(SLIPS[0], { width: 720.5 })).rejects.toThrow(RangeError);
  });
});


describe('readSlipQr finds the exact payload', () => {
  for (const slip of SLIPS) {
    it.each(TRANSFORMS)(`${slip.bankCode}: %s`, async (_name, transform) => {
      const image = await transform(pngOf(slip));
      const found = await readSlipQr(image);
      expect(found?.text).toBe(slip.payload);
      expect(parseSlipPayload(found?.text ?? '')).toEqual({ sendingBank: slip.sendingBank, transRef: slip.transRef });
    });
  }

  it('turns an EXIF-oriented image upright before decoding', async () => {
    const stored = await exifRotated(pngOf(SLIPS[0]));
    expect(await size(stored)).toEqual({ width: 1000, height: 720 });
    const decoded = await decodeImage(stored);
    expect([decoded.width, decoded.height]).toEqual([720, 1000]);
  });
});

describe('readSlipQr negative cases', () => {
  it('returns null for an image without a QR', async () => {
    const png = pngOf(SLIPS[0]);
    const box = await qrBox(png);
    const blank = await paintOver(png, { left: Math.floor(box.left) - 12, top: Math.floor(box.top) - 12, width: Math.ceil(box.width) + 24, height: Math.ceil(box.width) + 24 }, null);
    expect(await readSlipQr(blank)).toBeNull();
    expect(await readSlipQr(await screenshot(blank))).toBeNull();
    const plain = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#e0e4e8' } }).png().toBuffer();
    expect(await readSlipQr(plain)).toBeNull();
  });

  it('returns the text of a QR that is not a slip: the caller decides (NOT_SLIP)', async () => {
    const promptpay = buildThaiQr({ merchant: { kind: 'promptpay', target: '0812345678' }, amountSatang: 150_000 });
    const png = await renderSlipImage({ ...SLIPS[0], payload: promptpay });
    const found = await readSlipQr(png);
    expect(found?.text).toBe(promptpay);
    let reason: string | null = null;
    try {
      parseSlipPayload(found?.text ?? '');
    } catch (error) {
      if (error instanceof EmvcoError) reason = error.reason;
    }
    expect(reason).toBe('NOT_SLIP');
  });

  it('returns null for a damaged QR', async () => {
    const png = pngOf(SLIPS[0]);
    const box = await qrBox(png);
    // The middle of the symbol (a quarter of its area) scribbled over: beyond level M's ~15%.
    const quarter = Math.round(box.width / 4);
    const damaged = await paintOver(png, { left: Math.round(box.left) + quarter, top: Math.round(box.top) + quarter, width: 2 * quarter, height: 2 * quarter }, 7);
    expect(await readSlipQr(damaged)).toBeNull();
  });

  it('refuses what is not an image with a typed error', async () => {
    expect(await imageError(readSlipQr(Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n')))).toBe('UNSUPPORTED');
    expect(await imageError(readSlipQr(Buffer.alloc(0)))).toBe('UNSUPPORTED');
  });
});

describe('sniffImage', () => {
  it('recognises PNG, JPEG, WebP and HEIC by their magic bytes', async () => {
    const base = sharp({ create: { width: 80, height: 80, channels: 3, background: '#3a6' } });
    expect(sniffImage(await base.clone().png().toBuffer())).toBe('png');
    expect(sniffImage(await base.clone().jpeg().toBuffer())).toBe('jpeg');
    expect(sniffImage(await base.clone().webp().toBuffer())).toBe('webp');
    expect(sniffImage(HEIC_256)).toBe('heic');
    // Not in the list: AVIF (same container, AV1 inside) and GIF.
    expect(sniffImage(await base.clone().avif().toBuffer())).toBeNull();
    expect(sniffImage(await base.clone().gif().toBuffer())).toBeNull();
  });

  it('returns null for a PDF, a ZIP, text and an empty buffer', () => {
    expect(sniffImage(Buffer.from('%PDF-1.7\n%âãÏÓ\n', 'latin1'))).toBeNull();
    expect(sniffImage(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00]))).toBeNull();
    expect(sniffImage(Buffer.from('slip.png: definitely an image', 'utf8'))).toBeNull();
    expect(sniffImage(Buffer.alloc(0))).toBeNull();
    expect(sniffImage(Buffer.from([0x89, 0x50, 0x4e]))).toBeNull();
  });
});

describe('decodeImage', () => {
  it('decodes to upright RGBA, greyscale included', async () => {
    const grey = await sharp(Buffer.alloc(100 * 70, 128), { raw: { width: 100, height: 70, channels: 1 } }).png().toBuffer();
    const decoded = await decodeImage(grey);
    expect([decoded.width, decoded.height, decoded.data.length]).toEqual([100, 70, 100 * 70 * 4]);
    expect(Array.from(decoded.data.subarray(0, 4))).toEqual([128, 128, 128, 255]);
  });

  it('refuses a truncated PNG as UNREADABLE', async () => {
    const png = pngOf(SLIPS[0]);
    expect(await imageError(decodeImage(png.subarray(0, Math.floor(png.length * 0.6))))).toBe('UNREADABLE');
    expect(await imageError(decodeImage(png.subarray(0, 20)))).toBe('UNREADABLE');
  });

  it('refuses a 10000×10000 image from its header as TOO_LARGE', async () => {
    expect(await imageError(decodeImage(pngHeader(10_000, 10_000)))).toBe('TOO_LARGE');
    expect(await imageError(readSlipQr(pngHeader(10_000, 10_000)))).toBe('TOO_LARGE');
  });

  it('refuses a 20×20 image as TOO_SMALL', async () => {
    const tiny = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#fff' } }).png().toBuffer();
    expect(await imageError(decodeImage(tiny))).toBe('TOO_SMALL');
    const narrow = await sharp({ create: { width: 500, height: 63, channels: 3, background: '#fff' } }).png().toBuffer();
    expect(await imageError(decodeImage(narrow))).toBe('TOO_SMALL');
  });

  it('refuses HEIC as UNSUPPORTED: the prebuilt libvips has no HEVC decoder', async () => {
    expect(await imageError(decodeImage(HEIC_256))).toBe('UNSUPPORTED');
    expect(await imageError(readSlipQr(HEIC_256))).toBe('UNSUPPORTED');
  });

  it('refuses formats it does not accept as UNSUPPORTED', async () => {
    const gif = await sharp({ create: { width: 80, height: 80, channels: 3, background: '#3a6' } }).gif().toBuffer();
    expect(await imageError(decodeImage(gif))).toBe('UNSUPPORTED');
    expect(await imageError(decodeImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"/>')))).toBe('UNSUPPORTED');
  });
});
