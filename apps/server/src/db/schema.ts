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

export interface PhoneVerificationsTable {
  phone: string;
  verified_at: Timestamp;
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
  phone_verifications: PhoneVerificationsTable;
  sandbox_sms: SandboxSmsTable;
  schema_migrations: MigrationsTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_transactions: LedgerTransactionsTable;
  ledger_entries: LedgerEntriesTable;
}
