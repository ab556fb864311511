export interface BanksTable {
  code: string;
  name_th: string;
  name_en: string;
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
