import type { Migration } from '../../db/migrations';

export const operatorMigrations: readonly Migration[] = [
  {
    id: 'operators/001_operators',
    sql: `
CREATE TABLE operators (
  id text PRIMARY KEY,
  username text NOT NULL UNIQUE,
  name text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'finance', 'support', 'marketing')),
  status text NOT NULL DEFAULT 'pending-enrolment' CHECK (status IN ('active', 'disabled', 'pending-enrolment')),
  password_hash text,
  totp_secret text,
  totp_last_step bigint,
  demo boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  last_login_at timestamptz
);
CREATE TABLE operator_sessions (
  id text PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  operator_id text NOT NULL REFERENCES operators(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  revoked_at timestamptz,
  address text
);
CREATE INDEX operator_sessions_operator ON operator_sessions (operator_id) WHERE revoked_at IS NULL;
CREATE TABLE operator_challenges (
  id text PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  operator_id text NOT NULL REFERENCES operators(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  failures integer NOT NULL DEFAULT 0,
  closed_at timestamptz
);
CREATE TABLE operator_enrolments (
  id text PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  operator_id text NOT NULL REFERENCES operators(id),
  totp_secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  shown_at timestamptz,
  used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX operator_enrolments_operator ON operator_enrolments (operator_id) WHERE used_at IS NULL AND revoked_at IS NULL;`,
  },
  {
    id: 'operators/002_who_made_whom',
    sql: `
-- Four eyes between people: who created an operator, and since when the operator is trusted as
-- they are now (created, enrolled or re-enrolled, given a money role). An operator the maker made
-- less than 7 days before cannot approve the maker's requests.
ALTER TABLE operators ADD COLUMN created_by text;
ALTER TABLE operators ADD COLUMN trusted_from timestamptz NOT NULL DEFAULT now();
UPDATE operators SET trusted_from = created_at;`,
  },
  {
    id: 'operators/003_trusted_by',
    sql: `
-- Four eyes between people: who last set an operator's trust (created them, gave them a money role,
-- issued their re-enrolment link; kept through the enrolment itself; \`cli\` for admin:create).
-- Null: the demo seed; before this column, the creator if known.
ALTER TABLE operators ADD COLUMN trusted_by text;
UPDATE operators SET trusted_by = created_by;`,
  },
];
