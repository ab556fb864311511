import type { AddressInfo } from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config';

/**
 * Outside production (or with GAME_PROVIDER, SMS_PROVIDER, EWALLET_PROVIDER, PAYMENT_GATEWAY, BANK_PROVIDER or PAYOUT_PROVIDER=sandbox named), the server starts the sandbox service (apps/sandbox: the outside systems'
 * stand-ins) beside itself as its own process, unless SANDBOX_URL names one (or is `off`) or
 * one already answers on SANDBOX_PORT. Answers its URL, or null when none is used. The sandbox is
 * not restarted when it ends: the outside world being down is a state the server must live with
 * (transfers go pending and settle when it is back), and the chaos run kills it on purpose. It
 * ends with the server (SANDBOX_PARENT_PID), even a killed one, so none is left holding the port.
 */
/** The sandbox service's URL the adapters call (SANDBOX_URL, or the one on SANDBOX_PORT); null with SANDBOX_URL=off. */
export function sandboxUrlOf(config: Config): string | null {
  if (config.SANDBOX_URL === 'off') return null;
  return config.SANDBOX_URL ?? `http://127.0.0.1:${config.SANDBOX_PORT}`;
}

/**
 * Where the sandbox service reaches this server back (its webhooks, the aggregator's seamless
 * calls): the address the server listens on (127.0.0.1 for a wildcard); null before it listens.
 */
export function listeningBase(server: { address(): AddressInfo | string | null }): string | null {
  const address = server.address();
  if (typeof address !== 'object' || !address) return null;
  const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

export async function ensureSandbox(config: Config, log: (line: string) => void = console.log): Promise<{ url: string | null; child: ChildProcess | null }> {
  if (config.SANDBOX_URL === 'off') return { url: null, child: null };
  if (config.SANDBOX_URL) return { url: config.SANDBOX_URL, child: null };
  // In production only when a sandbox system is named explicitly (the bench, a demo or staging server).
  const named = config.GAME_PROVIDER === 'sandbox' || config.SMS_PROVIDER === 'sandbox' || config.env.EWALLET_PROVIDER === 'sandbox' || config.env.PAYMENT_GATEWAY === 'sandbox' || config.env.BANK_PROVIDER === 'sandbox' || config.env.PAYOUT_PROVIDER === 'sandbox';
  if (config.NODE_ENV === 'production' && !named) return { url: null, child: null };
  const url = `http://127.0.0.1:${config.SANDBOX_PORT}`;
  const running = await health(url);
  if (running && !orphaned(running)) return { url, child: null };
  // One started by a server that has died (a crash, a kill) stops within a second (up to 15 s on a loaded machine): wait for the port, then start our own.
  if (running) for (let i = 0; i < 150 && (await health(url)); i += 1) await new Promise((done) => setTimeout(done, 100));
  const here = dirname(fileURLToPath(import.meta.url));
  const bundled = join(here, 'sandbox.js');
  const args = existsSync(bundled) ? [bundled] : ['--import', 'tsx', resolve(here, '../../../sandbox/src/main.ts')];
  const dataDir = config.DATA_DIR === 'memory' ? 'memory' : resolve(config.DATA_DIR, 'sandbox');
  const child = spawn(process.execPath, args, {
    env: { ...process.env, SANDBOX_PORT: String(config.SANDBOX_PORT), SANDBOX_DATA_DIR: dataDir, SANDBOX_PARENT_PID: String(process.pid) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.on('exit', (code, signal) => log(`sandbox service (pid ${child.pid}) ended (${signal ?? code}); outside systems are down until it is started again (npm run sandbox)`));
  const stop = (): void => void child.kill('SIGTERM');
  process.once('exit', stop);
  // Up to 30 s: a loaded machine starting several servers at once is slow to start a process.
  for (let i = 0; i < 300; i += 1) {
    const up = await health(url);
    if (up && !orphaned(up)) {
      log(`sandbox service on ${url} (pid ${child.pid})`);
      return { url, child };
    }
    if (child.exitCode !== null) break;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`the sandbox service did not start on ${url} (is the port taken? set SANDBOX_PORT, or SANDBOX_URL=off)`);
}

/** The sandbox's GET /health: null when nothing answers there; `parent` the server that started it (null: started alone). */
async function health(url: string): Promise<{ parent: number | null } | null> {
  try {
    const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1_000) });
    if (!res.ok) return null;
    const body = (await res.json()) as { parent?: unknown };
    return { parent: typeof body.parent === 'number' ? body.parent : null };
  } catch {
    return null;
  }
}

/** Whether a running sandbox belongs to a server that is gone (it stops by itself within a second). */
function orphaned(running: { parent: number | null }): boolean {
  if (running.parent === null || running.parent === process.pid) return false;
  try {
    process.kill(running.parent, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
