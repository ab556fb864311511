// Slip verification benchmark (part of `npm run bench`): the time from sending a 1080×2340 JPEG
// phone screenshot of a slip to POST /api/wallet/slip until the answer — the slip's QR found and
// read on the server (in its worker threads), the transfer looked up at the (sandbox) bank, the
// checks and the credit. Each upload is a fresh transfer of the demo member into the demo GSB
// account (checked by staff, so no bank feed credits it first), one upload at a time, after a few
// warm-up uploads. `slipLoadBench`: what 8 uploads at once do to the other calls of the server.
import sharp from 'sharp';

/** A phone screenshot: status bar, the banking app's slip scaled to the width, the app's bottom bar; JPEG 85. */
async function phoneScreenshot(slipPng) {
  const slip = await sharp(slipPng).resize({ width: 1080 }).toBuffer();
  const { height } = await sharp(slip).metadata();
  const bar = (h, colour) => sharp({ create: { width: 1080, height: h, channels: 3, background: colour } }).png().toBuffer();
  return sharp({ create: { width: 1080, height: 2340, channels: 3, background: '#f2f3f5' } })
    .composite([
      { input: await bar(96, '#111418'), top: 0, left: 0 },
      { input: slip, top: 200, left: 0 },
      { input: await bar(180, '#ffffff'), top: Math.min(2340 - 180, 200 + height + 120), left: 0 },
    ])
    .jpeg({ quality: 85 })
    .toBuffer();
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Runs against a started server at `base` (sandbox bank on) as the member `token` whose registered
 * account is `from`. Answers { median, p95, count, credited, bytes } (times in ms).
 */
export async function slipBench(base, token, from, { uploads = 40, warmup = 4 } = {}) {
  const auth = { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' };
  const times = [];
  let credited = 0;
  let bytes = 0;
  for (let i = 0; i < uploads + warmup; i++) {
    const transfer = await (
      await fetch(`${base}/api/sandbox/bank/transfers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ fromBankCode: from.bankCode, fromAccountNo: from.accountNo, toBankCode: 'GSB', toAccountNo: '020123456789', amount: 100 + i }),
      })
    ).json();
    const png = Buffer.from(await (await fetch(`${base}/api/sandbox/bank/transfers/${transfer.transRef}/slip.png`)).arrayBuffer());
    const jpeg = await phoneScreenshot(png);
    bytes = jpeg.length;
    const form = new FormData();
    form.append('file', new Blob([jpeg], { type: 'image/jpeg' }), 'Screenshot.jpg');
    const started = performance.now();
    const answer = await fetch(`${base}/api/wallet/slip`, { method: 'POST', headers: auth, body: form });
    const body = await answer.json();
    const ms = performance.now() - started;
    if (i < warmup) continue;
    times.push(ms);
    if (answer.ok && body.status === 'SUCCESS') credited += 1;
  }
  times.sort((a, b) => a - b);
  return { median: Math.round(percentile(times, 50)), p95: Math.round(percentile(times, 95)), count: times.length, credited, bytes };
}

/** Wallet reads by `clients` clients, one after another each, until `until` settles: each one's latency (ms). */
async function walletReads(base, auth, until, clients = 4) {
  const latencies = [];
  let done = false;
  void until.finally(() => {
    done = true;
  });
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (!done) {
        const started = performance.now();
        const answer = await fetch(`${base}/api/wallet`, { headers: auth });
        await answer.arrayBuffer();
        latencies.push(performance.now() - started);
        if (!answer.ok) throw new Error(`GET /api/wallet answered ${answer.status}`);
      }
    }),
  );
  return latencies;
}

/**
 * 8 slips verified at once, `rounds` times, while 4 clients read GET /api/wallet without pause:
 * the wallet reads' p99 then (budget 50 ms), and alone for comparison; each round's 8 uploads'
 * times. Answers { walletP99, walletP50, aloneP99, slipP95, slipMax, credited, count, reads }.
 */
export async function slipLoadBench(base, token, from, { rounds = 5, atOnce = 8 } = {}) {
  const auth = { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' };
  const during = [];
  const alone = [];
  const slips = [];
  let credited = 0;
  for (let round = 0; round < rounds; round++) {
    const images = [];
    for (let i = 0; i < atOnce; i++) {
      const transfer = await (
        await fetch(`${base}/api/sandbox/bank/transfers`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ fromBankCode: from.bankCode, fromAccountNo: from.accountNo, toBankCode: 'GSB', toAccountNo: '020123456789', amount: 200 + round * atOnce + i }),
        })
      ).json();
      const png = Buffer.from(await (await fetch(`${base}/api/sandbox/bank/transfers/${transfer.transRef}/slip.png`)).arrayBuffer());
      images.push(await phoneScreenshot(png));
    }
    alone.push(...(await walletReads(base, auth, new Promise((resolve) => setTimeout(resolve, 1000)))));
    const uploads = Promise.all(
      images.map(async (jpeg) => {
        const form = new FormData();
        form.append('file', new Blob([jpeg], { type: 'image/jpeg' }), 'Screenshot.jpg');
        const started = performance.now();
        const answer = await fetch(`${base}/api/wallet/slip`, { method: 'POST', headers: auth, body: form });
        const body = await answer.json();
        slips.push(performance.now() - started);
        if (answer.ok && body.status === 'SUCCESS') credited += 1;
      }),
    );
    during.push(...(await walletReads(base, auth, uploads)));
    await uploads;
  }
  during.sort((a, b) => a - b);
  alone.sort((a, b) => a - b);
  slips.sort((a, b) => a - b);
  return {
    walletP99: Math.round(percentile(during, 99)),
    walletP50: Math.round(percentile(during, 50)),
    aloneP99: Math.round(percentile(alone, 99)),
    slipP95: Math.round(percentile(slips, 95)),
    slipMax: Math.round(slips.at(-1)),
    credited,
    count: slips.length,
    reads: during.length,
  };
}
