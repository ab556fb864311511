import type { ColumnType, SelectType } from 'kysely';

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

/**
 * A row of a read model another area publishes (a view, issue 35): its columns are read, never
 * written (their insert and update types are `never`; the view's trigger refuses any write).
 */
export type ReadOnlyRow<T> = { [K in keyof T]: ColumnType<SelectType<T[K]>, never, never> };
