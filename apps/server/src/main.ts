import { ConfigError, loadConfig } from './config';
import { buildApp } from './app';
import { openDatabase } from './db/database';

/** Reads the configuration, opens the database and listens. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
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
  app.log.info(`member wallet on http://localhost:${config.PORT} (${database.kind} database)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
