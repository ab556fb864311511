import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config';

/**
 * Outside production (or with GAME_PROVIDER=sandbox named), the server starts the sandbox service (apps/sandbox: the outside systems'
 * stand-ins) beside itself as its own process, unless SANDBOX_URL names one (or is `off`) or
 * one already answers on SANDBOX_PORT. Answers its URL, or null when none is used. The sandbox is
 * not restarted when it ends: the outside world being down is a state the server must live with
 * (transfers go pending and settle when it is back), and the chaos run kills it on purpose. It
 * ends with the server (SANDBOX_PARENT_PID), even a killed one, so none is left holding the port.
 */
export async function ensureSandbox(config: Config, log: (line: string) => void = console.log): Promise<{ url: string | null; child: ChildProcess | null }> {
  if (config.SANDBOX_URL === 'off') return { url: null, child: null };
  if (config.SANDBOX_URL) return { url: config.SANDBOX_URL, child: null };
  // In production only when the sandbox games are named explicitly (the bench, a staging server).
  if (config.NODE_ENV === 'production' && config.GAME_PROVIDER !== 'sandbox') return { url: null, child: null };
  const url = `http://127.0.0.1:${config.SANDBOX_PORT}`;
  if (await healthy(url)) return { url, child: null };
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
    if (await healthy(url)) {
      log(`sandbox service on ${url} (pid ${child.pid})`);
      return { url, child };
    }
    if (child.exitCode !== null) break;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`the sandbox service did not start on ${url} (is the port taken? set SANDBOX_PORT, or SANDBOX_URL=off)`);
}

async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1_000) });
    return res.ok;
  } catch {
    return false;
  }
}
