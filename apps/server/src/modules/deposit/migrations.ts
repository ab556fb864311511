import type { Migration } from '../../db/migrations';
import { dropSandboxBankMigrations, sandboxBankMigrations, sandboxFaultsMigrations } from '../../providers/bank/sandbox-tables';
import { dropSandboxEwalletMigrations, sandboxEwalletMigrations } from '../../providers/ewallet/sandbox-tables';
import { dropSandboxGatewayMigrations, sandboxGatewayMigrations } from '../../providers/payments/sandbox-tables';

export const depositMigrations: readonly Migration[] = [
  {
    id: 'deposit/001_channels_qr_unmatched',
    sql: `
CREATE TABLE deposit_channels (
  id text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('bank', 'wallet')),
  bank_code text NOT NULL,
  bank_type text NOT NULL DEFAULT 'BANK' CHECK (bank_type IN ('BANK', 'PAYMENT')),
  mode text NOT NULL CHECK (mode IN ('AUTO', 'SMS', 'MANUAL', 'NONE', 'GIFT')),
  account_name text NOT NULL DEFAULT '',
  account_no text NOT NULL DEFAULT '',
  currency text NOT NULL DEFAULT 'BAHT' CHECK (currency IN ('BAHT', 'LAK')),
  sort integer NOT NULL DEFAULT 0,
  active boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX deposit_channels_account ON deposit_channels (bank_code, account_no);
CREATE TABLE qr_codes (
  id text PRIMARY KEY,
  member_id text NOT NULL REFERENCES members(id),
  provider text NOT NULL,
  reference text NOT NULL UNIQUE,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  payload text,
  gateway_ref text,
  status text NOT NULL CHECK (status IN ('OPEN', 'PAID', 'EXPIRED', 'CANCELLED')),
  expires_at timestamptz NOT NULL,
  paid_amount bigint,
  operation_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- One open QR per member and provider (an expired one is closed before a new one is opened).
CREATE UNIQUE INDEX qr_codes_one_open ON qr_codes (member_id, provider) WHERE status = 'OPEN';
CREATE TABLE unmatched_deposits (
  id text PRIMARY KEY,
  source text NOT NULL,
  ref text NOT NULL,
  channel text NOT NULL,
  from_bank_code text,
  from_account_no text,
  from_name text,
  to_account_no text,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  reason text NOT NULL,
  received_at timestamptz NOT NULL,
  assigned_member_id text REFERENCES members(id),
  operation_id text,
  assigned_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (source, ref)
);
CREATE INDEX unmatched_deposits_open ON unmatched_deposits (created_at) WHERE assigned_member_id IS NULL;`,
  },
  ...sandboxGatewayMigrations,
  ...sandboxBankMigrations,
  {
    id: 'deposit/004_qr_reconciled',
    sql: `
-- When the reconciler learnt from the gateway that an expired or cancelled QR was never paid
-- (final: a gateway takes no money after that); such QRs are not asked about again.
ALTER TABLE qr_codes ADD COLUMN reconciled_at timestamptz;
CREATE INDEX qr_codes_unreconciled ON qr_codes (created_at) WHERE status <> 'PAID' AND reconciled_at IS NULL AND gateway_ref IS NOT NULL;`,
  },
  ...sandboxFaultsMigrations,
  ...sandboxEwalletMigrations,
  {
    id: 'deposit/007_ewallet_redemptions',
    sql: `
-- Gift vouchers members sent: claimed per hash while redeemed, CREDITED once the member has it.
CREATE TABLE ewallet_redemptions (
  hash text PRIMARY KEY,
  member_id text NOT NULL REFERENCES members(id),
  channel text NOT NULL,
  status text NOT NULL CHECK (status IN ('REDEEMING', 'CREDITED')),
  -- The attempt working on it now (one at a time); NULL between attempts.
  attempt text,
  amount bigint,
  operation_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ewallet_redemptions_open ON ewallet_redemptions (updated_at) WHERE status = 'REDEEMING';`,
  },
  {
    id: 'deposit/008_slip_rules_from_config',
    sql: `
-- The slip rules were once seeded into settings at start, which hid SLIP_CLOSED_FROM/TO and
-- SLIP_MAX_AGE_MINUTES; a stored value equal to that seed is dropped (an operator's own stays).
DELETE FROM settings WHERE key = 'slip' AND value = '{"uploadEnabled": true, "closedFrom": "23:50", "closedTo": "00:10", "maxAgeMinutes": 60}'::jsonb;`,
  },
  ...dropSandboxEwalletMigrations,
  ...dropSandboxGatewayMigrations,
  ...dropSandboxBankMigrations,
];
