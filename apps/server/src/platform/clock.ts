/**
 * The server's clock of periods: real time moved by an offset, set only through the sandbox call
 * `PUT /api/operator/sandbox/clock` (this process; each process of a multi-process sandbox is
 * set on its own). Bonus days and weeks, refund periods and responsible play's limit windows,
 * pending limit raises and break ends all count by it, so a test can move a day forward.
 */
export class SandboxClock {
  offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
  set(offsetMs: number): void {
    this.offset = offsetMs;
  }
}
