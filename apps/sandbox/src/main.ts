/**
 * The outside world as its own process: every outside system (docs/sandbox.md) over HTTP, with its
 * own storage (journals in SANDBOX_DATA_DIR, or memory only), never our database.
 *
 *   npm run sandbox            SANDBOX_PORT (3100), SANDBOX_DATA_DIR, SANDBOX_GAME_SECRET, …
 */
import { startSandbox } from './server';

const port = Number(process.env.SANDBOX_PORT ?? 3100);
const sandbox = await startSandbox({ port, host: process.env.SANDBOX_HOST ?? '127.0.0.1', dataDir: process.env.SANDBOX_DATA_DIR || undefined });
console.log(`sandbox listening on ${sandbox.port}`);
const stop = (): void => {
  void sandbox.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
