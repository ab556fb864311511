import type { ReadOnlyRow } from '../../db/schema';
import type { Generated } from 'kysely';

export interface BanksTable {
  code: string;
  name_th: string;
  name_en: string;
  /** Lao name; null falls back to the English one. */
  name_la: string | null;
  country: Generated<'TH' | 'LA'>;
  sort: number;
  active: boolean;
}

export interface SourcesTable {
  code: string;
  description: string;
  sort: number;
}

/** The tables this area owns: its query builder (`moduleDb`) sees these and no other area's. */
export interface LookupTables {
  banks: BanksTable;
  sources: SourcesTable;
}

declare module '../../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the whole schema is every area's tables
  interface DB extends LookupTables {}
}

/** What other areas may read of the lists: lookup/003's views. */
export interface LookupReads {
  bank_view: ReadOnlyRow<BanksTable>;
  source_view: ReadOnlyRow<SourcesTable>;
}
