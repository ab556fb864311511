import type { Migration } from '../../db/migrations';

/**
 * The in-process bank sandbox's tables, as they shipped (a migration that has shipped is never
 * edited): the bank's state (transfers, payouts) and the sandboxes' faults now live in the sandbox
 * service (apps/sandbox, its `bank` system), so deposit/011 and wallet/005 drop them. A fresh
 * database makes and drops them once.
 */
export const sandboxBankMigrations: readonly Migration[] = [
  {
    id: 'deposit/003_sandbox_bank',
    sql: `
CREATE TABLE sandbox_bank_transfers (
  trans_ref text NOT NULL,
  from_bank_code text NOT NULL,
  from_account_no text NOT NULL,
  from_name text NOT NULL,
  to_bank_code text NOT NULL,
  to_account_no text NOT NULL,
  to_name text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL CHECK (currency IN ('THB', 'LAK')),
  at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (from_bank_code, trans_ref)
);`,
  },
];

export const sandboxFaultsMigrations: readonly Migration[] = [
  {
    id: 'deposit/005_sandbox_faults',
    sql: `
-- Failure injection of the sandboxes (bank look-ups, the e-wallet service), seen by every process.
CREATE TABLE sandbox_faults (
  service text PRIMARY KEY,
  mode text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);`,
  },
];

export const sandboxPayoutMigrations: readonly Migration[] = [
  {
    id: 'wallet/002_sandbox_bank_payouts',
    sql: `
-- The sandbox bank's outgoing transfers: one per reference (the withdrawal's id), whatever is sent again.
CREATE TABLE sandbox_bank_payouts (
  reference text PRIMARY KEY,
  bank_code text NOT NULL,
  account_no text NOT NULL,
  account_name text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL CHECK (currency IN ('THB', 'LAK')),
  state text NOT NULL CHECK (state IN ('accepted', 'completed', 'failed')),
  failure text,
  reason text,
  trans_ref text NOT NULL,
  complete_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sandbox_bank_payouts_created ON sandbox_bank_payouts (created_at);`,
  },
];

export const dropSandboxBankMigrations: readonly Migration[] = [{ id: 'deposit/011_drop_sandbox_bank', sql: `DROP TABLE IF EXISTS sandbox_bank_transfers, sandbox_faults;` }];
export const dropSandboxPayoutMigrations: readonly Migration[] = [{ id: 'wallet/005_drop_sandbox_bank_payouts', sql: `DROP TABLE IF EXISTS sandbox_bank_payouts;` }];
