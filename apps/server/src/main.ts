import cluster from 'node:cluster';
import { ConfigError, loadConfig, processCount, type Config } from './config';
import { buildApp } from './app';
import { openDatabase } from './db/database';
import { ensureSandbox } from './platform/sandbox-process';

/**
 * Reads the configuration and serves: in this process, or (WEB_CONCURRENCY > 1, see
 * config.processCount) in N worker processes sharing the port through node:cluster.
 *
 * With several processes the first worker starts alone (it applies the migrations and the seed),
 * then the others. A worker that dies is replaced (at most once a second); SIGTERM / SIGINT are
 * passed to every worker, which finish their requests and close. Background jobs run in one of
 * them (the jobs' lease, platform/leader.ts); shared state (rate limits, chat rooms) lives in
 * Redis, which WEB_CONCURRENCY > 1 requires.
 */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  if (cluster.isPrimary) {
    // The sandbox service, once for all processes; the workers read its URL from the environment.
    const sandbox = await ensureSandbox(config);
    if (sandbox.url) {
      process.env.SANDBOX_URL = sandbox.url;
      config = { ...config, SANDBOX_URL: sandbox.url };
    }
  }
  const processes = processCount(config);
  if (processes > 1 && cluster.isPrimary) return supervise(processes);
  return serve(config);
}

async function serve(config: Config): Promise<void> {
  const database = await openDatabase(config);
  let built;
  try {
    built = await buildApp(config, database);
  } catch (error) {
    // A domain module's own variables are checked as it sets up.
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const { app } = built;
  const close = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void close('SIGINT'));
  process.once('SIGTERM', () => void close('SIGTERM'));
  await app.listen({ port: config.PORT, host: config.HOST });
  const worker = cluster.isWorker ? ` worker ${cluster.worker?.id ?? '?'} (pid ${process.pid})` : '';
  app.log.info(`member wallet on http://localhost:${config.PORT} (${database.kind} database)${worker}`);
}

function supervise(processes: number): void {
  let stopping = false;
  let lastFork = 0;
  const fork = () => {
    lastFork = Date.now();
    return cluster.fork();
  };
  console.log(`member wallet: starting ${processes} server processes`);
  let all = false;
  fork();
  cluster.on('listening', () => {
    if (all) return;
    all = true;
    for (let i = 1; i < processes; i += 1) fork();
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(`member wallet: process ${worker.process.pid} ended (${signal ?? code}); starting another`);
    if (!all && code === 2) {
      // The first process refused the configuration: the others would too.
      process.exit(2);
    }
    setTimeout(fork, Math.max(0, 1_000 - (Date.now() - lastFork)));
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
