import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Breaker, BreakerOpen, CallTimeout } from '../src/platform/breaker';

class Down extends Error {}
class Refused extends Error {}

const breaker = () => new Breaker({ failures: 2, openMs: 200, timeoutMs: 100, isFailure: (error) => error instanceof Down });
const down = () => Promise.reject(new Down('down'));
const refused = () => Promise.reject(new Refused('a definite no'));
const ok = () => Promise.resolve('ok');

describe('Breaker (cockatiel underneath)', () => {
  // The clock (Date) is the test's: "open for 200 ms" holds however slow this machine is now.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const sleep = (ms: number) => vi.setSystemTime(Date.now() + ms);

  it('opens after the failures in a row, fails at once while open, lets one trial through, closes on its success', async () => {
    const b = breaker();
    await expect(b.run(down)).rejects.toBeInstanceOf(Down);
    expect(b.state).toBe('closed');
    await expect(b.run(down)).rejects.toBeInstanceOf(Down);
    expect(b.state).toBe('open');
    let called = false;
    const open = await b.run(async () => {
      called = true;
      return 'never';
    }).catch((error: unknown) => error);
    expect(open).toBeInstanceOf(BreakerOpen);
    expect((open as BreakerOpen).retryAfterMs).toBeGreaterThan(0);
    expect((open as BreakerOpen).retryAfterMs).toBeLessThanOrEqual(200);
    expect(called).toBe(false);
    sleep(250);
    expect(b.state).toBe('half-open');
    // The trial runs; a call meanwhile fails at once instead of waiting for it.
    let finish!: (value: string) => void;
    const trial = b.run(() => new Promise<string>((resolve) => (finish = resolve)));
    await expect(b.run(ok)).rejects.toBeInstanceOf(BreakerOpen);
    finish('back');
    expect(await trial).toBe('back');
    expect(b.state).toBe('closed');
    expect(await b.run(ok)).toBe('ok');
  });

  it('opens again when the trial fails', async () => {
    const b = breaker();
    for (let i = 0; i < 2; i++) await expect(b.run(down)).rejects.toBeInstanceOf(Down);
    sleep(250);
    await expect(b.run(down)).rejects.toBeInstanceOf(Down);
    expect(b.state).toBe('open');
    await expect(b.run(ok)).rejects.toBeInstanceOf(BreakerOpen);
  });

  it('counts a definite answer as the service working: it resets the failures in a row and is thrown as it is', async () => {
    const b = breaker();
    await expect(b.run(down)).rejects.toBeInstanceOf(Down);
    await expect(b.run(refused)).rejects.toBeInstanceOf(Refused);
    await expect(b.run(down)).rejects.toBeInstanceOf(Down);
    expect(b.state).toBe('closed');
    await expect(b.run(down)).rejects.toBeInstanceOf(Down);
    expect(b.state).toBe('open');
    // A definite answer to the trial closes the breaker.
    sleep(250);
    await expect(b.run(refused)).rejects.toBeInstanceOf(Refused);
    expect(b.state).toBe('closed');
  });

  it('gives a call up after the timeout, aborts its signal and counts it as a failure', async () => {
    const b = breaker();
    let aborted = false;
    const silent = (signal: AbortSignal) =>
      new Promise<string>((resolve) => {
        signal.addEventListener('abort', () => {
          aborted = true;
        });
        setTimeout(() => resolve('late'), 5_000).unref();
      });
    await expect(b.run(silent)).rejects.toEqual(new CallTimeout(100));
    expect(aborted).toBe(true);
    await expect(b.run(silent)).rejects.toBeInstanceOf(CallTimeout);
    expect(b.state).toBe('open');
  });

  it('runs 50 calls at once without piling their abort listeners on one signal (no MaxListenersExceeded warning)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const b = breaker();
      // All 50 are running before the first ends.
      const calls = Array.from({ length: 50 }, () => b.run(() => new Promise<string>((resolve) => setTimeout(() => resolve('ok'), 20))));
      expect(await Promise.all(calls)).toHaveLength(50);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
