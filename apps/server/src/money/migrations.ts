import type { Migration } from '../db/migrations';

/** The money core's tables: the double-entry ledger, operations and Idempotency-Keys. */
export const moneyMigrations: readonly Migration[] = [
  {
    id: 'money/001_ledger_operations_keys',
    appliedWith: '005_money_core',
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
-- Every entry records its account's balance right after it: the answer to a money call's
-- Idempotency-Key is read from these, never computed afresh.
CREATE TABLE ledger_entries (
  id bigserial PRIMARY KEY,
  transaction_id bigint NOT NULL REFERENCES ledger_transactions(id),
  account_id text NOT NULL REFERENCES ledger_accounts(id),
  amount bigint NOT NULL CHECK (amount <> 0),
  balance_after bigint
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
-- What a member sees in the statement: one row per deposit, withdrawal or transfer. It names its
-- own ledger transactions (ids drawn from the sequence in the statement that writes or settles it).
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
  updated_at timestamptz NOT NULL DEFAULT now(),
  start_tx bigint,
  settle_tx bigint
);
CREATE INDEX operations_member_time ON operations (member_id, created_at DESC, id DESC);
CREATE INDEX operations_pending ON operations (type, created_at) WHERE status = 'PENDING';
-- Idempotency-Key of money calls: the operation the first request recorded (written in the same
-- statement as that operation and its money), or a stored refusal, or a composite call's plan
-- and answer.
CREATE TABLE idempotency_keys (
  member_id text NOT NULL REFERENCES members(id),
  key text NOT NULL,
  request_hash text NOT NULL,
  operation_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  answer jsonb,
  answer_status smallint,
  plan jsonb,
  PRIMARY KEY (member_id, key)
);`,
  },
  {
    id: 'money/002_currencies',
    sql: `
-- Every account holds one currency (ISO 4217): a member's accounts are in the member's currency
-- (LAK for Laos members who chose it), system accounts exist per currency, and a ledger
-- transaction never mixes two (the trigger below refuses the statement that would).
ALTER TABLE ledger_accounts ADD COLUMN currency text NOT NULL DEFAULT 'THB' CHECK (currency IN ('THB', 'LAK'));
UPDATE ledger_accounts a SET currency = 'LAK' FROM members m WHERE a.member_id = m.id AND m.currency = 'LAK';
INSERT INTO ledger_accounts (id, kind, currency) VALUES
  ('sys:deposits:LAK', 'system', 'LAK'), ('sys:withdrawals:LAK', 'system', 'LAK'), ('sys:bonus:LAK', 'system', 'LAK');
CREATE FUNCTION ledger_one_currency() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM new_entries e JOIN ledger_accounts a ON a.id = e.account_id
    GROUP BY e.transaction_id HAVING count(DISTINCT a.currency) > 1
  ) THEN
    RAISE EXCEPTION 'a ledger transaction mixes currencies' USING ERRCODE = 'MW001';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER ledger_entries_one_currency AFTER INSERT ON ledger_entries
  REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION ledger_one_currency();`,
  },
  {
    id: 'money/003_external_credits',
    sql: `
-- Money that an outside system says arrived (a payment gateway, a bank feed, an operator):
-- one credit per (source, ref), ever. The row is written in the statement that records the
-- operation and moves the money, so a repeated, late or concurrent message finds it and moves
-- nothing.
CREATE TABLE external_credits (
  source text NOT NULL,
  ref text NOT NULL,
  operation_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (source, ref)
);`,
  },
  {
    id: 'money/004_coins',
    sql: `
-- Wheel coins are value: each member's coins are a ledger account of their own unit (COIN, kind
-- coin), issued from and spent back to the system account sys:coins:COIN. The one-currency
-- trigger keeps them out of every money transaction, and the ledger check sums them apart.
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_check CHECK (kind IN ('wallet', 'game', 'inflight', 'withdrawal', 'coin', 'system'));
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_currency_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_currency_check CHECK (currency IN ('THB', 'LAK', 'COIN'));
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_coin_unit CHECK ((kind = 'coin') = (currency = 'COIN') OR kind = 'system');
INSERT INTO ledger_accounts (id, kind, currency) VALUES ('sys:coins:COIN', 'system', 'COIN');
-- Opening postings: the coins members held in members.coin (no longer written) move onto the
-- ledger, one transaction per member, from the coin issuer.
INSERT INTO ledger_accounts (id, member_id, kind, currency)
  SELECT 'm:' || id || ':coin', id, 'coin', 'COIN' FROM members WHERE coin > 0;
INSERT INTO ledger_transactions (operation_id, kind)
  SELECT 'coin-opening:' || id, 'coin_opening' FROM members WHERE coin > 0;
INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after)
  SELECT t.id, 'm:' || m.id || ':coin', m.coin, m.coin
  FROM members m JOIN ledger_transactions t ON t.operation_id = 'coin-opening:' || m.id AND t.kind = 'coin_opening'
  WHERE m.coin > 0
  UNION ALL
  SELECT t.id, 'sys:coins:COIN', -m.coin, NULL
  FROM members m JOIN ledger_transactions t ON t.operation_id = 'coin-opening:' || m.id AND t.kind = 'coin_opening'
  WHERE m.coin > 0;
UPDATE ledger_accounts a SET balance = m.coin, version = a.version + 1 FROM members m WHERE a.id = 'm:' || m.id || ':coin' AND m.coin > 0;
UPDATE ledger_accounts SET balance = -(SELECT coalesce(sum(coin), 0) FROM members), version = version + 1 WHERE id = 'sys:coins:COIN';`,
  },
  {
    // The kinds of ledger transactions as the code's closed list (ledger.ts POSTING_KINDS): a
    // transaction of another kind cannot be written, whoever writes it.
    id: 'money/005_transaction_kinds',
    sql: `
ALTER TABLE ledger_transactions ADD CONSTRAINT ledger_transactions_kind CHECK (kind IN (
  'deposit', 'withdraw_hold', 'withdraw_complete', 'withdraw_reject', 'transfer_start', 'transfer_complete', 'transfer_reverse', 'game_result', 'bonus', 'refund', 'invite', 'spin_prize', 'adjustment', 'coin_earn', 'coin_grant', 'coin_spend', 'coin_opening'));`,
  },
  {
    // Responsible play (issue 22): a deposit's time by the money core's clock (the sandbox clock
    // moves it, so a test can roll a limit's window), counted by the deposit limits; and held
    // deposits: a deposit operation PENDING with no money (over a limit, during a break) until an
    // operator releases it (SUCCESS, credited then) or returns it (FAILED, DEPOSIT_RETURNED).
    id: 'money/006_deposit_credited_at',
    sql: `
ALTER TABLE operations ADD COLUMN credited_at timestamptz;
UPDATE operations SET credited_at = created_at WHERE type = 'deposit' AND status = 'SUCCESS';
CREATE INDEX operations_member_credited ON operations (member_id, credited_at) WHERE type = 'deposit' AND credited_at IS NOT NULL;`,
  },
  {
    // The seamless wallet (issue 36): an aggregator's bets, wins and rollbacks move the wallet
    // itself, each provider transaction once (its first answer kept), a rollback before its bet
    // remembered as a tombstone.
    id: 'money/007_seamless_wallet',
    sql: `
ALTER TABLE ledger_transactions DROP CONSTRAINT ledger_transactions_kind;
ALTER TABLE ledger_transactions ADD CONSTRAINT ledger_transactions_kind CHECK (kind IN (
  'deposit', 'withdraw_hold', 'withdraw_complete', 'withdraw_reject', 'transfer_start', 'transfer_complete', 'transfer_reverse', 'game_result', 'bonus', 'refund', 'invite', 'spin_prize', 'adjustment', 'coin_earn', 'coin_grant', 'coin_spend', 'coin_opening',
  'seamless_bet', 'seamless_win', 'seamless_rollback'));
CREATE TABLE seamless_transactions (
  provider text NOT NULL,
  transaction_id text NOT NULL,
  action text NOT NULL CHECK (action IN ('bet', 'win', 'rollback', 'tombstone')),
  member_id text NOT NULL REFERENCES members(id),
  round_id text,
  reference_id text,
  amount bigint NOT NULL CHECK (amount >= 0),
  currency text NOT NULL CHECK (currency IN ('THB', 'LAK')),
  applied boolean NOT NULL,
  rolled_back boolean NOT NULL DEFAULT false,
  answer jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, transaction_id)
);
CREATE INDEX seamless_transactions_time ON seamless_transactions (provider, created_at);`,
  },
  {
    // Reports (issue 34) read the ledger by time and kind: a year of postings is a range of this
    // index, and a credit's channel is found from its transaction's operation.
    id: 'money/008_report_indexes',
    sql: `
CREATE INDEX ledger_transactions_kind_time ON ledger_transactions (kind, created_at);
CREATE INDEX ledger_transactions_time ON ledger_transactions (created_at);
CREATE INDEX external_credits_operation ON external_credits (operation_id);`,
  },
  {
    // The operations other areas may read (issue 35): a read-only view without the settling transaction
    // column (settle_tx), typed as MoneyReads. Areas write operations only through
    // the money core's API.
    id: 'money/009_operation_view',
    sql: `
CREATE VIEW operation_view AS
  SELECT id, member_id, type, status, source, target, amount, note, start_tx, credited_at, created_at, updated_at FROM operations;
CREATE OR REPLACE FUNCTION refuse_read_model_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is a read model: write through its owner''s service', TG_TABLE_NAME USING ERRCODE = '0A000';
END $$;
CREATE TRIGGER operation_view_read_only INSTEAD OF INSERT OR UPDATE OR DELETE ON operation_view FOR EACH ROW EXECUTE FUNCTION refuse_read_model_write();`,
  },
  {
    // Transfer codes as data (issue 35): a ledger transaction's kind is a foreign key into this
    // table instead of a CHECK listing every kind, so a module's new code needs no money
    // migration. The core's codes are written here; a module's are written at start from its
    // declaration (codes.ts `transferCode`); the four domain codes the ledger already holds are
    // written here too, so the key holds for every transaction already written.
    id: 'money/010_transfer_codes',
    sql: `
CREATE TABLE transfer_codes (
  code text PRIMARY KEY CHECK (code ~ '^[a-z][a-z0-9_]{1,39}$'),
  owner text NOT NULL,
  description text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO transfer_codes (code, owner, description) VALUES
  ('deposit', 'money', 'Money credited to a wallet (a deposit, a manual or a held deposit released)'),
  ('withdraw_hold', 'money', 'A withdrawal''s money held from the wallet'),
  ('withdraw_complete', 'money', 'A held withdrawal paid out'),
  ('withdraw_reject', 'money', 'A held withdrawal returned to the wallet'),
  ('transfer_start', 'money', 'A wallet-game transfer''s money put in flight'),
  ('transfer_complete', 'money', 'A transfer in flight landed'),
  ('transfer_reverse', 'money', 'A transfer in flight returned'),
  ('game_result', 'money', 'A game''s result booked from the provider''s balance'),
  ('adjustment', 'money', 'An operator''s adjustment'),
  ('coin_earn', 'money', 'Wheel coins earned'),
  ('coin_grant', 'money', 'Wheel coins granted'),
  ('coin_spend', 'money', 'Wheel coins spent'),
  ('coin_opening', 'money', 'Wheel coins carried onto the ledger'),
  ('seamless_bet', 'money', 'A seamless game''s bet'),
  ('seamless_win', 'money', 'A seamless game''s win'),
  ('seamless_rollback', 'money', 'A seamless game''s bet rolled back'),
  ('bonus', 'bonus', 'A bonus or promotion paid into the wallet, or taken back at its end'),
  ('refund', 'refund', 'A refund of losses paid into the wallet'),
  ('invite', 'invite', 'An invite earning paid into the wallet'),
  ('spin_prize', 'spin', 'A wheel prize paid into the wallet');
ALTER TABLE ledger_transactions DROP CONSTRAINT ledger_transactions_kind;
ALTER TABLE ledger_transactions ADD CONSTRAINT ledger_transactions_kind FOREIGN KEY (kind) REFERENCES transfer_codes (code);`,
  },
  {
    // The lean transfer (issue 35, item 4). An operation carries the Idempotency-Key it was
    // recorded under (no idempotency_keys row for it); a key is one thing, so an operation under a
    // key that recorded a refusal or a plan, or that the route layer holds for another call (#key),
    // is refused like a duplicate, and no such record is written under a key an operation holds
    // (the triggers below). A wallet-game transfer
    // is one ledger transaction: 'transfer' (wallet to game when it starts, game to wallet when the
    // provider has paid), 'transfer_return' when the provider refused money sent to it.
    id: 'money/011_lean_transfer',
    sql: `
ALTER TABLE operations ADD COLUMN idem_key text, ADD COLUMN request_hash text;
CREATE UNIQUE INDEX operations_idem_key ON operations (member_id, idem_key) WHERE idem_key IS NOT NULL;
-- One client key is one request, whichever table records it: an operation (idem_key), a refusal,
-- a plan or a route-layer claim (idempotency_keys: K, or #K for the route layer). Both writers
-- take the same transaction lock on (member, K) and then look at the other table (a volatile
-- function's statement sees what committed while it waited), so of two requests racing with one
-- key across the tables, the second sees the first.
CREATE OR REPLACE FUNCTION client_key_lock(member text, k text) RETURNS void LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(hashtextextended(member || chr(10) || k, 35))
$$;
CREATE OR REPLACE FUNCTION operation_key_unused() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM client_key_lock(NEW.member_id, NEW.idem_key);
  -- The key's own row (a refusal, a plan) is its answer; the route layer's #key of another request
  -- is another call under this key. The route layer's claim of this very request (same hash: a
  -- call the route layer keys, whose step records an operation) is not a conflict.
  IF EXISTS (SELECT 1 FROM idempotency_keys k WHERE k.member_id = NEW.member_id
      AND (k.key = NEW.idem_key OR (k.key = '#' || NEW.idem_key AND k.request_hash IS DISTINCT FROM NEW.request_hash))) THEN
    RAISE EXCEPTION 'idempotency key % already recorded', NEW.idem_key USING ERRCODE = '23505', CONSTRAINT = 'operations_idem_key';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER operations_key_unused BEFORE INSERT ON operations FOR EACH ROW WHEN (NEW.idem_key IS NOT NULL) EXECUTE FUNCTION operation_key_unused();
-- A key row whose client key an operation holds, or whose other spelling (K against #K) another
-- request holds, is not written: a refusal, a plan or a claim is skipped (the insert's "taken",
-- as ON CONFLICT DO NOTHING would answer); a row that names its operation fails as a duplicate
-- (its statement, which wrote the operation, must not stand).
CREATE OR REPLACE FUNCTION key_row_unused() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  client text := CASE WHEN left(NEW.key, 1) = '#' THEN substr(NEW.key, 2) ELSE NEW.key END;
  other text := CASE WHEN left(NEW.key, 1) = '#' THEN substr(NEW.key, 2) ELSE '#' || NEW.key END;
BEGIN
  PERFORM client_key_lock(NEW.member_id, client);
  IF EXISTS (SELECT 1 FROM operations o WHERE o.member_id = NEW.member_id AND o.idem_key = client
        AND (left(NEW.key, 1) <> '#' OR o.request_hash IS DISTINCT FROM NEW.request_hash))
     OR EXISTS (SELECT 1 FROM idempotency_keys k WHERE k.member_id = NEW.member_id AND k.key = other AND k.request_hash IS DISTINCT FROM NEW.request_hash) THEN
    IF NEW.operation_id IS NOT NULL THEN
      RAISE EXCEPTION 'idempotency key % already recorded', NEW.key USING ERRCODE = '23505', CONSTRAINT = 'idempotency_keys_pkey';
    END IF;
    RETURN NULL;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER idempotency_keys_unused BEFORE INSERT ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION key_row_unused();
-- Every process must run this version once 011 is in: the code before it expected one key row
-- per operation (docs/configuration.md, upgrading).
INSERT INTO transfer_codes (code, owner, description) VALUES
  ('transfer', 'money', 'A wallet-game transfer: wallet to game when it starts, game to wallet once the provider paid'),
  ('transfer_return', 'money', 'A transfer to a game the provider refused, back to the wallet')
ON CONFLICT (code) DO NOTHING;`,
  },
];
