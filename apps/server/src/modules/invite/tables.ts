import type { DefaultTimestamp } from '../../db/schema';
import type { AccountReads } from '../account';
import type { MoneyReads } from '../../money';

/** What an inviter earned from one deposit of an invitee (once per deposit operation). */
export interface InviteEarningsTable {
  operation_id: string;
  inviter_id: string;
  invitee_id: string;
  /** Minor units of `currency`: the deposit's (the invitee's), which is the inviter's too. */
  amount: number;
  currency: string;
  created_at: DefaultTimestamp;
  /** The credit that paid it to the inviter's wallet, once received. */
  paid_operation_id: string | null;
  payout_id: string | null;
}

/** The tables this area owns: its query builder (`moduleDb`) sees these and no other area's. */
export interface InviteTables {
  invite_earnings: InviteEarningsTable;
}

/** What this module's query builder sees: its tables and the read models (views) of the areas below it. */
export type InviteDb = InviteTables & AccountReads & MoneyReads;

declare module '../../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the whole schema is every area's tables
  interface DB extends InviteTables {}
}
