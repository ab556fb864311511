import type { ColumnType, Generated } from 'kysely';
import type { DefaultTimestamp } from '../../db/schema';

/** Game catalogue (operators edit it here). */
export interface GamesTable {
  code: string;
  name: string;
  logo: string;
  background: string;
  category: 'slot' | 'sport' | 'lotto';
  ft_wallet_slot: ColumnType<string, string | number | undefined, string | number>;
  web: string | null;
  android: string | null;
  ios: string | null;
  sort: Generated<number>;
  active: Generated<boolean>;
}

/** A member's account at a game provider. */
export interface MemberGamesTable {
  member_id: string;
  game_code: string;
  username: string;
  password_enc: string;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

declare module '../../db/schema' {
  interface DB {
    games: GamesTable;
    member_games: MemberGamesTable;
  }
}
