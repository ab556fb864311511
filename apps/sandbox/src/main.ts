/**
 * The outside world as its own process: every outside system (docs/sandbox.md) over HTTP, with its
 * own storage, never our database: journals in SANDBOX_DATA_DIR (default ./data/sandbox, where
 * the server keeps them when it starts the sandbox beside itself with the default DATA_DIR, so a
 * sandbox stopped and started again by hand finds its state), or `memory` for none.
 *
 *   npm run sandbox            SANDBOX_PORT (3100), SANDBOX_DATA_DIR, SANDBOX_GAME_SECRET, …
 */
import { startSandbox } from './server';

const port = Number(process.env.SANDBOX_PORT ?? 3100);
const dataDirOf = (value: string | undefined): string | undefined => (value === 'memory' || value === '' ? undefined : (value ?? './data/sandbox'));
const sandbox = await startSandbox({ port, host: process.env.SANDBOX_HOST ?? '127.0.0.1', dataDir: dataDirOf(process.env.SANDBOX_DATA_DIR) });
console.log(`sandbox listening on ${sandbox.port}`);
const stop = (): void => {
  void sandbox.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
// Started by a server beside itself: it ends when that server is gone (even killed), leaving no
// sandbox behind on the port; its journals stay, and the server's next start replays them.
const parent = Number(process.env.SANDBOX_PARENT_PID ?? 0);
if (parent > 0) {
  setInterval(() => {
    try {
      process.kill(parent, 0);
    } catch {
      stop();
    }
  }, 1_000).unref();
}
process.on('SIGINT', stop);
