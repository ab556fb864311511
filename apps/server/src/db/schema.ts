import type { ColumnType } from 'kysely';

/**
 * The Kysely type of the database. This file holds only what the migration runner needs; every
 * domain adds its own tables to `DB` beside its migrations (declaration merging):
 *
 *   declare module '../../db/schema' { interface DB { my_table: MyTable } }
 */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A timestamp the database fills in when it is not given. */
export type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** A jsonb column written as JSON text. */
export type Json<T> = ColumnType<T, string, string>;

export interface MigrationsTable {
  id: string;
  applied_at: DefaultTimestamp;
}

export interface DB {
  schema_migrations: MigrationsTable;
}
