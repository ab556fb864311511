import type { ColumnType, Generated } from 'kysely';

/** Kysely table types; the SQL is in migrations.ts. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A timestamp the database fills in when it is not given. */
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export interface SettingsTable {
  key: string;
  value: Json<unknown>;
}

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

export interface MembersTable {
  id: string;
  username: string;
  name: string;
  password_hash: string;
  source_code: string | null;
  inviter_id: string | null;
  bank_code: string;
  bank_account_name: string;
  bank_account_no: string;
  currency: string;
  coin: Generated<number>;
  status: Generated<string>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface SessionsTable {
  id: string;
  token_hash: string;
  member_id: string;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface OtpRequestsTable {
  token: string;
  purpose: 'register' | 'reset';
  phone: string;
  ref: string;
  code_hash: string;
  /** false for a reset request to an unregistered phone: no SMS went out and no code matches. */
  deliverable: boolean;
  attempts: Generated<number>;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  verified_at: Timestamp | null;
  consumed_at: Timestamp | null;
}

export interface SandboxSmsTable {
  id: Generated<number>;
  phone: string;
  text: string;
  created_at: DefaultTimestamp;
}

export interface LedgerAccountsTable {
  id: string;
  member_id: string | null;
  kind: 'wallet' | 'game' | 'inflight' | 'withdrawal' | 'system';
  game_code: string | null;
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
  /** The account's balance right after this entry (null only for entries older than migration 005). */
  balance_after: number | null;
}

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

export interface MemberGamesTable {
  member_id: string;
  game_code: string;
  username: string;
  password_enc: string;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
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

export interface SandboxGameFaultsTable {
  game_code: string;
  mode: 'none' | 'down' | 'timeout' | 'error-after-take';
  latency_ms: number;
  updated_at: DefaultTimestamp;
}

export interface SlipsTable {
  id: string;
  member_id: string;
  reference: string;
  amount: Generated<number>;
  status: Generated<OperationStatus>;
  note: string | null;
  image_path: string | null;
  created_at: DefaultTimestamp;
}

export interface SandboxGameAccountsTable {
  game_code: string;
  username: string;
  password: string;
  balance: Generated<number>;
  created_at: DefaultTimestamp;
}

export interface SandboxGameTransfersTable {
  game_code: string;
  ref: string;
  username: string;
  amount: number;
  state: 'applied' | 'refused';
  created_at: DefaultTimestamp;
}

export interface SandboxGameSessionsTable {
  token: string;
  game_code: string;
  username: string;
  expires_at: Timestamp;
}

export interface MigrationsTable {
  id: string;
  applied_at: DefaultTimestamp;
}

export interface DB {
  settings: SettingsTable;
  banks: BanksTable;
  sources: SourcesTable;
  members: MembersTable;
  sessions: SessionsTable;
  otp_requests: OtpRequestsTable;
  sandbox_sms: SandboxSmsTable;
  schema_migrations: MigrationsTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_transactions: LedgerTransactionsTable;
  ledger_entries: LedgerEntriesTable;
  games: GamesTable;
  sandbox_game_faults: SandboxGameFaultsTable;
  member_games: MemberGamesTable;
  operations: OperationsTable;
  idempotency_keys: IdempotencyKeysTable;
  slips: SlipsTable;
  sandbox_game_accounts: SandboxGameAccountsTable;
  sandbox_game_transfers: SandboxGameTransfersTable;
  sandbox_game_sessions: SandboxGameSessionsTable;
}
