import { sql } from 'kysely';
import type { Database } from './database';

/**
 * A migration of one domain's tables. Ids are `<domain>/<nnn>_<what>`; each runs once, in the
 * order of the module list (a domain's tables may refer to those of the domains before it).
 * Never edit a migration that has shipped: add a new one.
 */
export interface Migration {
  id: string;
  sql: string;
  /**
   * A database that applied this older migration id already has this one's effect (the schema
   * history before domains owned their tables was squashed into per-domain baselines).
   */
  appliedWith?: string;
}

/** Applies pending migrations in order; a lock keeps two starting processes from racing. */
export async function migrate(database: Database, migrations: readonly Migration[]): Promise<string[]> {
  const ids = new Set<string>();
  for (const m of migrations) {
    if (ids.has(m.id)) throw new Error(`migration ${m.id} is listed twice`);
    ids.add(m.id);
  }
  const applied: string[] = [];
  await database.db.transaction().execute(async (trx) => {
    // The lock comes first: two processes starting on an empty database would otherwise both
    // create schema_migrations (and collide in pg_type) before either holds it.
    await sql`SELECT pg_advisory_xact_lock(4242001)`.execute(trx);
    await sql`CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(trx);
    const done = new Set((await trx.selectFrom('schema_migrations').select('id').execute()).map((r) => r.id));
    for (const migration of migrations) {
      if (done.has(migration.id)) continue;
      if (!(migration.appliedWith && done.has(migration.appliedWith))) {
        await sql.raw(migration.sql).execute(trx);
        applied.push(migration.id);
      }
      await trx.insertInto('schema_migrations').values({ id: migration.id }).execute();
      done.add(migration.id);
    }
  });
  return applied;
}
