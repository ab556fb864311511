import type { Generated } from 'kysely';
import type { DefaultTimestamp, Timestamp } from '../../db/schema';

export interface OperatorsTable {
  id: string;
  username: string;
  name: string;
  role: string;
  status: Generated<string>;
  /** argon2id; null until the operator finishes enrolment. */
  password_hash: string | null;
  /** The TOTP secret (base32), sealed with the credentials key (SecretBox); null until enrolment. */
  totp_secret: string | null;
  /** The last TOTP step a code of this operator was accepted for: no code of it or before is taken again. */
  totp_last_step: string | null;
  /** One of the demo operators (SEED_DEMO): disabled by a start without the demo. */
  demo: Generated<boolean>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  last_login_at: Timestamp | null;
  /** The operator who created this one (null: the demo seed, admin:create). */
  created_by: string | null;
  /** Since when this operator is trusted as they are now: created, enrolled, re-enrolled or given a money role. */
  trusted_from: DefaultTimestamp;
  /**
   * Who last set this operator's trust (`trusted_from`): the creator, the one who gave a money role,
   * the one who issued a re-enrolment link (`api-key` for the automation key, `cli` for admin:create);
   * null for the demo seed.
   */
  trusted_by: string | null;
}

export interface OperatorSessionsTable {
  id: string;
  token_hash: string;
  operator_id: string;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  last_seen_at: Timestamp;
  revoked_at: Timestamp | null;
  address: string | null;
}

export interface OperatorChallengesTable {
  id: string;
  token_hash: string;
  operator_id: string;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  failures: Generated<number>;
  closed_at: Timestamp | null;
}

export interface OperatorEnrolmentsTable {
  id: string;
  token_hash: string;
  operator_id: string;
  /** The new TOTP secret (sealed), the operator's once the enrolment is finished. */
  totp_secret: string;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  shown_at: Timestamp | null;
  used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

/** The tables this area owns: its query builder (`moduleDb`) sees these and no other area's. */
export interface OperatorsTables {
  operators: OperatorsTable;
  operator_sessions: OperatorSessionsTable;
  operator_challenges: OperatorChallengesTable;
  operator_enrolments: OperatorEnrolmentsTable;
}

declare module '../../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the whole schema is every area's tables
  interface DB extends OperatorsTables {}
}
