import { sql } from 'kysely';
import type { Database } from './database';

/**
 * Migrations, applied in order at start-up, each once, each in its own transaction. Never edit
 * a migration that has shipped: add a new one.
 */
export const migrations: ReadonlyArray<{ id: string; sql: string }> = [
  {
    id: '001_foundation',
    sql: `
CREATE TABLE settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL
);
CREATE TABLE banks (
  code text PRIMARY KEY,
  name_th text NOT NULL,
  name_en text NOT NULL,
  sort integer NOT NULL DEFAULT 0,
  active boolean NOT NULL DEFAULT true
);
CREATE TABLE sources (
  code text PRIMARY KEY,
  description text NOT NULL,
  sort integer NOT NULL DEFAULT 0
);
CREATE TABLE members (
  id text PRIMARY KEY,
  username text NOT NULL UNIQUE,
  name text NOT NULL,
  password_hash text NOT NULL,
  source_code text REFERENCES sources(code),
  inviter_id text REFERENCES members(id),
  bank_code text NOT NULL REFERENCES banks(code),
  bank_account_name text NOT NULL,
  bank_account_no text NOT NULL,
  currency text NOT NULL DEFAULT 'BAHT',
  coin bigint NOT NULL DEFAULT 0 CHECK (coin >= 0),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT members_bank_account UNIQUE (bank_code, bank_account_no)
);
CREATE INDEX members_inviter ON members (inviter_id);
CREATE TABLE sessions (
  id text PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  member_id text NOT NULL REFERENCES members(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_member ON sessions (member_id) WHERE revoked_at IS NULL;
CREATE TABLE otp_requests (
  token text PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('register', 'reset')),
  phone text NOT NULL,
  ref text NOT NULL,
  code_hash text NOT NULL,
  deliverable boolean NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  verified_at timestamptz,
  consumed_at timestamptz
);
CREATE INDEX otp_requests_phone ON otp_requests (phone, purpose, created_at);
CREATE TABLE phone_verifications (
  phone text PRIMARY KEY,
  verified_at timestamptz NOT NULL
);
CREATE TABLE sandbox_sms (
  id bigserial PRIMARY KEY,
  phone text NOT NULL,
  text text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sandbox_sms_phone ON sandbox_sms (phone, id DESC);
`,
  },
  {
    id: '002_ledger',
    sql: `
-- Double-entry ledger. Every movement of money is one ledger_transactions row whose entries sum
-- to zero; the balance of every account changes in the same statement as its entries.
CREATE TABLE ledger_accounts (
  id text PRIMARY KEY,
  member_id text REFERENCES members(id),
  kind text NOT NULL CHECK (kind IN ('wallet', 'game', 'inflight', 'withdrawal', 'system')),
  game_code text,
  balance bigint NOT NULL DEFAULT 0,
  version bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT member_balance_non_negative CHECK (kind = 'system' OR balance >= 0)
);
CREATE INDEX ledger_accounts_member ON ledger_accounts (member_id);
CREATE TABLE ledger_transactions (
  id bigserial PRIMARY KEY,
  operation_id text,
  kind text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE ledger_entries (
  id bigserial PRIMARY KEY,
  transaction_id bigint NOT NULL REFERENCES ledger_transactions(id),
  account_id text NOT NULL REFERENCES ledger_accounts(id),
  amount bigint NOT NULL CHECK (amount <> 0)
);
CREATE INDEX ledger_entries_transaction ON ledger_entries (transaction_id);
CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger rows are append-only: post a correcting transaction instead';
END
$$;
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_transactions_append_only BEFORE UPDATE OR DELETE ON ledger_transactions
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
INSERT INTO ledger_accounts (id, kind) VALUES ('sys:deposits', 'system'), ('sys:withdrawals', 'system'), ('sys:bonus', 'system');
`,
  },
  {
    id: '003_wallet',
    sql: `
-- Game catalogue (operators edit it here).
CREATE TABLE games (
  code text PRIMARY KEY,
  name text NOT NULL,
  logo text NOT NULL,
  background text NOT NULL,
  category text NOT NULL CHECK (category IN ('slot', 'sport', 'lotto')),
  ft_wallet_slot numeric(10, 4) NOT NULL DEFAULT 1,
  web text,
  android text,
  ios text,
  sort integer NOT NULL DEFAULT 0,
  active boolean NOT NULL DEFAULT true
);
-- A member's account at a game provider.
CREATE TABLE member_games (
  member_id text NOT NULL REFERENCES members(id),
  game_code text NOT NULL REFERENCES games(code),
  username text NOT NULL,
  password_enc text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (member_id, game_code),
  CONSTRAINT member_games_username UNIQUE (game_code, username)
);
-- What a member sees in the statement: one row per deposit, withdrawal or transfer. Its money
-- moves in ledger_transactions that carry its id.
CREATE TABLE operations (
  id text PRIMARY KEY,
  member_id text NOT NULL REFERENCES members(id),
  type text NOT NULL CHECK (type IN ('deposit', 'bonus', 'finish_bonus', 'withdraw', 'transfer')),
  status text NOT NULL CHECK (status IN ('PENDING', 'SUCCESS', 'FAILED')),
  source text NOT NULL,
  target text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  note text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX operations_member_time ON operations (member_id, created_at DESC, id DESC);
CREATE INDEX operations_pending ON operations (type, created_at) WHERE status = 'PENDING';
-- Idempotency-Key of money calls: the operation the first request recorded. It is written in
-- the same statement as that operation and its money, so a key never points at nothing.
CREATE TABLE idempotency_keys (
  member_id text NOT NULL REFERENCES members(id),
  key text NOT NULL,
  request_hash text NOT NULL,
  operation_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (member_id, key)
);
-- Slips (filled by the deposit module).
CREATE TABLE slips (
  id text PRIMARY KEY,
  member_id text NOT NULL REFERENCES members(id),
  reference text NOT NULL UNIQUE,
  amount bigint NOT NULL DEFAULT 0,
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'SUCCESS', 'FAILED')),
  note text,
  image_path text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX slips_member_time ON slips (member_id, created_at DESC, id DESC);
-- The sandbox game providers' own state: an outside system, reached only through its adapter.
CREATE TABLE sandbox_game_accounts (
  game_code text NOT NULL,
  username text NOT NULL,
  password text NOT NULL,
  balance bigint NOT NULL DEFAULT 0 CHECK (balance >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (game_code, username)
);
CREATE TABLE sandbox_game_transfers (
  game_code text NOT NULL,
  ref text NOT NULL,
  username text NOT NULL,
  amount bigint NOT NULL,
  state text NOT NULL CHECK (state IN ('applied', 'refused')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (game_code, ref)
);
CREATE TABLE sandbox_game_sessions (
  token text PRIMARY KEY,
  game_code text NOT NULL,
  username text NOT NULL,
  expires_at timestamptz NOT NULL
);
`,
  },
  {
    // Registration is bound to the otpToken the registering client verified (the token is used
    // up by the registration), not to "someone verified this phone lately".
    id: '004_otp_bound_registration',
    sql: `
DROP TABLE phone_verifications;
`,
  },
  {
    id: '005_money_core',
    sql: `
-- Every entry records its account's balance right after it: the answer to a money call's
-- Idempotency-Key is read from these, never computed afresh. Older entries get their running sum.
ALTER TABLE ledger_entries ADD COLUMN balance_after bigint;
ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_append_only;
UPDATE ledger_entries e SET balance_after = r.running
  FROM (SELECT id, sum(amount) OVER (PARTITION BY account_id ORDER BY id) AS running FROM ledger_entries) r
  WHERE r.id = e.id;
ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_append_only;
-- An operation names its own ledger transactions (the ids are drawn from the sequence in the
-- statement that writes or settles it): answers are read by these, with no index to keep up.
ALTER TABLE operations ADD COLUMN start_tx bigint;
ALTER TABLE operations ADD COLUMN settle_tx bigint;
-- A key may also hold a refusal or a composite call (its parts and its answer) with no operation.
ALTER TABLE idempotency_keys ALTER COLUMN operation_id DROP NOT NULL;
ALTER TABLE idempotency_keys ADD COLUMN answer jsonb;
ALTER TABLE idempotency_keys ADD COLUMN answer_status smallint;
ALTER TABLE idempotency_keys ADD COLUMN plan jsonb;
-- Sandbox failure injection, shared by every server process.
CREATE TABLE sandbox_game_faults (
  game_code text PRIMARY KEY,
  mode text NOT NULL CHECK (mode IN ('none', 'down', 'timeout', 'error-after-take')),
  latency_ms integer NOT NULL DEFAULT 0 CHECK (latency_ms >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);
`,
  },
];

/** Applies pending migrations; a lock keeps two starting processes from racing. */
export async function migrate(database: Database): Promise<string[]> {
  const applied: string[] = [];
  await database.db.transaction().execute(async (trx) => {
    // The lock comes first: two processes starting on an empty database would otherwise both
    // create schema_migrations (and collide in pg_type) before either holds it.
    await sql`SELECT pg_advisory_xact_lock(4242001)`.execute(trx);
    await sql`CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(trx);
    const done = new Set((await trx.selectFrom('schema_migrations').select('id').execute()).map((r) => r.id));
    for (const migration of migrations) {
      if (done.has(migration.id)) continue;
      await sql.raw(migration.sql).execute(trx);
      await trx.insertInto('schema_migrations').values({ id: migration.id }).execute();
      applied.push(migration.id);
    }
  });
  return applied;
}
