import { parseArgs } from 'node:util';
import { OPERATOR_ROLES, type OperatorRole } from '@mw/contract/admin';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { AppError } from '../lib/errors';

/**
 * `npm run admin:create -- --username NAME --role owner [--name "Display name"]`: creates an
 * operator waiting for enrolment and prints the one-time enrolment link (PUBLIC_URL, else
 * http://localhost:3000). The way to the first owner of a deployment. It opens the database the
 * server uses (DATABASE_URL, or the embedded one in DATA_DIR, which must not be open in a running
 * server then). Recorded in the audit as done by `cli`.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { username: { type: 'string' }, role: { type: 'string' }, name: { type: 'string' } },
    strict: true,
  });
  const role = values.role as OperatorRole | undefined;
  if (!values.username || !role || !OPERATOR_ROLES.includes(role)) {
    console.error(`usage: npm run admin:create -- --username NAME --role ${OPERATOR_ROLES.join('|')} [--name "Display name"]`);
    process.exit(2);
  }
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const database = await openDatabase(config);
  const { app, services } = await buildApp(config, database);
  try {
    const { operator, enrolment } = await services.operators.create(
      { username: values.username, role, ...(values.name ? { name: values.name } : {}) },
      { id: null, username: 'cli', role: null },
    );
    console.log(`Operator ${operator.username} (${operator.role}) created, waiting for enrolment.`);
    console.log(`One-time enrolment link (valid until ${enrolment.expiresAt}; the QR is shown once):`);
    console.log(enrolment.link);
  } catch (error) {
    if (error instanceof AppError) {
      console.error(`refused: ${error.code}`);
      process.exitCode = 1;
    } else {
      throw error;
    }
  } finally {
    await app.close();
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
