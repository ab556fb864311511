// Slip images are read in worker threads (piscina), never on the server's event loop: decoding a
// phone screenshot and searching it for a QR is 30-300 ms of CPU, during which every other call of
// the process would wait. The pool has SLIP_READER_THREADS threads (default: the process's share of
// the cores less one, at least 1, at most 4: see defaultReaderThreads), run at the lowest CPU priority (nice +19 on Linux,
// a thread's own nice value), so that answering calls comes before reading slips whenever the cores
// are all busy: with +5 the readers still took a quarter of a core from the event loop, and 8 slips
// at once pushed concurrent wallet reads' p99 to 250 ms; at +19 a slip waits instead. At most SLIP_READER_QUEUE images wait for a thread; one more is refused at once with
// SlipReaderBusy (the upload answers `503 BUSY` with Retry-After, nothing written) instead of
// queueing for seconds.
//
// The worker is slip-worker.js beside the bundle (apps/server/dist, emitted by build.mjs); when
// the server runs from its TypeScript sources (tsx, tests) it is slip-worker.ts, loaded with tsx.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
// libvips must be loaded by the main thread before any worker loads it (see sharp's docs on worker threads).
import 'sharp';
import { ImageError } from './image';
import type { SlipReadAnswer } from './slip-worker';

/** Every slip reader is busy and the queue is full: try again after `retryAfterSeconds`. */
export class SlipReaderBusy extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('the slip readers are busy');
    this.name = 'SlipReaderBusy';
  }
}

export interface SlipReaderPoolOptions {
  /** Worker threads (SLIP_READER_THREADS). */
  threads: number;
  /** Images that may wait for a thread (SLIP_READER_QUEUE); 0: none waits. */
  queue: number;
  /** What a refused upload is told (Retry-After). */
  retryAfterSeconds?: number;
}

/**
 * Threads by default: the process's share of the cores (the machine's cores divided among the
 * server's `processes`, WEB_CONCURRENCY) less one, left to the event loop and the embedded
 * database that runs on it; at least 1, at most 4. Measured on 2 cores (one process, 8 slips at
 * once, 4 clients reading GET /api/wallet): two readers put the reads' p99 at 56-62 ms, one at
 * 43 ms, and the 8 slips were done sooner too (p95 612 ms against 718): nice +19 keeps a reader
 * from taking the core the event loop wants, not from the cache and memory bandwidth they share.
 */
export const defaultReaderThreads = (processes = 1, cores = availableParallelism()) =>
  Math.max(1, Math.min(4, Math.floor(cores / Math.max(1, processes)) - 1));

/** Where the worker is, and how to start it. */
function workerEntry(): { filename: string; execArgv: string[] } {
  const built = new URL('./slip-worker.js', import.meta.url);
  if (existsSync(built)) return { filename: built.href, execArgv: [] };
  const source = new URL('./slip-worker.ts', import.meta.url);
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { filename: source.href, execArgv: ['--import', tsx] };
}

/**
 * Reads slip QRs in worker threads; see the top of this file. The threads start with the first
 * image (a process that never reads a slip starts none); one stays, the others end after a
 * minute without work.
 */
export class SlipReaderPool {
  private started: Piscina | null = null;
  /** Images handed to the pool and not answered yet (reading or waiting). */
  private inFlight = 0;
  private readonly retryAfterSeconds: number;

  constructor(private readonly options: SlipReaderPoolOptions) {
    this.retryAfterSeconds = options.retryAfterSeconds ?? 2;
  }

  private get pool(): Piscina {
    if (this.started) return this.started;
    const { filename, execArgv } = workerEntry();
    this.started = new Piscina({
      filename,
      execArgv,
      minThreads: 1,
      maxThreads: this.options.threads,
      idleTimeout: 60_000,
      niceIncrement: 19,
      // A crafted image cannot take the process's memory with it: the worker dies, the upload is refused.
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    return this.started;
  }

  /** Images the worker threads have answered (since the pool started). */
  get completed(): number {
    return this.started?.completed ?? 0;
  }

  /** Images being read or waiting for a thread now. */
  get pending(): number {
    return this.inFlight;
  }

  /**
   * The text of the image's QR, or null when it has none. Throws ImageError for an image that is
   * refused or cannot be decoded, SlipReaderBusy when the queue is full.
   */
  async read(image: Buffer): Promise<{ text: string } | null> {
    // Every thread reading and `queue` images waiting: refused at once.
    if (this.inFlight >= this.options.threads + this.options.queue) throw new SlipReaderBusy(this.retryAfterSeconds);
    const pool = this.pool;
    let answer: SlipReadAnswer;
    this.inFlight += 1;
    try {
      // Copied to the worker (the upload's buffer stays the caller's: it is stored with the slip).
      answer = (await pool.run({ bytes: image })) as SlipReadAnswer;
    } catch (error) {
      // The worker died on this image (out of memory): it is not one we can read.
      if (error instanceof Error && 'code' in error && error.code === 'ERR_WORKER_OUT_OF_MEMORY') throw new ImageError('UNREADABLE', 'the image could not be decoded within the memory limit');
      throw error;
    } finally {
      this.inFlight -= 1;
    }
    if (!answer.ok) throw new ImageError(answer.reason, answer.message);
    return answer.text === null ? null : { text: answer.text };
  }

  async close(): Promise<void> {
    const pool = this.started;
    this.started = null;
    await pool?.destroy();
  }
}
