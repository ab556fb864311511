import type { Migration } from '../../db/migrations';
import type { DefaultTimestamp, Timestamp } from '../../db/schema';
import type { Generated } from 'kysely';

/** The sandbox game providers' own state: an outside system, reached only through its adapter. */
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

export interface SandboxGameFaultsTable {
  game_code: string;
  mode: 'none' | 'down' | 'timeout' | 'error-after-take';
  latency_ms: number;
  updated_at: DefaultTimestamp;
}

declare module '../../db/schema' {
  interface DB {
    sandbox_game_accounts: SandboxGameAccountsTable;
    sandbox_game_transfers: SandboxGameTransfersTable;
    sandbox_game_sessions: SandboxGameSessionsTable;
    sandbox_game_faults: SandboxGameFaultsTable;
    sandbox_game_rounds: SandboxGameRoundsTable;
  }
}

/** Every round of the sandbox's demo game, in order (seq): the provider's round feed. */
export interface SandboxGameRoundsTable {
  seq: Generated<string>;
  round_id: string;
  game_code: string;
  username: string;
  stake: number;
  win: number;
  settled_at: DefaultTimestamp;
}

/** The sandbox providers' tables (created whatever GAME_PROVIDER says, so switching needs no migration). */
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
];
