import type { Json } from '../../db/schema';

export interface SettingsTable {
  key: string;
  value: Json<unknown>;
}

declare module '../../db/schema' {
  interface DB {
    settings: SettingsTable;
  }
}
