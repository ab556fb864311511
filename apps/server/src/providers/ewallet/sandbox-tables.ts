import type { Migration } from '../../db/migrations';

/**
 * The in-process e-wallet sandbox's tables, as they shipped (a migration that has shipped is
 * never edited): the e-wallet's state now lives in the sandbox service (apps/sandbox, its
 * `ewallet` system), so deposit/009 drops them. A fresh database makes and drops them once.
 */
export const sandboxEwalletMigrations: readonly Migration[] = [
  {
    id: 'deposit/006_sandbox_ewallet',
    sql: `
CREATE TABLE sandbox_ewallet_vouchers (
  hash text PRIMARY KEY,
  amount bigint NOT NULL CHECK (amount > 0),
  owner_phone text NOT NULL,
  expires_at timestamptz NOT NULL,
  redeemed_by text,
  redeemed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE sandbox_ewallet_transfers (
  id text PRIMARY KEY,
  from_phone text NOT NULL,
  to_phone text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  at timestamptz NOT NULL
);`,
  },
];

export const dropSandboxEwalletMigrations: readonly Migration[] = [
  { id: 'deposit/009_drop_sandbox_ewallet', sql: `DROP TABLE IF EXISTS sandbox_ewallet_transfers, sandbox_ewallet_vouchers;` },
];
