import { defineConfig } from 'vitest/config';

/**
 * Files that measure latency (p99 budgets): npm test runs them after the rest, alone and one at a
 * time (VITEST_SOLO=1), so that another file's work on the same two cores is not in their figures.
 * The main run leaves them out (VITEST_EXCLUDE_SOLO=1); a bare `npx vitest run` runs everything.
 */
const SOLO = ['test/slip-readers.test.ts', 'test/scale.test.ts'];
const solo = process.env.VITEST_SOLO === '1';
const excludeSolo = process.env.VITEST_EXCLUDE_SOLO === '1';

export default defineConfig({
  test: {
    // Two files at once: vitest's default on two cores is one (cores − 1), and the server's files
    // mostly wait on databases and sockets, so one at a time left a core idle.
    maxWorkers: 2,
    projects: [
      { test: { name: 'contract', root: 'packages/contract', include: ['test/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: solo ? SOLO : ['test/**/*.test.ts'],
          exclude: excludeSolo ? [...SOLO, '**/node_modules/**'] : ['**/node_modules/**'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Files run in parallel processes; each has its own databases (every app its own
          // in-memory PGlite or PostgreSQL schema), so a worker runs its files one after another in
          // one module graph instead of a fresh one per file: loading the whole server for each of
          // 60 files was a third of the run (server files: 730 s → 436 s of wall time on two cores).
          // VITEST_ISOLATE=1 gives each file a fresh graph again (to tell a leak between files).
          pool: 'forks',
          isolate: process.env.VITEST_ISOLATE === '1',
        },
      },
      'apps/web/vitest.config.ts',
    ],
  },
});
