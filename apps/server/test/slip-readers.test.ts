import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultReaderThreads, SlipReaderBusy, SlipReaderPool } from '../src/providers/slips/reader-pool';
import { call, login, registerMember, startApp, type TestApp } from './helpers';

// Slip images are read in worker threads (reader-pool.ts), so reading them does not hold up the
// other calls of the process. Measured here as the issue states it: the p99 latency of wallet
// reads (over HTTP, four clients) made while 8 slips are uploaded at once may lose at most 50 ms
// against the same reads just before with no slip in flight, and the event loop is never held
// for 50 ms. (Measured against the idle reads since a slower host, pgbench 1,500 tps instead of
// 5,000, answers these reads at p99 ≈ 65 ms with no slip at all: the database's time, not the loop's.)
//
// Not flaky on a loaded machine (2 cores, a dozen runnable processes), yet failing when slips are
// read on the event loop:
// - every upload must have been read by the worker threads (the pool's own count): a reader put
//   back on the main thread fails this whatever the machine;
// - the latencies are counted in the main thread's own time: divided by how much slower than its
//   CPU time the main thread ran in that same window (its event loop's active wall time over its
//   CPU time, from /proc; 1 on an idle machine, 5-10 when a dozen processes share the cores).
//   Waiting for a core is then not counted, waiting for other work of this process is: a slip
//   read on the event loop blocks it for 20-100 ms of CPU at a time, 8 of them in a row;
// - up to three attempts: other load only ever adds, so one attempt within the budget shows what
//   the server does.

const BUDGET_MS = 50;
const ATTEMPTS = 3;
const GSB = { bank: 'GSB', no: '020123456789' };

/** multipart/form-data with one file field. */
function multipart(bytes: Buffer): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----mw${Date.now()}${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="Screenshot.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A phone screenshot of the slip, as `npm run bench` sends: 1080×2340, status bar, JPEG 85. */
async function phoneScreenshot(slipPng: Buffer): Promise<Buffer> {
  const slip = await sharp(slipPng).resize({ width: 1080 }).toBuffer();
  const bar = await sharp({ create: { width: 1080, height: 96, channels: 3, background: '#111418' } }).png().toBuffer();
  return sharp({ create: { width: 1080, height: 2340, channels: 3, background: '#f2f3f5' } })
    .composite([
      { input: bar, top: 0, left: 0 },
      { input: slip, top: 200, left: 0 },
    ])
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** CPU time (ms) the main thread has used, from /proc (Linux: utime + stime of the thread whose id is the pid, in 10 ms ticks). */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const p99 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)] ?? 0;
};

describe('slip readers off the event loop', () => {
  let t: TestApp;
  let m: { token: string; bankCode: string; accountNo: string };
  let base = '';
  beforeAll(async () => {
    // On PostgreSQL: what is measured is the slip reading, not the embedded database, whose own
    // work (PostgreSQL in WebAssembly) runs on the event loop too (see the README, "Slip reading").
    t = await startApp('postgres', { SLIP_READER_THREADS: '2', SLIP_READER_QUEUE: '16', SLIP_RECHECK_INTERVAL_MS: '0' });
    await t.services.settings.set('slip', { uploadEnabled: true, closedFrom: '00:00', closedTo: '00:00', maxAgeMinutes: 60 });
    const registered = await registerMember(t.app);
    const token = await login(t.app, registered.phone, registered.password);
    const profile = (await call<{ bankCode: string; bankAccountNo: string }>(t.app, 'GET', '/api/account/profile', { token })).body;
    m = { token, bankCode: profile.bankCode, accountNo: profile.bankAccountNo };
    // Over HTTP, as members call it (an injected request that never waits on I/O could starve the loop).
    // (startApp listens on a free port)
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  const auth = () => ({ authorization: `Bearer ${m.token}`, 'x-requested-with': 'XMLHttpRequest' });

  async function slips(count: number): Promise<Buffer[]> {
    const images: Buffer[] = [];
    for (let i = 0; i < count; i++) {
      const sent = await call<{ transRef: string }>(t.app, 'POST', '/api/sandbox/bank/transfers', {
        body: { fromBankCode: m.bankCode, fromAccountNo: m.accountNo, toBankCode: GSB.bank, toAccountNo: GSB.no, amount: 100 + i },
      });
      const png = await t.app.inject({ method: 'GET', url: `/api/sandbox/bank/transfers/${sent.body.transRef}/slip.png` });
      images.push(await phoneScreenshot(png.rawPayload));
    }
    return images;
  }

  async function upload(image: Buffer) {
    const form = new FormData();
    form.append('file', new Blob([image], { type: 'image/jpeg' }), 'Screenshot.jpg');
    const res = await fetch(`${base}/api/wallet/slip`, { method: 'POST', headers: auth(), body: form });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  /** Wallet reads, four at a time, until `until` settles: each one's latency (ms). */
  async function walletReadsDuring(until: Promise<unknown>): Promise<number[]> {
    const latencies: number[] = [];
    let done = false;
    void until.finally(() => {
      done = true;
    });
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (!done) {
          const started = performance.now();
          const res = await fetch(`${base}/api/wallet`, { headers: auth() });
          await res.arrayBuffer();
          latencies.push(performance.now() - started);
          expect(res.status).toBe(200);
        }
      }),
    );
    await until;
    return latencies;
  }

  /** Runs `work` and measures the main thread meanwhile: wallet reads' latencies, the event loop's
   * longest delay, and how much slower than its CPU time the main thread ran (1 on an idle machine). */
  async function measure(work: Promise<unknown>) {
    const cpuBefore = mainThreadCpuMs();
    const elu = performance.eventLoopUtilization();
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const reads = await walletReadsDuring(work);
    loop.disable();
    const cpu = mainThreadCpuMs() - cpuBefore;
    const slowdown = Math.max(1, performance.eventLoopUtilization(elu).active / Math.max(cpu, 10));
    return { p99: p99(reads), own: p99(reads) / slowdown, loopMax: loop.max / 1e6 / slowdown, slowdown, reads: reads.length };
  }

  it('reads 8 slips at once in the worker threads: wallet reads lose at most 50 ms (p99), the event loop is never held 50 ms', async () => {
    // Warm: the threads started and the decoder loaded, as on a server that has read slips before.
    expect((await upload((await slips(1))[0] ?? Buffer.alloc(0))).body).toMatchObject({ status: 'SUCCESS' });
    const round = (n: number) => Math.round(n);
    const attempts: { idle: number; during: number; loopMax: number; slowdown: number; reads: number }[] = [];
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const images = await slips(8);
      // The same reads with no slip in flight, just before: what this host answers anyway.
      const idle = await measure(new Promise((resolve) => setTimeout(resolve, 1500)));
      const readBefore = t.services.deposits.slipReaders.completed;
      const uploads = Promise.all(images.map((image) => upload(image)));
      const during = await measure(uploads);
      const answers = await uploads;
      expect(answers.map((a) => a.body.status)).toEqual(Array(8).fill('SUCCESS'));
      // Every one was read by the worker threads, none on this thread.
      expect(t.services.deposits.slipReaders.completed - readBefore).toBe(8);
      attempts.push({ idle: round(idle.own), during: round(during.own), loopMax: round(during.loopMax), slowdown: Number(during.slowdown.toFixed(1)), reads: during.reads });
      if (during.own - idle.own <= BUDGET_MS && during.loopMax <= BUDGET_MS) break;
    }
    const last = attempts.at(-1);
    expect(
      last !== undefined && last.during - last.idle <= BUDGET_MS && last.loopMax <= BUDGET_MS,
      `per attempt, in the main thread's own time (ms): wallet reads' p99 idle and during 8 slips, the event loop's longest delay during them; the slowdown: ${JSON.stringify(attempts)}`,
    ).toBe(true);
    // Three attempts of 8 slips each take 7 s on a quiet machine, past a minute on one a dozen processes share.
  }, 180_000);

  it('answers 503 BUSY with Retry-After when every reader is busy and the queue is full; nothing is written', async () => {
    const busy = await startApp('embedded', { SLIP_READER_THREADS: '1', SLIP_READER_QUEUE: '0', SLIP_RECHECK_INTERVAL_MS: '0' });
    try {
      await busy.services.settings.set('slip', { uploadEnabled: true, closedFrom: '00:00', closedTo: '00:00', maxAgeMinutes: 60 });
      const member = await registerMember(busy.app);
      const token = await login(busy.app, member.phone, member.password);
      const image = await phoneScreenshot(await sharp({ create: { width: 720, height: 1000, channels: 3, background: '#ffffff' } }).png().toBuffer());
      // The one thread takes an image: the upload finds no reader free and no room to wait.
      const reading = busy.services.deposits.slipReaders.read(image);
      const form = multipart(image);
      const res = await busy.app.inject({ method: 'POST', url: '/api/wallet/slip', headers: { ...form.headers, authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' }, payload: form.payload });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: 'BUSY', retryAfter: 2 });
      expect(res.headers['retry-after']).toBe('2');
      expect(await reading).toBeNull();
      const history = await call<{ slips: unknown[] }>(busy.app, 'POST', '/api/statement/slip', { token, body: { page: 1, limit: 20 } });
      expect(history.body.slips).toEqual([]);
      // A reader free again: the same image is read (no QR on a blank page).
      const again = await busy.app.inject({ method: 'POST', url: '/api/wallet/slip', headers: { ...form.headers, authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' }, payload: form.payload });
      expect(again.json()).toMatchObject({ message: 'CANNOT_READ_CROPPED_IMAGE' });
    } finally {
      await busy.close();
    }
  });
});

describe('SlipReaderPool', () => {
  it('leaves one core of its share to the event loop by default, at least 1 thread, at most 4', () => {
    expect(defaultReaderThreads(1, 2)).toBe(1);
    expect(defaultReaderThreads(2, 2)).toBe(1);
    expect(defaultReaderThreads(1, 4)).toBe(3);
    expect(defaultReaderThreads(2, 8)).toBe(3);
    expect(defaultReaderThreads(1, 16)).toBe(4);
    expect(defaultReaderThreads(3, 4)).toBe(1);
  });

  it('holds at most threads + queue images; one more is refused at once; refusals of the image cross the thread', async () => {
    const pool = new SlipReaderPool({ threads: 1, queue: 1, retryAfterSeconds: 3 });
    try {
      const blank = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#e0e4e8' } }).png().toBuffer();
      const first = pool.read(blank);
      const second = pool.read(blank);
      expect(pool.pending).toBe(2);
      await expect(pool.read(blank)).rejects.toEqual(new SlipReaderBusy(3));
      expect(await Promise.all([first, second])).toEqual([null, null]);
      expect(pool.pending).toBe(0);
      await expect(pool.read(Buffer.from('%PDF-1.7\n'))).rejects.toMatchObject({ name: 'ImageError', reason: 'UNSUPPORTED' });
      const tiny = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#fff' } }).png().toBuffer();
      await expect(pool.read(tiny)).rejects.toMatchObject({ name: 'ImageError', reason: 'TOO_SMALL' });
      expect(pool.completed).toBe(4);
    } finally {
      await pool.close();
    }
  });
});
