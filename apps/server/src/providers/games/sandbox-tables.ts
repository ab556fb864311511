import type { Migration } from '../../db/migrations';

/**
 * The in-process game sandbox's tables, as they shipped (a migration that has shipped is never
 * edited): the sandbox providers' state now lives in the sandbox service (apps/sandbox), so
 * wallet/004 drops them. A fresh database makes and drops them once.
 */
export const sandboxGameMigrations: readonly Migration[] = [
  {
    id: 'wallet/002_sandbox_games',
    appliedWith: '005_money_core',
    sql: `
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
-- Failure injection, shared by every server process.
CREATE TABLE sandbox_game_faults (
  game_code text PRIMARY KEY,
  mode text NOT NULL CHECK (mode IN ('none', 'down', 'timeout', 'error-after-take')),
  latency_ms integer NOT NULL DEFAULT 0 CHECK (latency_ms >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);`,
  },
  {
    id: 'wallet/003_sandbox_game_rounds',
    sql: `
CREATE TABLE sandbox_game_rounds (
  seq bigserial PRIMARY KEY,
  round_id text NOT NULL UNIQUE,
  game_code text NOT NULL,
  username text NOT NULL,
  stake bigint NOT NULL CHECK (stake > 0),
  win bigint NOT NULL CHECK (win >= 0),
  settled_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sandbox_game_rounds_feed ON sandbox_game_rounds (game_code, seq);`,
  },
  {
    id: 'wallet/004_drop_sandbox_games',
    sql: `DROP TABLE IF EXISTS sandbox_game_rounds, sandbox_game_faults, sandbox_game_sessions, sandbox_game_transfers, sandbox_game_accounts;`,
  },
];
