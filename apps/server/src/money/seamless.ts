import type { Connection } from '../db/database';
import type { MoneyDb } from './tables';
import { sql, type ColumnType, type Kysely } from 'kysely';
import type { SeamlessAnswer } from '@mw/contract/operator/seamless';
import type { DefaultTimestamp } from '../db/schema';
import { account, inTransaction, InsufficientFunds, runPosting, type Currency } from './ledger';

/**
 * One seamless-wallet transaction of a provider, once: the provider's transaction id is the key,
 * and the first answer is kept and answered to every repeat. A rollback that came before its bet
 * leaves a `tombstone` row under the bet's id, so the bet, arriving later, is refused.
 */
export interface SeamlessTransactionsTable {
  provider: string;
  transaction_id: string;
  action: 'bet' | 'win' | 'rollback' | 'tombstone';
  member_id: string;
  round_id: string | null;
  reference_id: string | null;
  /** Minor units of `currency`. */
  amount: ColumnType<string, number, number>;
  currency: string;
  /** Whether money moved (a refused bet moved none). */
  applied: boolean;
  /** A bet a later rollback undid. */
  rolled_back: ColumnType<boolean, boolean | undefined, boolean>;
  answer: ColumnType<SeamlessAnswer, string, string>;
  created_at: DefaultTimestamp;
}

/** The tables this area owns: its query builder (`moduleDb`) sees these and no other area's. */
export interface SeamlessTables {
  seamless_transactions: SeamlessTransactionsTable;
}

declare module '../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the whole schema is every area's tables
  interface DB extends SeamlessTables {}
}

export interface SeamlessCall {
  provider: string;
  action: 'bet' | 'win' | 'rollback';
  memberId: string;
  currency: Currency;
  transactionId: string;
  amount: number;
  roundId: string | null;
  referenceTransactionId: string | null;
}

/** What a call changed in the game's round (for turnover, refunds and invites): stake and win deltas in minor units. */
export interface RoundChange {
  roundId: string;
  stake: number;
  win: number;
}

function parsed(answer: SeamlessAnswer | string): SeamlessAnswer {
  return typeof answer === 'string' ? (JSON.parse(answer) as SeamlessAnswer) : answer;
}

/**
 * The seamless wallet's money: a bet moves the member's wallet to the provider's account, a win
 * back, a rollback returns a bet. Each provider transaction applies once (its row, the posting
 * and the answer commit together, under a lock on the member's seamless calls), and `onRound`
 * records the round's change in the same transaction.
 */
/** A seamless transaction we applied, as the game reconciliation reads it. */
export interface AppliedSeamless {
  transactionId: string;
  memberId: string;
  provider: string;
  action: 'bet' | 'win';
  amount: number;
  createdAt: Date;
}

export class SeamlessWallet {
  constructor(private readonly db: Kysely<MoneyDb>) {}

  /**
   * The bets and wins applied, recorded in a period or by transaction id: the game
   * reconciliation's side of a seamless game. A bet its rollback undid is left out, and rollbacks
   * are: the pair nets to nothing, and whether a rollback moved money depends on whether its bet
   * reached us, which the aggregator cannot know when the bet's answer was lost.
   */
  async applied(which: { from: Date; to: Date } | { ids: string[] }): Promise<AppliedSeamless[]> {
    if ('ids' in which && which.ids.length === 0) return [];
    let query = this.db
      .selectFrom('seamless_transactions')
      .select(['transaction_id', 'member_id', 'provider', 'action', 'amount', 'created_at'])
      .where('applied', '=', true)
      .where((eb) => eb.or([eb('action', '=', 'win'), eb.and([eb('action', '=', 'bet'), eb('rolled_back', '=', false)])]));
    query = 'ids' in which ? query.where('transaction_id', 'in', which.ids) : query.where('created_at', '>=', which.from).where('created_at', '<', which.to);
    const rows = await query.execute();
    return rows.map((r) => ({ transactionId: r.transaction_id, memberId: r.member_id, provider: r.provider, action: r.action === 'bet' ? 'bet' : 'win', amount: Number(r.amount), createdAt: r.created_at }));
  }

  async balance(memberId: string): Promise<number> {
    const row = await this.db.selectFrom('ledger_accounts').select('balance').where('id', '=', account.wallet(memberId)).executeTakeFirst();
    return row ? Number(row.balance) : 0;
  }

  async apply(call: SeamlessCall, onRound: (trx: Connection, change: RoundChange) => Promise<void>): Promise<SeamlessAnswer> {
    // A member's balance can fall between our read and the posting (a withdrawal, a transfer):
    // the posting then refuses (nothing written, the transaction void) and the call is run again.
    for (let attempt = 1; ; attempt++) {
      try {
        return await inTransaction(this.db, (trx) => this.once(trx, call, onRound));
      } catch (error) {
        if (error instanceof InsufficientFunds && attempt < 3) continue;
        throw error;
      }
    }
  }

  private async once(trx: Kysely<MoneyDb>, call: SeamlessCall, onRound: (trx: Kysely<MoneyDb>, change: RoundChange) => Promise<void>): Promise<SeamlessAnswer> {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`seamless:${call.provider}:${call.memberId}`}))`.execute(trx);
    const seen = await trx.selectFrom('seamless_transactions').select(['action', 'answer']).where('provider', '=', call.provider).where('transaction_id', '=', call.transactionId).executeTakeFirst();
    const wallet = account.wallet(call.memberId);
    const answer = (status: SeamlessAnswer['status'], balance: number): SeamlessAnswer => ({ status, balance, currency: call.currency, transactionId: call.transactionId });
    if (seen) {
      // A bet whose rollback came first: refused, and that refusal is this bet's answer from now on.
      if (seen.action === 'tombstone' && call.action === 'bet') {
        const refused = answer('ROLLED_BACK', await this.walletIn(trx, call.memberId));
        await trx.updateTable('seamless_transactions').set({ action: 'bet', answer: JSON.stringify(refused), amount: call.amount, round_id: call.roundId }).where('provider', '=', call.provider).where('transaction_id', '=', call.transactionId).execute();
        return refused;
      }
      if (seen.action !== 'tombstone') return parsed(seen.answer);
    }
    const provider = await this.providerAccount(trx, call.provider, call.currency);
    let result: SeamlessAnswer;
    let applied = false;
    if (call.action === 'bet') {
      const balance = await this.walletIn(trx, call.memberId);
      if (balance < call.amount) result = answer('INSUFFICIENT_FUNDS', balance);
      else {
        const after = await runPosting(trx, { kind: 'seamless_bet', operationId: null, postings: [{ account: wallet, amount: -call.amount }, { account: provider, amount: call.amount }] });
        result = answer('OK', after?.get(wallet) ?? balance - call.amount);
        applied = true;
        if (call.roundId) await onRound(trx, { roundId: call.roundId, stake: call.amount, win: 0 });
      }
    } else if (call.action === 'win') {
      const after = await runPosting(trx, { kind: 'seamless_win', operationId: null, postings: [{ account: provider, amount: -call.amount }, { account: wallet, amount: call.amount }] });
      result = answer('OK', after?.get(wallet) ?? 0);
      applied = true;
      if (call.roundId) await onRound(trx, { roundId: call.roundId, stake: 0, win: call.amount });
    } else {
      // Applied only when money moved back (a rollback of a bet never seen, refused or undone already answers OK and moves nothing).
      const undone = await this.rollback(trx, call, provider, answer, onRound);
      result = undone.result;
      applied = undone.moved;
    }
    await trx
      .insertInto('seamless_transactions')
      .values({
        provider: call.provider,
        transaction_id: call.transactionId,
        action: call.action,
        member_id: call.memberId,
        round_id: call.roundId,
        reference_id: call.referenceTransactionId,
        amount: call.amount,
        currency: call.currency,
        applied,
        answer: JSON.stringify(result),
      })
      .onConflict((oc) => oc.columns(['provider', 'transaction_id']).doUpdateSet({ action: call.action, answer: JSON.stringify(result), applied, amount: call.amount }))
      .execute();
    return result;
  }

  /** Undoes a bet once: its money back to the wallet. A bet never seen is remembered as rolled back (a tombstone) and the rollback answers OK. */
  private async rollback(
    trx: Kysely<MoneyDb>,
    call: SeamlessCall,
    provider: string,
    answer: (status: SeamlessAnswer['status'], balance: number) => SeamlessAnswer,
    onRound: (trx: Kysely<MoneyDb>, change: RoundChange) => Promise<void>,
  ): Promise<{ result: SeamlessAnswer; moved: boolean }> {
    const ref = call.referenceTransactionId;
    if (!ref) return { result: answer('TRANSACTION_NOT_FOUND', await this.walletIn(trx, call.memberId)), moved: false };
    const bet = await trx.selectFrom('seamless_transactions').selectAll().where('provider', '=', call.provider).where('transaction_id', '=', ref).executeTakeFirst();
    if (!bet) {
      await trx
        .insertInto('seamless_transactions')
        .values({ provider: call.provider, transaction_id: ref, action: 'tombstone', member_id: call.memberId, round_id: call.roundId, reference_id: call.transactionId, amount: call.amount, currency: call.currency, applied: false, rolled_back: true, answer: JSON.stringify(answer('ROLLED_BACK', 0)) })
        .execute();
      return { result: answer('OK', await this.walletIn(trx, call.memberId)), moved: false };
    }
    if (bet.action === 'tombstone' || bet.rolled_back) return { result: answer('OK', await this.walletIn(trx, call.memberId)), moved: false };
    if (bet.action !== 'bet' || bet.member_id !== call.memberId) return { result: answer('TRANSACTION_NOT_FOUND', await this.walletIn(trx, call.memberId)), moved: false };
    await trx.updateTable('seamless_transactions').set({ rolled_back: true }).where('provider', '=', call.provider).where('transaction_id', '=', ref).execute();
    if (!bet.applied) return { result: answer('OK', await this.walletIn(trx, call.memberId)), moved: false };
    const amount = Number(bet.amount);
    const wallet = account.wallet(call.memberId);
    const after = await runPosting(trx, { kind: 'seamless_rollback', operationId: null, postings: [{ account: provider, amount: -amount }, { account: wallet, amount }] });
    // The bet no longer counts as play: its round's stake goes back down.
    if (bet.round_id) await onRound(trx, { roundId: bet.round_id, stake: -amount, win: 0 });
    return { result: answer('OK', after?.get(wallet) ?? 0), moved: true };
  }

  private async walletIn(trx: Kysely<MoneyDb>, memberId: string): Promise<number> {
    const row = await trx.selectFrom('ledger_accounts').select('balance').where('id', '=', account.wallet(memberId)).executeTakeFirst();
    return row ? Number(row.balance) : 0;
  }

  /** The provider's system account in this currency (made on first use). */
  private async providerAccount(trx: Kysely<MoneyDb>, code: string, currency: Currency): Promise<string> {
    const id = account.provider(code, currency);
    await trx.insertInto('ledger_accounts').values({ id, member_id: null, kind: 'system', game_code: code, currency }).onConflict((oc) => oc.column('id').doNothing()).execute();
    return id;
  }
}
