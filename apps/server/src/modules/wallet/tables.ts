import type { ColumnType, Generated } from 'kysely';
import type { DefaultTimestamp } from '../../db/schema';
import type { AccountReads } from '../account';
import type { MoneyReads } from '../../money';

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

/** The tables this area owns: its query builder (`moduleDb`) sees these and no other area's. */
export interface WalletTables {
  games: GamesTable;
  member_games: MemberGamesTable;
  withdrawal_payouts: WithdrawalPayoutsTable;
}

/** What this module's query builder sees: its tables and the read models (views) of the areas below it. */
export type WalletDb = WalletTables & AccountReads & MoneyReads;

declare module '../../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the whole schema is every area's tables
  interface DB extends WalletTables {}
}

/**
 * How each withdrawal was paid or returned, one row per withdrawal, claimed before anything is
 * sent or moved (the row's primary key is what makes two approvals at once send once):
 * `bank` (sent through the payout provider), `manual` (an operator paid by hand and completed
 * it), `reject` (an operator refused it). `processing` until the money core settled it.
 */
export interface WithdrawalPayoutsTable {
  withdrawal_id: string;
  member_id: string;
  method: 'bank' | 'manual' | 'reject';
  state: 'processing' | 'paid' | 'returned';
  /** The payout provider in force when it was claimed (`sandbox`, `manual`, …). */
  provider: string;
  amount: ColumnType<string, number, never>;
  currency: string;
  bank_code: string;
  account_no: string;
  account_name: string;
  /** A bank's failure code (ACCOUNT_INVALID, NAME_MISMATCH, REFUSED) or the operator's note. */
  failure: string | null;
  /** The bank's own words, or the operator's note. */
  reason: string | null;
  bank_ref: string | null;
  /** The bank's last answer: accepted, completed, failed, unknown (no answer), unavailable (not sent), mismatch (an answer about another transfer). */
  bank_status: string | null;
  attempts: Generated<number>;
  /** Who approved (bank), completed (manual) or rejected it. */
  by_operator: string;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  settled_at: Date | null;
}

