// Compares QR decoders on the slip corpus (slip-corpus.ts: the tests' transformations plus harder
// ones, for two slips): how many each reads and how long each takes, one image at a time on this
// thread, the best of three runs of each. `npm run bench:decoders`; the figures are in the README ("Slip reading").
//
//   jsqr          the passes (regions, whole image, median, inverted) with jsQR: the reader before
//   zxing-whole   ZXing once on the whole upright image (≤ 2400 px), with its inverted and
//                 downscaled tries
//   zxing         the same passes with ZXing, then ZXing's slower tries on the whole image at
//                 ≤ 1600 px when nothing was found: the reader the server uses (qr-reader.ts)
import { buildSlipPayload } from '../src/lib/emvco';
import jsQR from 'jsqr';
import { defaultPasses, readSlipQr, type Grey, type QrDecoder, type QrPass } from '../src/providers/slips/qr-reader';
import { renderSlipImage, type SlipImageInput } from '../src/lib/slip-image';
import { loadZxing } from '../src/providers/slips/zxing';
import { HARDER, TRANSFORMS } from './slip-corpus';

const slip = (sendingBank: string, transRef: string, bankCode: string): SlipImageInput => ({
  bankCode,
  fromName: 'Somchai Jaidee',
  fromAccountMasked: 'xxx-x-x1234-x',
  toName: 'MW Wallet Co., Ltd.',
  toAccountMasked: 'xxx-x-x5678-x',
  amount: '1500',
  at: new Date('2026-03-12T07:32:00Z'),
  transRef,
  payload: buildSlipPayload({ sendingBank, transRef }),
});

const SLIPS = [slip('004', '016123141523BPM08237', 'KBANK'), slip('014', '2026031214320012345678ABCDEFGH', 'SCB')];
const wholeOnly = (base: Grey): QrPass[] => [{ name: 'whole', left: 0, top: 0, width: 1, height: 1, side: Math.max(base.width, base.height), thorough: true }];

/** jsQR as the reader called it (inverted pixels are made by the passes: jsQR 1.4.0 crashes on 'onlyInvert'). */
const jsqr: QrDecoder = (grey) => {
  const rgba = new Uint8ClampedArray(grey.width * grey.height * 4);
  for (let i = 0, j = 0; i < grey.data.length; i++, j += 4) {
    const v = grey.data[i] ?? 0;
    rgba[j] = v;
    rgba[j + 1] = v;
    rgba[j + 2] = v;
    rgba[j + 3] = 255;
  }
  const found = jsQR(rgba, grey.width, grey.height, { inversionAttempts: 'dontInvert' });
  return found === null || found.data.length === 0 ? null : found.data;
};

const DECODERS: { name: string; read: (image: Buffer) => Promise<{ text: string } | null> }[] = [
  { name: 'jsqr', read: (image) => readSlipQr(image, { decoder: jsqr, passes: (base) => defaultPasses(base).filter((pass) => !pass.thorough) }) },
  { name: 'zxing-whole', read: (image) => readSlipQr(image, { passes: wholeOnly }) },
  { name: 'zxing', read: (image) => readSlipQr(image) },
];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

async function main() {
  await loadZxing();
  const cases: { group: string; name: string; image: Buffer; payload: string }[] = [];
  for (const input of SLIPS) {
    const png = await renderSlipImage(input);
    for (const [name, transform] of TRANSFORMS) cases.push({ group: 'tests', name: `${input.bankCode}: ${name}`, image: await transform(png), payload: input.payload });
    for (const [name, transform] of HARDER) cases.push({ group: 'harder', name: `${input.bankCode}: ${name}`, image: await transform(png), payload: input.payload });
  }
  // Warm up each decoder (JIT, wasm instantiation, sharp) on one image.
  for (const decoder of DECODERS) await decoder.read(cases[0]?.image ?? Buffer.alloc(0));

  const verbose = process.argv.includes('--verbose');
  const rows: string[] = [];
  for (const decoder of DECODERS) {
    for (const group of ['tests', 'harder']) {
      const mine = cases.filter((c) => c.group === group);
      const times: number[] = [];
      let read = 0;
      for (const c of mine) {
        // The best of three runs: this machine is shared, and the least disturbed run is the decoder's own cost.
        let best = Infinity;
        let found: { text: string } | null = null;
        for (let run = 0; run < 3; run++) {
          const started = performance.now();
          found = await decoder.read(c.image);
          best = Math.min(best, performance.now() - started);
        }
        times.push(best);
        if (found?.text === c.payload) read++;
        else if (verbose) console.log(`  ${decoder.name} missed ${c.name}`);
      }
      times.sort((a, b) => a - b);
      rows.push(`| ${decoder.name} | ${group} | ${read} / ${mine.length} | ${percentile(times, 50).toFixed(0)} | ${percentile(times, 95).toFixed(0)} | ${(times.at(-1) ?? 0).toFixed(0)} |`);
    }
  }
  console.log('| decoder | corpus | read | median ms | p95 ms | max ms |\n|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
}

await main();
