// The slip readers' worker thread (see reader-pool.ts): decodes an uploaded image and finds its QR
// off the server's event loop. Answers plain data (a class instance such as ImageError does not
// cross threads): the QR's text, null when there is none, or the image's refusal.
import sharp from 'sharp';
import { ImageError, type ImageErrorReason } from './image';
import { readSlipQr } from './qr-reader';
import { loadZxing } from './zxing';

/** What a worker answers for one image. */
export type SlipReadAnswer = { ok: true; text: string | null } | { ok: false; reason: ImageErrorReason; message: string };

export default async function readSlip(task: { bytes: Uint8Array }): Promise<SlipReadAnswer> {
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  try {
    const found = await readSlipQr(bytes);
    return { ok: true, text: found?.text ?? null };
  } catch (error) {
    if (error instanceof ImageError) return { ok: false, reason: error.reason, message: error.message };
    throw error;
  }
}

// One libvips thread per image: the pool's threads are the parallelism, and the cores stay free
// for the main thread. (A libvips setting of the whole process; only slips use sharp.)
sharp.concurrency(1);

// The wasm decoder is instantiated as the thread starts, not with its first slip (a failure
// shows with the first slip: loadZxing keeps the rejected promise).
loadZxing().catch(() => undefined);
