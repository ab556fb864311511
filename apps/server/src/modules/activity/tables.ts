import type { DefaultTimestamp, Timestamp } from '../../db/schema';

/** A settled round imported from a provider (once, by provider and round id). */
export interface GameRoundsTable {
  provider: string;
  round_id: string;
  member_id: string;
  category: string;
  stake: number;
  win: number;
  settled_at: Timestamp;
  imported_at: DefaultTimestamp;
}

export interface GameRoundCursorsTable {
  provider: string;
  cursor: string;
  updated_at: DefaultTimestamp;
}

/** The tables this area owns: its query builder (`moduleDb`) sees these and no other area's. */
export interface ActivityTables {
  game_rounds: GameRoundsTable;
  game_round_cursors: GameRoundCursorsTable;
}

/** What this module's query builder sees: its tables and the read models (views) of the areas below it. */
export type ActivityDb = ActivityTables;

declare module '../../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the whole schema is every area's tables
  interface DB extends ActivityTables {}
}
