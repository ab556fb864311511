// The slip corpus: deterministic transformations of a rendered slip as members send them (chat-app
// JPEGs, scaled, cropped, rotated, photographed, screenshots, dark mode). Used by the QR reader's
// tests (slip-qr.test.ts) and by the decoder comparison (slip-decoders.ts, see the README).
import sharp from 'sharp';

/** mulberry32: a small seeded PRNG, so "random" noise is the same on every run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const size = async (image: Buffer) => {
  const { width, height } = await sharp(image).metadata();
  return { width, height };
};

export const jpeg = (image: Buffer, quality: number) => sharp(image).jpeg({ quality }).toBuffer();

export async function scaled(image: Buffer, factor: number): Promise<Buffer> {
  const { width } = await size(image);
  return sharp(image).resize(Math.round(width * factor)).png().toBuffer();
}

export async function lowerHalf(image: Buffer): Promise<Buffer> {
  const { width, height } = await size(image);
  const top = Math.floor(height / 2);
  return sharp(image).extract({ left: 0, top, width, height: height - top }).png().toBuffer();
}

/** Stored turned 90° anticlockwise, with EXIF orientation 6 ("turn 90° clockwise to show"). */
export const exifRotated = (image: Buffer) => sharp(image).rotate(270).withMetadata({ orientation: 6 }).jpeg({ quality: 90 }).toBuffer();

/** Adds seeded, roughly Gaussian noise (sum of three uniforms) of the given amplitude to every channel. */
export async function noisy(image: Buffer, seed: number, amplitude: number): Promise<Buffer> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const random = seeded(seed);
  for (let i = 0; i < data.length; i++) {
    const noise = (random() + random() + random() - 1.5) * amplitude;
    data[i] = Math.max(0, Math.min(255, Math.round((data[i] ?? 0) + noise)));
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).png().toBuffer();
}

/** A phone photo of the slip: turned 4°, on a grey table, sensor noise, slightly out of focus, JPEG 70. */
export async function phonePhoto(image: Buffer, seed: number): Promise<Buffer> {
  const turned = await sharp(image).rotate(4, { background: '#ffffff' }).png().toBuffer();
  const { width, height } = await size(turned);
  const onTable = await sharp({ create: { width: width + 300, height: height + 360, channels: 3, background: '#7a7d80' } })
    .composite([{ input: turned, left: 140, top: 170 }])
    .png()
    .toBuffer();
  return sharp(await noisy(onTable, seed, 24))
    .blur(0.8)
    .jpeg({ quality: 70 })
    .toBuffer();
}

/** A phone screenshot: 1080×2340, status bar, the slip 1000 px wide in the middle. */
export async function screenshot(image: Buffer): Promise<Buffer> {
  const slip = await sharp(image).resize(1000).png().toBuffer();
  const { height } = await size(slip);
  const statusBar = await sharp({ create: { width: 1080, height: 90, channels: 3, background: '#202124' } }).png().toBuffer();
  return sharp({ create: { width: 1080, height: 2340, channels: 3, background: '#f2f3f5' } })
    .composite([
      { input: statusBar, left: 0, top: 0 },
      { input: slip, left: 40, top: Math.round((2340 - height) / 2) },
    ])
    .png()
    .toBuffer();
}


export const TRANSFORMS: [name: string, transform: (png: Buffer) => Promise<Buffer>][] = [
  ['the PNG as rendered', async (png) => png],
  ['a JPEG re-encode at quality 60', (png) => jpeg(png, 60)],
  ['JPEG 60 then again at 35 (two chat apps)', async (png) => jpeg(await jpeg(png, 60), 35)],
  ['scaled down to 50%', (png) => scaled(png, 0.5)],
  ['scaled down to 33%', (png) => scaled(png, 0.33)],
  ['cropped to the lower half', lowerHalf],
  ['stored rotated with EXIF orientation 6', exifRotated],
  ['a phone photo (4°, grey table, noise, blur 0.8, JPEG 70)', (png) => phonePhoto(png, 42)],
  ['a screenshot padded into 1080×2340', screenshot],
  ['a dark-mode (inverted) slip', (png) => sharp(png).negate({ alpha: false }).png().toBuffer()],
];

/** A phone photo at another angle and noise: turned `degrees`, on a table, noise `amplitude`, blur, JPEG `quality`. */
export async function harshPhoto(image: Buffer, seed: number, degrees: number, amplitude: number, blur: number, quality: number): Promise<Buffer> {
  const turned = await sharp(image).rotate(degrees, { background: '#ffffff' }).png().toBuffer();
  const { width, height } = await size(turned);
  const onTable = await sharp({ create: { width: width + 300, height: height + 360, channels: 3, background: '#6b6e70' } })
    .composite([{ input: turned, left: 140, top: 170 }])
    .png()
    .toBuffer();
  return sharp(await noisy(onTable, seed, amplitude))
    .blur(blur)
    .jpeg({ quality })
    .toBuffer();
}

/** Darkened by a shadow falling from the left (a hand or a phone over the slip): half the light at the left edge. */
export async function shadowed(image: Buffer): Promise<Buffer> {
  const { width, height } = await size(image);
  const gradient = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="#808080"/><stop offset="1" stop-color="#fff"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
  );
  return sharp(image).composite([{ input: gradient, blend: 'multiply' }]).png().toBuffer();
}

/** As a chat app re-sends a picture: scaled to `width` pixels wide, JPEG `quality`. */
export const chatApp = (image: Buffer, width: number, quality: number) => sharp(image).resize({ width }).jpeg({ quality }).toBuffer();

/**
 * Harder cases, for comparing QR decoders (slip-decoders.ts) rather than for asserting: steeper
 * and noisier photos, small chat-app copies, heavy JPEG, screenshots of a small slip, tight crops.
 */
export const HARDER: [name: string, transform: (png: Buffer) => Promise<Buffer>][] = [
  ['photo 12°, noise 32, blur 1.0, JPEG 60', (png) => harshPhoto(png, 7, 12, 32, 1.0, 60)],
  ['photo 27°, noise 24, blur 0.8, JPEG 70', (png) => harshPhoto(png, 8, 27, 24, 0.8, 70)],
  ['photo 45°, noise 16, blur 0.6, JPEG 75', (png) => harshPhoto(png, 9, 45, 16, 0.6, 75)],
  ['photo -8°, noise 48, blur 1.4, JPEG 50', (png) => harshPhoto(png, 10, -8, 48, 1.4, 50)],
  ['photo 3°, noise 40, blur 2.0, JPEG 45', (png) => harshPhoto(png, 11, 3, 40, 2.0, 45)],
  ['chat app 480 px JPEG 40', (png) => chatApp(png, 480, 40)],
  ['chat app 360 px JPEG 50', (png) => chatApp(png, 360, 50)],
  ['chat app 300 px JPEG 60', (png) => chatApp(png, 300, 60)],
  ['chat app 240 px JPEG 70', (png) => chatApp(png, 240, 70)],
  ['JPEG 20', (png) => jpeg(png, 20)],
  ['JPEG 12', (png) => jpeg(png, 12)],
  ['screenshot, then chat app 720 px JPEG 45', async (png) => chatApp(await screenshot(png), 720, 45)],
  ['screenshot, then chat app 540 px JPEG 55', async (png) => chatApp(await screenshot(png), 540, 55)],
  ['dark mode, chat app 400 px JPEG 45', async (png) => chatApp(await sharp(png).negate({ alpha: false }).png().toBuffer(), 400, 45)],
  ['photo of a dark-mode slip, 6°, noise 28, JPEG 60', async (png) => harshPhoto(await sharp(png).negate({ alpha: false }).png().toBuffer(), 12, 6, 28, 0.9, 60)],
  ['chat app 200 px JPEG 60', (png) => chatApp(png, 200, 60)],
  ['chat app 170 px JPEG 80', (png) => chatApp(png, 170, 80)],
  ['photo 5°, noise 64, blur 1.6, JPEG 40', (png) => harshPhoto(png, 13, 5, 64, 1.6, 40)],
  ['photo 2°, noise 20, blur 3.0, JPEG 60', (png) => harshPhoto(png, 14, 2, 20, 3.0, 60)],
  ['sheared (a photo at a slant), noise 24, JPEG 60', async (png) => harshPhoto(await sharp(png).affine([[1, 0.18], [0.06, 1]], { background: '#ffffff' }).png().toBuffer(), 15, 2, 24, 0.8, 60)],
  ['washed out (grey 110-150), JPEG 55', async (png) => jpeg(await sharp(png).linear(40 / 255, 110).png().toBuffer(), 55)],
  ['a shadow across the slip, noise 20, JPEG 60', async (png) => harshPhoto(await shadowed(png), 16, 3, 20, 0.8, 60)],
  ['cropped to the QR corner, JPEG 50', async (png) => {
    const { width, height } = await size(png);
    return sharp(png).extract({ left: Math.round(width * 0.55), top: Math.round(height * 0.55), width: width - Math.round(width * 0.55), height: height - Math.round(height * 0.55) }).jpeg({ quality: 50 }).toBuffer();
  }],
];
