import { asCall } from '../db/priority';

/**
 * Group commit for hot statements. Requests that arrive while `concurrency` batches are already
 * running wait and then go together, as one batch, to `run`; a request that finds a free slot
 * goes at once (alone, when nothing else is waiting), so a quiet server adds no delay and a busy
 * one sends one statement for many requests instead of one each. The round trips and commits
 * saved are what makes transfers cheap under load.
 *
 * `run` answers one outcome per item, in order; throwing fails every item of the batch.
 */
export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

interface Waiting<I, R> {
  item: I;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

export class Batcher<I, R> {
  private readonly queue: Array<Waiting<I, R>> = [];
  private running = 0;

  constructor(
    private readonly run: (items: I[]) => Promise<Array<Outcome<R>>>,
    private readonly options: { maxBatch: number; concurrency: number },
  ) {}

  submit(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < this.options.concurrency && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.running += 1;
      // A batch serves every caller in it: it runs as a call, whatever priority the caller that
      // started it had (db/priority.ts).
      void asCall(() => this.flush(batch)).finally(() => {
        this.running -= 1;
        this.pump();
      });
    }
  }

  private async flush(batch: Array<Waiting<I, R>>): Promise<void> {
    let outcomes: Array<Outcome<R>>;
    try {
      outcomes = await this.run(batch.map((w) => w.item));
      if (outcomes.length !== batch.length) throw new Error(`batch answered ${outcomes.length} outcomes for ${batch.length} items`);
    } catch (error) {
      for (const w of batch) w.reject(error);
      return;
    }
    batch.forEach((w, i) => {
      const outcome = outcomes[i] as Outcome<R>;
      if (outcome.ok) w.resolve(outcome.value);
      else w.reject(outcome.error);
    });
  }
}

/** Runs each item on its own (the fallback when a batch statement as a whole is refused). */
export async function oneByOne<I, R>(items: I[], each: (item: I) => Promise<R>): Promise<Array<Outcome<R>>> {
  const settled = await Promise.allSettled(items.map(each));
  return settled.map((s) => (s.status === 'fulfilled' ? { ok: true, value: s.value } : { ok: false, error: s.reason }));
}
