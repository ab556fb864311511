import { sameConnection, type Connection } from '../db/database';
import type { MoneyDb } from './tables';
import { sql, type Kysely } from 'kysely';
import { WALLET_CODE } from '@mw/contract/constants';
import { newId } from '../lib/ids';
import { account, inTransaction, runPosting, type Currency } from './ledger';
import type { Unit } from './tables';
import type { DomainCode } from './codes';

/**
 * A member's whole position as the ledger holds it: the wallet, money in flight to or from a
 * game (a PENDING transfer), and every game account (the ledger's copy of each provider balance;
 * refresh it from the providers first when wins and losses matter). A withdrawal's hold is not
 * part of it: that money is on its way to the bank.
 */
export interface MemberPosition {
  currency: Currency;
  wallet: number;
  /**
   * Money on its way between the wallet and a game: the amounts of the member's PENDING transfers
   * (a transfer is one ledger transaction, so that money is still counted where the ledger has it:
   * the game account for both directions) plus the in-flight account of transfers started before
   * money/011. Not added to `total` a second time.
   */
  inflight: number;
  /** Game code → balance (minor units), every game account the member has, zero balances included. */
  games: Map<string, number>;
  /** wallet + every game (+ the in-flight account of older transfers). */
  total: number;
}

/** How a promotion's condition ends, recorded as a `finish_bonus` operation (the statement's row). */
export interface PromotionEnd {
  memberId: string;
  currency: Currency;
  /** The statement's "from": the bonus (or promotion) code. */
  source: string;
  status: 'SUCCESS' | 'FAILED';
  /** What the statement row shows (minor units). */
  amount: number;
  /** Minor units taken back from the wallet to the promotion account of the currency (0: none). */
  takeBack: number;
  note: string;
  /** The transfer code the take-back is recorded under (the promotion module's own). */
  code: DomainCode;
}

/** The accounts read are money (wallet, in flight, games), never coins: their unit is the member's currency. */
type Row = { id: string; kind: string; game_code: string | null; currency: Unit; balance: string | number };

function positionOf(memberId: string, rows: Row[], fallback: Currency, pending: number): MemberPosition {
  const first = rows[0]?.currency;
  const position: MemberPosition = { currency: first && first !== 'COIN' ? first : fallback, wallet: 0, inflight: 0, games: new Map(), total: 0 };
  for (const r of rows) {
    const balance = Number(r.balance);
    if (r.id === account.wallet(memberId)) position.wallet = balance;
    else if (r.id === account.inflight(memberId)) position.inflight = balance;
    else if (r.kind === 'game' && r.game_code) position.games.set(r.game_code, balance);
    else continue;
    position.total += balance;
  }
  position.inflight += pending;
  return position;
}

/** The sum of a member's operations of one type and status (those recorded after ledger transaction `after`, when given). */
async function sumOfOperations(db: Kysely<MoneyDb>, memberId: string, type: 'transfer' | 'deposit', status: 'PENDING' | 'SUCCESS', after?: number): Promise<number> {
  let query = db
    .selectFrom('operations')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string | number>('amount'), eb.val(0)).as('total'))
    .where('member_id', '=', memberId)
    .where('type', '=', type)
    .where('status', '=', status);
  if (after !== undefined) query = query.where('start_tx', '>', after);
  if (type === 'transfer') {
    // A transfer started before money/011 holds its money in the in-flight account, counted there.
    query = query.where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('ledger_transactions as t').select('t.id').whereRef('t.id', '=', 'operations.start_tx').where('t.kind', '=', 'transfer_start'))),
    );
  }
  return Number((await query.executeTakeFirstOrThrow()).total);
}

/**
 * The money of the member's transfers still pending (a transfer to a game is on the game account
 * already, one from it not yet on the wallet); one started before money/011 is in the in-flight
 * account's balance instead.
 */
function pendingTransfers(db: Kysely<MoneyDb>, memberId: string): Promise<number> {
  return sumOfOperations(db, memberId, 'transfer', 'PENDING');
}

/**
 * The money core's door for promotions that end: read a member's whole position (its accounts in
 * one statement: a transfer between the wallet and a game is one ledger transaction, so its money
 * never shows twice or not at all), or lock it while
 * a condition is closed and what the rule takes back is taken (`locked`, then `end`).
 */
export class Positions {
  constructor(
    private readonly db: Kysely<MoneyDb>,
    /** This process's settlements of the member written behind their answer, still unwritten (TransferPostings.caughtUp): waited for before a read. */
    private readonly caughtUp: (memberId: string) => Promise<unknown> | undefined = () => undefined,
  ) {}

  /** The member's position: its accounts read in one statement, and its pending transfers (no lock). */
  async read(memberId: string, currency: Currency): Promise<MemberPosition> {
    await this.caughtUp(memberId);
    const [rows, pending] = await Promise.all([
      this.db.selectFrom('ledger_accounts').select(['id', 'kind', 'game_code', 'currency', 'balance']).where('member_id', '=', memberId).where('kind', 'in', ['wallet', 'inflight', 'game']).execute(),
      pendingTransfers(this.db, memberId),
    ]);
    return positionOf(memberId, rows, currency, pending);
  }

  /**
   * Runs `run` in one database transaction holding every ledger account of the member locked (in
   * id order, as every posting locks): no transfer, game result, deposit or withdrawal of the
   * member moves while it decides, so what it reads is what it takes back from. `run` must use
   * only `trx` (the embedded database has one connection: another query would wait for ever).
   */
  async locked<T>(memberId: string, currency: Currency, run: (trx: Connection, position: MemberPosition) => Promise<T>): Promise<T> {
    await this.caughtUp(memberId);
    for (let attempt = 1; ; attempt++) {
      try {
        return await inTransaction(this.db, async (trx) => {
          const rows = await sql<Row>`
            SELECT id, kind, game_code, currency, balance FROM ledger_accounts
            WHERE member_id = ${memberId} ORDER BY id FOR NO KEY UPDATE`.execute(trx);
          // Read after the lock: a transfer from a game records its operation without locking an account.
          const pending = await pendingTransfers(sameConnection<MoneyDb>(trx), memberId);
          return run(trx, positionOf(memberId, rows.rows, currency, pending));
        });
      } catch (error) {
        // A deadlock or serialisation victim wrote nothing: the whole decision runs again.
        const state = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
        if ((state === '40P01' || state === '40001') && attempt < 5) continue;
        throw error;
      }
    }
  }

  /**
   * A mark on the ledger's order: every money movement recorded after this call gets a later
   * transaction id (read it after reading the balances it goes with).
   */
  async mark(trxIn: Connection): Promise<number> {
    const trx = sameConnection<MoneyDb>(trxIn);
    const row = await sql<{ last: string | number | null }>`SELECT pg_sequence_last_value(pg_get_serial_sequence('ledger_transactions', 'id')::regclass) AS last`.execute(trx);
    return Number(row.rows[0]?.last ?? 0);
  }

  /** The member's successful deposits recorded after a mark (minor units). */
  async depositedSince(trxIn: Connection, memberId: string, mark: number): Promise<number> {
    return sumOfOperations(sameConnection<MoneyDb>(trxIn), memberId, 'deposit', 'SUCCESS', mark);
  }

  /**
   * Records the end of a promotion's condition (inside `locked`): a `finish_bonus` operation and,
   * when `takeBack` > 0, the posting that takes it from the wallet back to the promotion account.
   * Answers the operation id.
   */
  async end(trxIn: Connection, end: PromotionEnd): Promise<string> {
    const trx = sameConnection<MoneyDb>(trxIn);
    const id = newId();
    if (end.takeBack <= 0) {
      await trx
        .insertInto('operations')
        .values({ id, member_id: end.memberId, type: 'finish_bonus', status: end.status, source: end.source, target: WALLET_CODE, amount: end.amount, note: end.note })
        .execute();
      return id;
    }
    await runPosting(
      trx,
      { kind: end.code, operationId: id, postings: [{ account: account.wallet(end.memberId), amount: -end.takeBack }, { account: account.bonus(end.currency), amount: end.takeBack }] },
      {
        before: [
          sql`op AS (
            INSERT INTO operations (id, member_id, type, status, source, target, amount, note, start_tx)
            VALUES (${id}, ${end.memberId}, 'finish_bonus', ${end.status}, ${end.source}, ${WALLET_CODE}, ${end.amount}::bigint, ${end.note},
              nextval(pg_get_serial_sequence('ledger_transactions', 'id')))
            RETURNING id, start_tx AS tx_id)`,
        ],
        txIdFrom: 'op',
      },
    );
    return id;
  }
}
