import { defineConfig } from 'vitest/config';

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
          include: ['test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Files run in parallel processes; each has its own databases.
          pool: 'forks',
        },
      },
      'apps/web/vitest.config.ts',
    ],
  },
});
