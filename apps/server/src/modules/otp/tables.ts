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

declare module '../../db/schema' {
  interface DB {
    otp_requests: OtpRequestsTable;
  }
}
