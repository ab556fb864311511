import { describe, expect, it } from 'vitest';
import { Batcher, oneByOne, type Outcome } from '../src/lib/batcher';

/** A run function that records the batches it was given and answers when told to. */
function recorder() {
  const batches: number[][] = [];
  const pending: Array<() => void> = [];
  const run = (items: number[]): Promise<Array<Outcome<number>>> => {
    batches.push(items);
    return new Promise((resolve) => {
      pending.push(() => resolve(items.map((n) => (n < 0 ? { ok: false, error: new Error(`bad ${n}`) } : { ok: true, value: n * 10 }))));
    });
  };
  const releaseAll = async () => {
    while (pending.length > 0) {
      pending.shift()?.();
      await new Promise((r) => setTimeout(r, 0));
    }
  };
  return { batches, run, releaseAll };
}

describe('Batcher (group commit)', () => {
  it('sends a lone request at once, and gathers the ones that arrive meanwhile into one batch', async () => {
    const r = recorder();
    const batcher = new Batcher(r.run, { maxBatch: 64, concurrency: 1 });
    const first = batcher.submit(1);
    expect(r.batches).toEqual([[1]]);
    const rest = [2, 3, 4].map((n) => batcher.submit(n));
    expect(r.batches).toHaveLength(1);
    await r.releaseAll();
    expect(r.batches).toEqual([[1], [2, 3, 4]]);
    expect(await first).toBe(10);
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
  });

  it('answers each item with its own outcome', async () => {
    const r = recorder();
    const batcher = new Batcher(r.run, { maxBatch: 64, concurrency: 1 });
    const results = [batcher.submit(0), batcher.submit(-1), batcher.submit(2)].map((p) => p.then((v) => `ok ${v}`, (e: Error) => e.message));
    await r.releaseAll();
    expect(await Promise.all(results)).toEqual(['ok 0', 'bad -1', 'ok 20']);
  });

  it('never puts more than maxBatch items in one batch, nor runs more than `concurrency` batches at once', async () => {
    const r = recorder();
    const batcher = new Batcher(r.run, { maxBatch: 3, concurrency: 2 });
    const all = Array.from({ length: 10 }, (_, i) => batcher.submit(i));
    expect(r.batches).toEqual([[0], [1]]);
    await r.releaseAll();
    expect(r.batches.map((b) => b.length)).toEqual([1, 1, 3, 3, 2]);
    expect(await Promise.all(all)).toEqual(Array.from({ length: 10 }, (_, i) => i * 10));
  });

  it('fails every item of a batch whose run throws, and goes on with the next batch', async () => {
    let calls = 0;
    const batcher = new Batcher<number, number>(async (items) => {
      calls += 1;
      if (calls === 2) throw new Error('connection lost');
      return items.map((n) => ({ ok: true, value: n }));
    }, { maxBatch: 64, concurrency: 1 });
    const first = batcher.submit(1);
    const second = [batcher.submit(2), batcher.submit(3)];
    await expect(first).resolves.toBe(1);
    await expect(Promise.all(second)).rejects.toThrow('connection lost');
    await expect(batcher.submit(4)).resolves.toBe(4);
  });

  it('fails the batch when run answers the wrong number of outcomes', async () => {
    const batcher = new Batcher<number, number>(async () => [], { maxBatch: 64, concurrency: 1 });
    await expect(batcher.submit(1)).rejects.toThrow('0 outcomes for 1 items');
  });

  it('oneByOne runs each item on its own and keeps their order', async () => {
    const outcomes = await oneByOne([1, 2, 3], async (n) => {
      if (n === 2) throw new Error('two');
      return n;
    });
    expect(outcomes.map((o) => (o.ok ? o.value : (o.error as Error).message))).toEqual([1, 'two', 3]);
  });
});
