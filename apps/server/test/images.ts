import sharp from 'sharp';
import { qrMatrix } from '../src/lib/qr-svg';

/** A PNG of a QR for this text (4 px modules, quiet zone) on a white page, as a plain photo of a code. */
export async function qrPng(text: string): Promise<Buffer> {
  const matrix = qrMatrix(text);
  const scale = 4;
  const size = (matrix.length + 8) * scale;
  const pixels = Buffer.alloc(size * size, 255);
  matrix.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (!dark) return;
      for (let dy = 0; dy < scale; dy++) for (let dx = 0; dx < scale; dx++) pixels[((y + 4) * scale + dy) * size + (x + 4) * scale + dx] = 0;
    }),
  );
  return sharp(pixels, { raw: { width: size, height: size, channels: 1 } }).extend({ top: 200, bottom: 200, left: 100, right: 100, background: '#ffffff' }).png().toBuffer();
}
