import type { SeamlessTables } from './seamless';
import type { ColumnType, Generated } from 'kysely';
import type { DefaultTimestamp, ReadOnlyRow } from '../db/schema';

import type { Currency } from '../lib/currency';

export type { Currency };
/** What a ledger account counts: a currency, or the prize wheel's coins (their own unit, never summed with money). */
export type Unit = Currency | 'COIN';
/** Every ledger currency (for validating configuration and operator input). */
export const CURRENCIES = ['THB', 'LAK'] as const satisfies readonly Currency[];
/** The currency of amounts given in the older single-amount form (before amounts per currency). */
export const BASE_CURRENCY: Currency = 'THB';

export interface LedgerAccountsTable {
  id: string;
  member_id: string | null;
  kind: 'wallet' | 'game' | 'inflight' | 'withdrawal' | 'coin' | 'system';
  game_code: string | null;
  /** Every account holds one currency (or coins); a ledger transaction never mixes two. */
  currency: ColumnType<Unit, Unit | undefined, never>;
  balance: Generated<number>;
  version: Generated<number>;
  created_at: DefaultTimestamp;
}

export interface LedgerTransactionsTable {
  id: Generated<number>;
  operation_id: string | null;
  kind: string;
  created_at: DefaultTimestamp;
}

export interface LedgerEntriesTable {
  id: Generated<number>;
  transaction_id: number;
  account_id: string;
  amount: number;
  /** The account's balance right after this entry. */
  balance_after: number | null;
}

export type OperationType = 'deposit' | 'bonus' | 'finish_bonus' | 'withdraw' | 'transfer';
export type OperationStatus = 'PENDING' | 'SUCCESS' | 'FAILED';

export interface OperationsTable {
  id: string;
  member_id: string;
  type: OperationType;
  status: OperationStatus;
  source: string;
  target: string;
  amount: number;
  note: string | null;
  /** The ledger transaction that recorded it (its hold, for a two-phase operation). */
  start_tx: number | null;
  /** The ledger transaction that settled it (two-phase operations). */
  settle_tx: number | null;
  /** The Idempotency-Key the operation was recorded under, and its request's hash (money/011). */
  idem_key: ColumnType<string | null, string | null | undefined, never>;
  request_hash: ColumnType<string | null, string | null | undefined, never>;
  /** A deposit: when it reached the wallet, by the money core's clock (the sandbox clock moves it); deposit limits count by it. */
  credited_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface IdempotencyKeysTable {
  member_id: string;
  key: string;
  request_hash: string;
  /** The operation the key recorded; null for a refusal or a composite call (see answer, plan). */
  operation_id: string | null;
  /** The stored answer, when it is not derived from the operation: a refusal or a composite call's result. */
  answer: ColumnType<unknown, string | null | undefined, string | null> | null;
  answer_status: number | null;
  /** A composite call's parts, fixed at its first execution. */
  plan: ColumnType<unknown, string | null | undefined, string | null> | null;
  created_at: DefaultTimestamp;
}

/** One credit per outside message: (source, ref) names the operation it made. */
export interface ExternalCreditsTable {
  source: string;
  ref: string;
  operation_id: string;
  created_at: DefaultTimestamp;
}

/** The tables this area owns: its query builder (`moduleDb`) sees these and no other area's. */
/** The transfer codes a ledger transaction's kind may name (money/010; codes.ts). */
export interface TransferCodesTable {
  code: string;
  owner: string;
  description: string;
  created_at: DefaultTimestamp;
}

export interface MoneyTables {
  ledger_accounts: LedgerAccountsTable;
  ledger_transactions: LedgerTransactionsTable;
  ledger_entries: LedgerEntriesTable;
  operations: OperationsTable;
  idempotency_keys: IdempotencyKeysTable;
  external_credits: ExternalCreditsTable;
  transfer_codes: TransferCodesTable;
}

declare module '../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the whole schema is every area's tables
  interface DB extends MoneyTables {}
}

/** What the money core's own query builder sees: its tables and the seamless wallet's journal. */
export type MoneyDb = MoneyTables & SeamlessTables;

/** What other areas may read of operations: money/009's view (never the table; they write through the core's API). */
export interface MoneyReads {
  operation_view: ReadOnlyRow<Omit<OperationsTable, 'settle_tx' | 'idem_key' | 'request_hash'>>;
}
