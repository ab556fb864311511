import { sameConnection, type Connection } from '../db/database';
import type { MoneyDb } from './tables';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { newId } from '../lib/ids';
import { account, COIN, InsufficientFunds, runPosting, runPostingBatch } from './ledger';

/** A member's coins on the ledger (0 before any): what every coin field of the API shows. */
export async function coinBalance(dbIn: Connection, memberId: string): Promise<number> {
  const db = sameConnection<MoneyDb>(dbIn);
  const row = await db.selectFrom('ledger_accounts').select('balance').where('id', '=', account.coins(memberId)).executeTakeFirst();
  return row ? Number(row.balance) : 0;
}

/** Coins to earn, once per `ref` (the domain's claim decides which are new). */
export interface CoinAward {
  /** Unique per award, ever (it names the ledger transaction). */
  ref: string;
  memberId: string;
  coins: number;
}

/**
 * The prize wheel's coins on the ledger: every member's coins are an account of their own unit
 * (COIN, `m:<member>:coin`), issued from and spent back to `sys:coins:COIN`. Earning, granting
 * and spending are postings like money's: balanced, never below zero (the member-account CHECK),
 * the account row locked for the posting, never mixed with a currency (the one-unit trigger).
 */
export class Coins {
  constructor(private readonly db: Kysely<MoneyDb>) {}

  /** Opens members' coin accounts (idempotent). */
  async open(memberIds: readonly string[]): Promise<void> {
    const ids = [...new Set(memberIds)];
    if (ids.length === 0) return;
    await this.db
      .insertInto('ledger_accounts')
      .values(ids.map((memberId) => ({ id: account.coins(memberId), member_id: memberId, kind: 'coin' as const, currency: COIN })))
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }

  /** A member's coins (0 before any). */
  balance(memberId: string): Promise<number> {
    return coinBalance(this.db, memberId);
  }

  /**
   * Earns coins, once per award: `claim` is the domain's data-modifying CTE (named as given)
   * that records the awards not recorded yet and returns their `ref`s; only those are posted, in
   * the same statement. Answers the refs posted now.
   */
  async earn(awards: CoinAward[], claim: (name: string) => RawBuilder<unknown>): Promise<Set<string>> {
    const valid = awards.filter((a) => Number.isSafeInteger(a.coins) && a.coins > 0);
    if (valid.length === 0) return new Set();
    await this.open(valid.map((a) => a.memberId));
    const { posted } = await runPostingBatch(
      this.db,
      valid.map((a) => ({ kind: 'coin_earn', operationId: a.ref, postings: [{ account: account.coinIssuer(), amount: -a.coins }, { account: account.coins(a.memberId), amount: a.coins }] })),
      {
        before: [claim('coin_claimed'), sql`coin_guard AS (SELECT c.ref AS id, nextval(pg_get_serial_sequence('ledger_transactions', 'id')) AS tx_id FROM coin_claimed c)`],
        guard: 'coin_guard',
      },
    );
    return posted;
  }

  /** The coins operators granted a member since `since` (the daily ceiling of grants on one operator's word). */
  async grantedSince(memberId: string, since: Date): Promise<number> {
    return grantedSince(this.db, memberId, since);
  }

  /**
   * Grants coins unless the member's grants since `since` and these would pass `max`: the member's
   * coin account is locked first, so grants at once are counted one after another (ten at once
   * under the cap each read the same sum before: a cap of 300 let 1,000 through). Answers the new
   * balance, or null when over the cap (nothing written).
   */
  async grantWithin(memberId: string, coins: number, since: Date, max: number): Promise<number | null> {
    await this.open([memberId]);
    return this.db.transaction().execute(async (trx) => {
      await trx.selectFrom('ledger_accounts').select('id').where('id', '=', account.coins(memberId)).forNoKeyUpdate().executeTakeFirst();
      if ((await grantedSince(trx, memberId, since)) + coins > max) return null;
      const after = await runPosting(trx, { kind: 'coin_grant', operationId: `coin-grant:${newId()}`, postings: [{ account: account.coinIssuer(), amount: -coins }, { account: account.coins(memberId), amount: coins }] });
      return after?.get(account.coins(memberId)) ?? 0;
    });
  }

  /** Grants coins (operators, tests); answers the new balance. */
  async grant(memberId: string, coins: number): Promise<number> {
    await this.open([memberId]);
    const after = await runPosting(this.db, { kind: 'coin_grant', operationId: `coin-grant:${newId()}`, postings: [{ account: account.coinIssuer(), amount: -coins }, { account: account.coins(memberId), amount: coins }] });
    return after?.get(account.coins(memberId)) ?? 0;
  }

  /**
   * Spends coins inside the caller's transaction (`trx`: what they pay for is recorded with them,
   * or nothing is). The member's coin account is locked and checked first, so spends at once go
   * one after another and never below zero (InsufficientFunds, nothing written: roll back);
   * then `work` records what the coins buy, given the balance left; the posting comes last, so
   * the shared issuer account is held only for the end of the transaction.
   */
  async spend<T>(trxIn: Connection, memberId: string, coins: number, ref: string, work: (remaining: number) => Promise<T>): Promise<T> {
    const trx = sameConnection<MoneyDb>(trxIn);
    const id = account.coins(memberId);
    const held = await trx.selectFrom('ledger_accounts').select('balance').where('id', '=', id).forNoKeyUpdate().executeTakeFirst();
    if (!held || Number(held.balance) < coins) throw new InsufficientFunds();
    const result = await work(Number(held.balance) - coins);
    await runPosting(trx, { kind: 'coin_spend', operationId: ref, postings: [{ account: id, amount: -coins }, { account: account.coinIssuer(), amount: coins }] });
    return result;
  }
}

/** Coins granted to a member since `since` (operators' grants; spins and awards are not grants). */
async function grantedSince(db: Kysely<MoneyDb>, memberId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
    .select(sql<string>`coalesce(sum(e.amount), 0)`.as('coins'))
    .where('e.account_id', '=', account.coins(memberId))
    .where('t.kind', '=', 'coin_grant')
    .where('t.created_at', '>=', since)
    .executeTakeFirst();
  return Number(row?.coins ?? 0);
}
