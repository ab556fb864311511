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

declare module '../../db/schema' {
  interface DB {
    banks: BanksTable;
    sources: SourcesTable;
  }
}
