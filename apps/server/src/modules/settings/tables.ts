import type { Json } from '../../db/schema';

export interface SettingsTable {
  key: string;
  value: Json<unknown>;
}

/** The tables this area owns: its query builder (`moduleDb`) sees these and no other area's. */
export interface SettingsTables {
  settings: SettingsTable;
}

declare module '../../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the whole schema is every area's tables
  interface DB extends SettingsTables {}
}
