import type { DefaultTimestamp, Timestamp } from '../../db/schema';
import type { Generated } from 'kysely';

export interface OtpRequestsTable {
  token: string;
  purpose: 'register' | 'reset';
  phone: string;
  ref: string;
  code_hash: string;
  /** false for a reset request to an unregistered phone: no SMS went out and no code matches. */
  deliverable: boolean;
  attempts: Generated<number>;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  verified_at: Timestamp | null;
  consumed_at: Timestamp | null;
}

/** The tables this area owns: its query builder (`moduleDb`) sees these and no other area's. */
export interface OtpTables {
  otp_requests: OtpRequestsTable;
}

declare module '../../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the whole schema is every area's tables
  interface DB extends OtpTables {}
}
