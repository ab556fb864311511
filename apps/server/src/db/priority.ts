import { AsyncLocalStorage } from 'node:async_hooks';

// Work that may wait for the embedded database: statements run inside `inBackground` take the
// single connection of the embedded database (PGlite) only when no call that a person is waiting
// for wants it, or after BACKGROUND_PASSED_OVER such grants (a background statement is late, never
// starved). On PostgreSQL, where the pool has many connections, it changes nothing.
//
// What it is for: storing a slip image (a 100-600 KB bytea, 3-20 ms of the embedded database's
// time on the event loop) while wallet reads of other members queue behind it; 8 slips at once
// put 8 of them in a row.

const background = new AsyncLocalStorage<true>();

/** Runs `work` with its statements at background priority (see the top of this file). */
export function inBackground<T>(work: () => Promise<T>): Promise<T> {
  return background.run(true, work);
}

/**
 * Runs `work` as a call, outside any `inBackground`: for work started on behalf of many callers
 * (a Batcher's batch), which must not inherit the priority of the one that happened to start it.
 */
export function asCall<T>(work: () => Promise<T>): Promise<T> {
  return background.exit(work);
}

/** True inside `inBackground`. */
export function isBackground(): boolean {
  return background.getStore() === true;
}

/** How many waiting calls may be given the connection ahead of a waiting background statement. */
export const BACKGROUND_PASSED_OVER = 8;
