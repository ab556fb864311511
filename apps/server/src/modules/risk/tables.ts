import type { ColumnType } from 'kysely';
import type { DefaultTimestamp } from '../../db/schema';

/** What the risk signals compare: a member's registration, logins, bonus claims and withdrawals, with the device and address they came from. */
export interface RiskEventsTable {
  id: string;
  member_id: string;
  kind: RiskEventKind;
  /** The member app's X-Device-Id (null when none or malformed came). */
  device_id: string | null;
  /** The client's address; null for one that says nothing about the client (loopback: an untrusted proxy). */
  address: string | null;
  /** A registration's bank account number as digits ('' for other events). */
  account_key: string;
  detail: ColumnType<unknown, string, string>;
  at: DefaultTimestamp;
}

export type RiskEventKind = 'register' | 'login' | 'login-failed' | 'bonus-claim' | 'withdrawal';

/** A signal raised on one or more members, with its evidence, until a person resolves or dismisses it. */
export interface RiskFlagsTable {
  id: string;
  kind: string;
  member_ids: ColumnType<string[], string[], string[]>;
  evidence: ColumnType<unknown, string, string>;
  /** One flag per occurrence (`same-device:<device>:<member>`, `low-turnover:<withdrawal>`, …). */
  dedupe_key: string;
  status: 'open' | 'resolved' | 'dismissed';
  note: string | null;
  decided_by: string | null;
  decided_at: Date | null;
  created_at: DefaultTimestamp;
}

/** The tables this area owns: its query builder (`moduleDb`) sees these and no other area's. */
export interface RiskTables {
  risk_events: RiskEventsTable;
  risk_flags: RiskFlagsTable;
}

declare module '../../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the whole schema is every area's tables
  interface DB extends RiskTables {}
}

export const riskMigrations = [
  {
    id: 'risk/001_events_and_flags',
    sql: `
-- Risk signals (issue 34): what members did from which device and address, and the flags raised on it.
CREATE TABLE risk_events (
  id text PRIMARY KEY,
  member_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('register', 'login', 'login-failed', 'bonus-claim', 'withdrawal')),
  device_id text,
  address text,
  account_key text NOT NULL DEFAULT '',
  detail jsonb NOT NULL DEFAULT '{}',
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX risk_events_device ON risk_events (device_id, at) WHERE device_id IS NOT NULL;
CREATE INDEX risk_events_address ON risk_events (address, at) WHERE address IS NOT NULL;
CREATE INDEX risk_events_account ON risk_events (account_key) WHERE account_key <> '';
CREATE INDEX risk_events_member ON risk_events (member_id, kind, at);
CREATE TABLE risk_flags (
  id text PRIMARY KEY,
  kind text NOT NULL,
  member_ids text[] NOT NULL CHECK (cardinality(member_ids) > 0),
  evidence jsonb NOT NULL,
  dedupe_key text NOT NULL UNIQUE,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'dismissed')),
  note text,
  decided_by text,
  decided_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (status = 'open' OR (note IS NOT NULL AND note <> '' AND decided_by IS NOT NULL))
);
CREATE INDEX risk_flags_members ON risk_flags USING gin (member_ids);
CREATE INDEX risk_flags_status ON risk_flags (status, created_at DESC);`,
  },
];
