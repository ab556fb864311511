// ZXing-C++ (zxing-wasm) as a QR decoder for the slip reader. The WebAssembly binary is read from
// node_modules (zxing-wasm/reader/zxing_reader.wasm) and handed to the module before its first use:
// zxing-wasm would otherwise fetch it from a CDN, and the server never downloads code.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes, type ReaderOptions } from 'zxing-wasm/reader';
import type { Grey } from './qr-reader';

let loaded: Promise<unknown> | undefined;

/** Instantiates the wasm module once per thread (about 30 ms), from the file in node_modules. */
export function loadZxing(): Promise<unknown> {
  loaded ??= (async () => {
    const file = createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');
    const bytes = readFileSync(file);
    const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    return prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
  })();
  return loaded;
}

/** Grey pixels as the RGBA ImageData shape zxing-wasm takes. */
type ZxingInput = Parameters<typeof readBarcodes>[0];

function imageData(grey: Grey): ZxingInput {
  const rgba = new Uint8ClampedArray(grey.width * grey.height * 4);
  for (let i = 0, j = 0; i < grey.data.length; i++, j += 4) {
    const v = grey.data[i] ?? 0;
    rgba[j] = v;
    rgba[j + 1] = v;
    rgba[j + 2] = v;
    rgba[j + 3] = 255;
  }
  // Duck-typed: zxing-wasm reads width, height and data (there is no ImageData class in Node).
  return { data: rgba, width: grey.width, height: grey.height, colorSpace: 'srgb' } as unknown as ZxingInput;
}

/** QR codes only, one is enough. */
const BASE_OPTIONS: ReaderOptions = { formats: ['QRCode'], maxNumberOfSymbols: 1 };

/** Reads a QR in a grey image with ZXing: its text or null. `thorough` adds inverted, rotated and downscaled tries. */
export async function zxingRead(grey: Grey, thorough: boolean): Promise<string | null> {
  await loadZxing();
  const options: ReaderOptions = thorough
    ? { ...BASE_OPTIONS, tryHarder: true, tryInvert: true, tryRotate: false, tryDownscale: true }
    : { ...BASE_OPTIONS, tryHarder: true, tryInvert: false, tryRotate: false, tryDownscale: false };
  const found = await readBarcodes(imageData(grey), options);
  const text = found[0]?.text;
  return text ? text : null;
}
