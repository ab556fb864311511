import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely, type Selectable } from 'kysely';
import { toBaht } from '@mw/contract/money';
import { AppError, notFound } from '../../lib/errors';
import { memberCurrency, type Currency } from '../../money';
import type { MoneyCore } from '../../money';
import type { OperationStatus } from '../../money';
import { recordChange } from '../../platform/audit';
import { PayoutUnavailable, PayoutUnknown, type PayoutAnswer, type PayoutProvider } from '../../providers/bank/payout';
import type { AccountService } from '../account/account-service';
import type { ApprovalService, AwaitingApproval } from '../approval/approval-service';
import type { WithdrawalPayoutsTable, WalletDb } from './tables';

type PayoutRow = Selectable<WithdrawalPayoutsTable>;

/** A withdrawal's payout as operators read it (amounts in baht / kip with 2 decimals). */
export interface PayoutView {
  id: string;
  memberId: string;
  /** The operation's status, as the member's statement shows it: PENDING (in progress), SUCCESS (paid), FAILED (returned). */
  status: OperationStatus;
  /** pending: waiting for an operator; processing: with the bank (or being settled); paid; returned: the money is back in the wallet. */
  payout: 'pending' | 'processing' | 'paid' | 'returned';
  method: WithdrawalPayoutsTable['method'] | null;
  amount: number;
  currency: string;
  failure: string | null;
  reason: string | null;
  bankStatus: string | null;
  bankRef: string | null;
  attempts: number;
  by: string | null;
  settledAt: string | null;
}

interface Withdrawal {
  id: string;
  memberId: string;
  status: OperationStatus;
  amount: number;
  target: string;
  note: string | null;
}

/**
 * Withdrawals paid through the bank (the payout adapter) or by hand.
 *
 * - approve (finance/owner): the withdrawal's payout row is claimed (its primary key: two
 *   approvals at once claim it once), then the transfer is sent once with the withdrawal's id as
 *   the bank's idempotency reference. The bank's answer settles it through the money core:
 *   completed → paid (the held money leaves, as a manual completion does); failed → returned
 *   (the held money goes back to the wallet, with the reason `PAYOUT_<failure>` in the statement);
 *   accepted, no answer (timeout, lost) or bank down → it stays processing and the settler asks
 *   the bank by reference (or sends again: the same reference never pays twice) until it ends.
 * - complete (manual): an operator paid by hand. With PAYOUT_PROVIDER=manual that is the way;
 *   with a payout provider it is the owner's override, recorded (and counted apart by the
 *   reconciliation).
 * - reject: the money returns to the wallet with the operator's note.
 * Each claims the payout row first, so a withdrawal is paid, or returned, exactly once. Above the
 * four-eyes threshold, approve and complete wait for a second operator (ApprovalService).
 */
export class PayoutService {
  constructor(
    private readonly db: Kysely<WalletDb>,
    private readonly accounts: AccountService,
    private readonly approvals: ApprovalService,
    /** null: PAYOUT_PROVIDER=manual (no payout API). */
    readonly provider: PayoutProvider | null,
    /** The money core's door: a withdrawal's hold ends (posted or voided) once. */
    private readonly money: Pick<MoneyCore, 'holds'>,
  ) {}

  private log: Pick<FastifyBaseLogger, 'warn' | 'error'> | null = null;

  /** The server's log, once it runs (failures of the bank and answers that settle nothing are logged). */
  setLog(log: Pick<FastifyBaseLogger, 'warn' | 'error'>): void {
    this.log = log;
  }

  get providerName(): string {
    return this.provider?.name ?? 'manual';
  }

  private async withdrawal(id: string): Promise<Withdrawal | null> {
    const op = await this.db.selectFrom('operation_view as operations').select(['id', 'member_id', 'status', 'amount', 'target', 'note']).where('id', '=', id).where('type', '=', 'withdraw').executeTakeFirst();
    return op ? { id: op.id, memberId: op.member_id, status: op.status, amount: Number(op.amount), target: op.target, note: op.note } : null;
  }

  private row(id: string): Promise<PayoutRow | undefined> {
    return this.db.selectFrom('withdrawal_payouts').selectAll().where('withdrawal_id', '=', id).executeTakeFirst();
  }

  private view(op: Withdrawal, row: PayoutRow | undefined, currency: string): PayoutView {
    const payout: PayoutView['payout'] = row ? row.state : op.status === 'SUCCESS' ? 'paid' : op.status === 'FAILED' ? 'returned' : 'pending';
    return {
      id: op.id,
      memberId: op.memberId,
      status: op.status,
      payout,
      method: row?.method ?? null,
      amount: toBaht(op.amount),
      currency: row?.currency ?? currency,
      failure: row?.failure ?? null,
      reason: row?.reason ?? (op.status === 'FAILED' ? op.note : null),
      bankStatus: row?.bank_status ?? null,
      bankRef: row?.bank_ref ?? null,
      attempts: row?.attempts ?? 0,
      by: row?.by_operator ?? null,
      settledAt: row?.settled_at?.toISOString() ?? null,
    };
  }

  /** A withdrawal's payout as it is now. */
  async get(id: string): Promise<PayoutView> {
    const op = await this.withdrawal(id);
    if (!op) throw notFound('NO_OPERATION');
    return this.view(op, await this.row(id), await memberCurrency(this.db, op.memberId));
  }

  /**
   * Approve → pay through the bank. Answers the payout's state (a retry answers the same state
   * and sends nothing new), or 202 awaiting-approval above the four-eyes threshold.
   */
  async approve(id: string, who: string, checked = false): Promise<PayoutView | AwaitingApproval> {
    const op = await this.withdrawal(id);
    if (!op) throw notFound('NO_OPERATION');
    if (!this.provider) throw new AppError(409, 'PAYOUT_MANUAL');
    const currency = await memberCurrency(this.db, op.memberId);
    const existing = await this.row(id);
    if (existing || op.status !== 'PENDING') return this.endedView(id);
    if (!checked && (await this.approvals.needsChecker({ kind: 'payout', subject: `withdrawal:${id}`, memberId: op.memberId, operator: who, amount: op.amount, currency }))) {
      const asked = await this.approvals.request({ action: 'withdrawal.approve', dedupeKey: `withdrawal:${id}`, payload: { withdrawalId: id }, memberId: op.memberId, amount: op.amount, currency, maker: who });
      // Approved already (the checker acted): the payout's state answers.
      return 'approvalId' in asked ? asked : this.get(id);
    }
    const claimed = await this.claim(op, 'bank', who, currency, null);
    if (!claimed) return this.endedView(id);
    await recordChange(this.db, { who, entity: 'withdrawal', key: id, before: { status: 'PENDING' }, after: { payout: 'processing', provider: this.providerName, memberId: op.memberId } });
    await this.send(claimed);
    return this.get(id);
  }

  /**
   * An operator paid it by hand. With a payout provider this is the owner's override (recorded);
   * a withdrawal whose payout is with the bank cannot be completed by hand (409 WITHDRAWAL_PROCESSING).
   */
  async complete(id: string, who: string, checked = false): Promise<{ id: string; status: OperationStatus } | AwaitingApproval> {
    const op = await this.withdrawal(id);
    if (!op) throw notFound('NO_OPERATION');
    const existing = await this.row(id);
    if (existing) return this.alreadyClaimed(existing, 'manual');
    if (op.status !== 'PENDING') throw notFound('NO_OPERATION');
    const currency = await memberCurrency(this.db, op.memberId);
    if (!checked && (await this.approvals.needsChecker({ kind: 'payout', subject: `withdrawal:${id}`, memberId: op.memberId, operator: who, amount: op.amount, currency }))) {
      const asked = await this.approvals.request({ action: 'withdrawal.complete', dedupeKey: `withdrawal:${id}`, payload: { withdrawalId: id }, memberId: op.memberId, amount: op.amount, currency, maker: who });
      if ('approvalId' in asked) return asked;
      const after = await this.withdrawal(id);
      return { id, status: after?.status ?? 'PENDING' };
    }
    const claimed = await this.claim(op, 'manual', who, currency, null);
    if (!claimed) return this.alreadyClaimed(await this.row(id), 'manual');
    await recordChange(this.db, { who, entity: 'withdrawal', key: id, before: { status: 'PENDING' }, after: { status: 'SUCCESS', method: 'manual', override: this.provider !== null, provider: this.providerName, memberId: op.memberId } });
    await this.finish(claimed, 'paid', null, null);
    return { id, status: (await this.withdrawal(id))?.status ?? 'SUCCESS' };
  }

  /** Refused: the money returns to the wallet with the operator's note. */
  async reject(id: string, who: string, note: string): Promise<{ id: string; status: OperationStatus }> {
    const op = await this.withdrawal(id);
    if (!op) throw notFound('NO_OPERATION');
    const existing = await this.row(id);
    if (existing) return this.alreadyClaimed(existing, 'reject');
    if (op.status !== 'PENDING') throw notFound('NO_OPERATION');
    const claimed = await this.claim(op, 'reject', who, await memberCurrency(this.db, op.memberId), note);
    if (!claimed) return this.alreadyClaimed(await this.row(id), 'reject');
    await recordChange(this.db, { who, entity: 'withdrawal', key: id, before: { status: 'PENDING' }, after: { status: 'FAILED', note, memberId: op.memberId } });
    await this.finish(claimed, 'returned', null, note);
    return { id, status: (await this.withdrawal(id))?.status ?? 'FAILED' };
  }

  /**
   * The payout's state for an approve that found the withdrawal claimed: when another operator is
   * rejecting it or marking it paid by hand, that ending is awaited (a moment: one ledger posting),
   * so the answer says returned or paid — never "processing" (with the bank) for money that was not
   * sent. One still unfinished after 5 s (its process died; the settler finishes it) is 409
   * WITHDRAWAL_PROCESSING.
   */
  private async endedView(id: string): Promise<PayoutView> {
    for (let i = 0; i < 50; i += 1) {
      const row = await this.row(id);
      if (!row || row.method === 'bank' || row.state !== 'processing') return this.get(id);
      await new Promise((done) => setTimeout(done, 100));
    }
    throw new AppError(409, 'WITHDRAWAL_PROCESSING');
  }

  /** A complete or reject of a withdrawal someone claimed already: the same action answers its state; another one is refused. */
  private alreadyClaimed(row: PayoutRow | undefined, method: 'manual' | 'reject'): { id: string; status: OperationStatus } {
    if (!row) throw notFound('NO_OPERATION');
    if (row.method === 'bank' && row.state === 'processing') throw new AppError(409, 'WITHDRAWAL_PROCESSING');
    if (row.method !== method) throw notFound('NO_OPERATION');
    return { id: row.withdrawal_id, status: row.state === 'paid' ? 'SUCCESS' : row.state === 'returned' ? 'FAILED' : 'PENDING' };
  }

  /** Claims the withdrawal for one way of ending, once: the row is written only while the operation is PENDING and no row exists. */
  private async claim(op: Withdrawal, method: WithdrawalPayoutsTable['method'], who: string, currency: Currency, note: string | null): Promise<PayoutRow | null> {
    const [bankCode = '', accountNo = ''] = op.target.split(' ');
    const profile = await this.accounts.profile(op.memberId);
    const claimed = await this.db
      .insertInto('withdrawal_payouts')
      .columns(['withdrawal_id', 'member_id', 'method', 'state', 'provider', 'amount', 'currency', 'bank_code', 'account_no', 'account_name', 'failure', 'reason', 'by_operator'])
      .expression(
        this.db
          .selectFrom('operation_view as operations')
          .select([
            'id',
            'member_id',
            sql.lit(method).as('method'),
            sql.lit('processing').as('state'),
            sql.val(this.providerName).as('provider'),
            'amount',
            sql.val(currency).as('currency'),
            sql.val(bankCode).as('bank_code'),
            sql.val(accountNo).as('account_no'),
            sql.val(profile.bankAccountName).as('account_name'),
            sql.val(null).as('failure'),
            sql.val(note).as('reason'),
            sql.val(who).as('by_operator'),
          ])
          .where('id', '=', op.id)
          .where('type', '=', 'withdraw')
          .where('status', '=', 'PENDING'),
      )
      .onConflict((oc) => oc.column('withdrawal_id').doNothing())
      .returningAll()
      .executeTakeFirst();
    return claimed ?? null;
  }

  /** Sends the transfer (again: the reference makes it once at the bank) and applies the answer. */
  private async send(row: PayoutRow): Promise<void> {
    const provider = this.provider;
    if (!provider) return;
    let answer: PayoutAnswer;
    try {
      answer = await provider.send({
        reference: row.withdrawal_id,
        bankCode: row.bank_code,
        accountNo: row.account_no,
        accountName: row.account_name,
        amount: Number(row.amount),
        currency: row.currency === 'LAK' ? 'LAK' : 'THB',
      });
    } catch (error) {
      await this.noAnswer(row, error);
      return;
    }
    await this.apply(row, answer);
  }

  private async noAnswer(row: PayoutRow, error: unknown): Promise<void> {
    if (!(error instanceof PayoutUnavailable) && !(error instanceof PayoutUnknown)) this.log?.error({ err: error, withdrawal: row.withdrawal_id }, 'payout call failed');
    await this.note(row.withdrawal_id, error instanceof PayoutUnavailable ? 'unavailable' : 'unknown', null);
  }

  private async note(id: string, bankStatus: string, bankRef: string | null): Promise<void> {
    await this.db
      .updateTable('withdrawal_payouts')
      .set((eb) => ({ bank_status: bankStatus, attempts: eb('attempts', '+', 1), updated_at: new Date(), ...(bankRef ? { bank_ref: bankRef } : {}) }))
      .where('withdrawal_id', '=', id)
      .where('state', '=', 'processing')
      .execute();
  }

  /** The bank's answer, checked against what we sent (an answer about another transfer settles nothing). */
  private async apply(row: PayoutRow, answer: PayoutAnswer): Promise<void> {
    const same = answer.reference === row.withdrawal_id && answer.amount === Number(row.amount) && answer.currency === row.currency && answer.bankCode === row.bank_code && answer.accountNo === row.account_no;
    if (!same) {
      this.log?.error({ withdrawal: row.withdrawal_id, answer }, 'payout answer does not match the withdrawal: left processing');
      await this.note(row.withdrawal_id, 'mismatch', null);
      return;
    }
    if (answer.status === 'completed') await this.finish(row, 'paid', answer, null);
    else if (answer.status === 'failed') await this.finish(row, 'returned', answer, null);
    else await this.note(row.withdrawal_id, 'accepted', answer.bankRef ?? null);
  }

  /**
   * Settles the withdrawal through the money core, once (its compare-and-set on PENDING), then
   * marks the row. A crash in between is finished by the settler from the operation's status.
   */
  private async finish(row: PayoutRow, outcome: 'paid' | 'returned', answer: PayoutAnswer | null, note: string | null): Promise<void> {
    const id = row.withdrawal_id;
    const failure = answer?.failure ?? null;
    // What the member's statement says of a returned payout: the bank's reason as a code, or the operator's note.
    const statementNote = outcome === 'paid' ? null : answer ? `PAYOUT_${failure ?? 'REFUSED'}` : (note ?? row.reason);
    if (outcome === 'paid') await this.money.holds.post(this.db, id);
    else await this.money.holds.void(this.db, id, statementNote);
    const now = (await this.withdrawal(id))?.status;
    const settled = now === 'SUCCESS' ? 'paid' : now === 'FAILED' ? 'returned' : null;
    if (settled !== outcome) {
      // Ended the other way meanwhile (never through this service: a row is claimed once). Left for the reconciliation to show.
      this.log?.error({ withdrawal: id, outcome, operation: now }, 'payout settled against an operation that ended otherwise');
      return;
    }
    await this.db
      .updateTable('withdrawal_payouts')
      .set({
        state: outcome,
        settled_at: new Date(),
        updated_at: new Date(),
        ...(answer ? { bank_status: answer.status, bank_ref: answer.bankRef ?? row.bank_ref, failure, reason: answer.reason ?? null } : {}),
      })
      .where('withdrawal_id', '=', id)
      .where('state', '=', 'processing')
      .execute();
  }

  /**
   * The settler: every payout still processing for longer than `graceMs` is finished — a bank
   * payout by asking the bank by reference (a reference it never received is sent again), a
   * manual completion or a rejection that a crash interrupted by settling it. Answers how many ended.
   */
  async settle(graceMs: number): Promise<number> {
    const rows = await this.db
      .selectFrom('withdrawal_payouts')
      .selectAll()
      .where('state', '=', 'processing')
      .where('updated_at', '<=', new Date(Date.now() - graceMs))
      .orderBy('updated_at')
      .limit(200)
      .execute();
    let ended = 0;
    for (const row of rows) {
      try {
        await this.settleOne(row);
        if ((await this.row(row.withdrawal_id))?.state !== 'processing') ended += 1;
      } catch (error) {
        this.log?.error({ err: error, withdrawal: row.withdrawal_id }, 'payout settle failed');
      }
    }
    return ended;
  }

  private async settleOne(row: PayoutRow): Promise<void> {
    const op = await this.withdrawal(row.withdrawal_id);
    if (op && op.status !== 'PENDING') {
      // The money moved and the row was not marked (a crash between the two): the operation says how it ended.
      await this.db
        .updateTable('withdrawal_payouts')
        .set({ state: op.status === 'SUCCESS' ? 'paid' : 'returned', settled_at: new Date(), updated_at: new Date() })
        .where('withdrawal_id', '=', row.withdrawal_id)
        .where('state', '=', 'processing')
        .execute();
      return;
    }
    if (row.method === 'manual') return this.finish(row, 'paid', null, null);
    if (row.method === 'reject') return this.finish(row, 'returned', null, row.reason);
    const provider = this.provider;
    if (!provider) {
      // Sent through a provider since switched off: only an operator can tell what the bank did.
      this.log?.warn({ withdrawal: row.withdrawal_id, provider: row.provider }, 'payout processing with no payout provider configured');
      return;
    }
    let answer: PayoutAnswer | null;
    try {
      answer = await provider.status(row.withdrawal_id);
    } catch (error) {
      await this.noAnswer(row, error);
      return;
    }
    if (answer) await this.apply(row, answer);
    else await this.send(row);
  }
}
