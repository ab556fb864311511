import type { ColumnType, Generated } from 'kysely';
import type { DefaultTimestamp, Timestamp, ReadOnlyRow } from '../../db/schema';
import type { LookupReads } from '../lookup';

export interface MembersTable {
  id: string;
  username: string;
  name: string;
  password_hash: string;
  source_code: string | null;
  inviter_id: string | null;
  bank_code: string;
  bank_account_name: string;
  bank_account_no: string;
  /** BAHT, or LAK for Laos-mode members who chose it: the currency of every ledger account of theirs. */
  currency: string;
  /** YYYY-MM-DD (issue 22's age gate); null for members registered before it. */
  birth_date: ColumnType<string | null, string | null | undefined, string | null>;
  coin: Generated<number>;
  /** The short invite code (INVITE_CODE_ALPHABET), made when the member first asks for it; null until then. */
  invite_code: Generated<string | null>;
  status: Generated<string>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface SessionsTable {
  id: string;
  token_hash: string;
  member_id: string;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

/** Operators' notes on a member (the back office's member page). */
export interface MemberNotesTable {
  id: string;
  member_id: string;
  text: string;
  author: string;
  created_at: DefaultTimestamp;
}

/** Operators' labels of a member (vip, watch, affiliate, …): the members list filters by them. */
export interface MemberTagsTable {
  member_id: string;
  tag: string;
  author: string;
  created_at: DefaultTimestamp;
}

/** The tables this area owns: its query builder (`moduleDb`) sees these and no other area's. */
export interface AccountTables {
  member_notes: MemberNotesTable;
  member_tags: MemberTagsTable;
  members: MembersTable;
  sessions: SessionsTable;
}

/** What this module's query builder sees: its tables and the read models (views) of the areas below it. */
export type AccountDb = AccountTables & LookupReads;

declare module '../../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the whole schema is every area's tables
  interface DB extends AccountTables {}
}

/** What other areas may read of members: account/006's view (no password hash). */
export interface AccountReads {
  member_view: ReadOnlyRow<Omit<MembersTable, 'password_hash' | 'coin' | 'updated_at'>>;
}
