import type { Kysely } from 'kysely';
import { toBaht } from '@mw/contract/money';
import type { MoneyResult } from '@mw/contract/wallet';
import { AppError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { MoneyCore } from '../../money';
import { creditedBy } from '../../money';
import { KeyTaken, type Idem } from '../../money';
import { ledgerCurrency, type Currency } from '../../money';
import { transferKey, type BankTransfer } from '../../providers/bank/bank';
import type { AccountService } from '../account/account-service';
import type { ChannelService } from './channel-service';
import type { DepositDb } from './tables';

/** The key of a bank transfer's credit, shared by the bank feed and slips: sending bank + reference. */
export const BANK_TRANSFER_SOURCE = 'banktx';

export interface Held {
  source: string;
  ref: string;
  channel: string;
  amount: number;
  currency: Currency;
  reason: 'NO_MEMBER' | 'CURRENCY_MISMATCH' | 'UNKNOWN_QR' | 'INACTIVE_MEMBER' | 'CHANNEL_NOT_AUTO';
  receivedAt: Date;
  from?: { bankCode: string; accountNo: string; name: string };
  toAccountNo?: string;
}

export interface UnmatchedDeposit {
  id: string;
  channel: string;
  reason: string;
  amount: number;
  currency: string;
  fromBankCode: string | null;
  fromAccountNo: string | null;
  fromName: string | null;
  toAccountNo: string | null;
  receivedAt: string;
  reference: string;
}

/**
 * Bank deposits: the automatic bank feed (a transfer into an AUTO channel, reported by the
 * bank's signed webhook, credits the member whose registered bank account sent it, once per
 * sending bank + reference, in the channel's currency), deposits held unmatched for an operator
 * (no member has that account, the currencies differ, a payment for no QR of ours), their
 * assignment, and manual deposits by an operator. Every credit is a deposit operation whose
 * "from" is the channel.
 */
export class BankDepositService {
  constructor(
    private readonly db: Kysely<DepositDb>,
    private readonly money: MoneyCore,
    private readonly channels: ChannelService,
    private readonly accounts: AccountService,
  ) {}

  /**
   * A transfer the bank reports into one of our accounts. Answers what happened: credited (now),
   * duplicate (credited before), held (unmatched) or ignored (not one of our accounts).
   */
  async feed(transfer: BankTransfer): Promise<{ result: 'credited' | 'duplicate' | 'held' | 'ignored'; operationId?: string }> {
    const channel = await this.channels.byAccount(transfer.toBankCode, transfer.toAccountNo);
    // Not our account; or KBANK's QR account, whose payments the gateway's webhook credits (the
    // feed reporting them too must not credit them twice).
    if (!channel || channel.mode === 'SMS') return { result: 'ignored' };
    const ref = transferKey(transfer.fromBankCode, transfer.transRef);
    const done = await creditedBy(this.db, BANK_TRANSFER_SOURCE, ref);
    if (done) return { result: 'duplicate', operationId: done };
    const member = await this.accounts.findByBankAccount(transfer.fromBankCode, transfer.fromAccountNo);
    const held = (reason: Held['reason']) =>
      this.hold({
        source: BANK_TRANSFER_SOURCE,
        ref,
        channel: channel.bank_code,
        amount: transfer.amount,
        currency: transfer.currency,
        reason,
        receivedAt: transfer.at,
        from: { bankCode: transfer.fromBankCode, accountNo: transfer.fromAccountNo, name: transfer.fromName },
        toAccountNo: transfer.toAccountNo,
      });
    // Only an active AUTO channel credits by itself; money into another of our accounts waits
    // for an operator (who assigns it with the same key, so nothing is credited twice).
    if (!channel.active || channel.mode !== 'AUTO') return (await held('CHANNEL_NOT_AUTO')) ? { result: 'held' } : { result: 'duplicate' };
    if (!member) return (await held('NO_MEMBER')) ? { result: 'held' } : { result: 'duplicate' };
    if (member.status !== 'active') return (await held('INACTIVE_MEMBER')) ? { result: 'held' } : { result: 'duplicate' };
    if (ledgerCurrency(channel.currency) !== transfer.currency || ledgerCurrency(member.currency) !== transfer.currency) {
      return (await held('CURRENCY_MISMATCH')) ? { result: 'held' } : { result: 'duplicate' };
    }
    const credit = await this.money.credits.credit({
      source: BANK_TRANSFER_SOURCE,
      ref,
      memberId: member.id,
      amount: transfer.amount,
      currency: transfer.currency,
      kind: 'deposit',
      from: channel.bank_code,
      note: null,
    });
    await this.markAssigned(BANK_TRANSFER_SOURCE, ref, member.id, credit.operationId);
    // Held by the member's deposit rules (over a limit, during a break): recorded under its key, not credited.
    return { result: credit.held && credit.created ? 'held' : credit.created ? 'credited' : 'duplicate', operationId: credit.operationId };
  }

  /** Holds money with no member to credit; answers false when it was held (or credited) before. */
  async hold(held: Held): Promise<boolean> {
    if (await creditedBy(this.db, held.source, held.ref)) return false;
    const inserted = await this.db
      .insertInto('unmatched_deposits')
      .values({
        id: newId(),
        source: held.source,
        ref: held.ref,
        channel: held.channel,
        from_bank_code: held.from?.bankCode ?? null,
        from_account_no: held.from?.accountNo ?? null,
        from_name: held.from?.name ?? null,
        to_account_no: held.toAccountNo ?? null,
        amount: held.amount,
        currency: held.currency === 'LAK' ? 'LAK' : 'BAHT',
        reason: held.reason,
        received_at: held.receivedAt,
        assigned_member_id: null,
        operation_id: null,
        assigned_at: null,
      })
      .onConflict((oc) => oc.columns(['source', 'ref']).doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Deposits waiting for an operator, oldest first (at most 500). */
  /** Unmatched deposits waiting for an operator: how many and the oldest. */
  async unmatchedSummary(): Promise<{ count: number; oldestAt: string | null }> {
    const row = await this.db
      .selectFrom('unmatched_deposits')
      .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('received_at').as('oldest')])
      .where('assigned_member_id', 'is', null)
      .executeTakeFirst();
    const oldest = row?.oldest as Date | null | undefined;
    return { count: Number(row?.n ?? 0), oldestAt: oldest ? new Date(oldest).toISOString() : null };
  }

  async unmatched(): Promise<UnmatchedDeposit[]> {
    const rows = await this.db.selectFrom('unmatched_deposits').selectAll().where('assigned_member_id', 'is', null).orderBy('created_at').limit(500).execute();
    return rows.map((r) => ({
      id: r.id,
      channel: r.channel,
      reason: r.reason,
      amount: toBaht(Number(r.amount)),
      currency: ledgerCurrency(r.currency),
      fromBankCode: r.from_bank_code,
      fromAccountNo: r.from_account_no,
      fromName: r.from_name,
      toAccountNo: r.to_account_no,
      receivedAt: r.received_at.toISOString(),
      reference: r.ref,
    }));
  }

  /** One unmatched deposit, assigned or not (the audit's sentences): amount in major units and ledger currency; null: none such. */
  async unmatchedById(id: string): Promise<{ amount: number; currency: Currency; reference: string; memberId: string | null } | null> {
    const row = await this.db.selectFrom('unmatched_deposits').select(['amount', 'currency', 'ref', 'assigned_member_id']).where('id', '=', id).executeTakeFirst();
    return row ? { amount: toBaht(Number(row.amount)), currency: ledgerCurrency(row.currency), reference: row.ref, memberId: row.assigned_member_id } : null;
  }

  /** One unmatched deposit's amount (minor units) and ledger currency, not yet assigned (null: none such, or assigned). */
  async heldAmount(id: string): Promise<{ amount: number; currency: Currency } | null> {
    const row = await this.db.selectFrom('unmatched_deposits').select(['amount', 'currency']).where('id', '=', id).where('assigned_member_id', 'is', null).executeTakeFirst();
    return row ? { amount: Number(row.amount), currency: ledgerCurrency(row.currency) } : null;
  }

  /**
   * Operator: credits an unmatched deposit to a member, once. The credit is keyed like the
   * message that brought the money, so neither a second assignment nor a late repeat of that
   * message can credit it again. Assigning it again to the same member answers the same; to
   * another member DEPOSIT_ALREADY_ASSIGNED.
   */
  async assign(id: string, memberId: string): Promise<{ id: string; memberId: string; operationId: string; amount: number; currency: string; held: string | null }> {
    const row = await this.db.selectFrom('unmatched_deposits').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('NO_DEPOSIT');
    const member = await this.accounts.findById(memberId);
    if (!member) throw notFound('NO_USER');
    if (member.status !== 'active') throw new AppError(403, 'INACTIVE_USER');
    const currency = ledgerCurrency(row.currency);
    const done = await creditedBy(this.db, row.source, row.ref);
    let operationId = done;
    if (!done) {
      if (ledgerCurrency(member.currency) !== currency) throw new AppError(400, 'CURRENCY_MISMATCH');
      const credit = await this.money.credits.credit({
        source: row.source,
        ref: row.ref,
        memberId,
        amount: Number(row.amount),
        currency,
        kind: 'deposit',
        from: row.channel,
        note: null,
      });
      operationId = credit.operationId;
    }
    const op = await this.db.selectFrom('operation_view as operations').select(['id', 'member_id', 'status', 'note']).where('id', '=', operationId ?? '').executeTakeFirstOrThrow();
    if (op.member_id !== memberId) throw new AppError(409, 'DEPOSIT_ALREADY_ASSIGNED', { memberId: op.member_id });
    await this.markAssigned(row.source, row.ref, memberId, op.id);
    // Held by the member's deposit rules (a limit, a break): recorded for the member, not credited (the held-deposits queue).
    const held = op.status === 'PENDING' ? (op.note ?? 'DEPOSIT_LIMIT') : null;
    return { id, memberId, operationId: op.id, amount: toBaht(Number(row.amount)), currency: ledgerCurrency(row.currency), held };
  }

  /** Marks money held earlier under this key as credited to the member (a later message credited it). */
  async markAssigned(source: string, ref: string, memberId: string, operationId: string): Promise<void> {
    await this.db
      .updateTable('unmatched_deposits')
      .set({ assigned_member_id: memberId, operation_id: operationId, assigned_at: new Date() })
      .where('source', '=', source)
      .where('ref', '=', ref)
      .where('assigned_member_id', 'is', null)
      .execute();
  }

  /**
   * Operator: a manual deposit (money that reached us some other way), with an Idempotency-Key:
   * the same key answers the first answer and moves nothing again.
   */
  async manual(input: { memberId: string; amount: number; currency: string; note: string; overLimit?: boolean }, idem: Idem, owner = false): Promise<MoneyResult> {
    // Checked before the key is recorded: a refusal is stored under the member's key, which needs the member.
    const member = await this.accounts.findById(input.memberId);
    if (!member) throw notFound('NO_USER');
    return this.money.once(input.memberId, idem, async () => {
      if (member.status !== 'active') throw new AppError(403, 'INACTIVE_USER');
      const currency = ledgerCurrency(input.currency);
      if (ledgerCurrency(member.currency) !== currency) throw new AppError(400, 'CURRENCY_MISMATCH');
      if (input.amount <= 0) throw new AppError(400, 'DEPOSIT_MINIMUM', { minimum: 0.01 });
      // The operator's key is one credit whoever it names: (manual, key) is the credit's key.
      // Over the member's deposit limit (or during a break): refused (403 DEPOSIT_LIMIT …) unless
      // an owner asks for it explicitly (`overLimit: true`).
      const overLimit = input.overLimit === true && owner ? 'allow' : 'refuse';
      const credit = await this.money.credits.credit({ source: 'manual', ref: idem.key, memberId: input.memberId, amount: input.amount, currency, kind: 'deposit', from: 'MANUAL', note: input.note, idem, overLimit });
      if (!credit.created) {
        const op = await this.db.selectFrom('operation_view as operations').select('member_id').where('id', '=', credit.operationId).executeTakeFirstOrThrow();
        if (op.member_id !== input.memberId) throw new AppError(409, 'IDEMPOTENCY_KEY_REUSED');
        throw new KeyTaken();
      }
      return { ok: true, wallet: { amount: toBaht(credit.wallet ?? 0) }, amount: toBaht(input.amount), reference: credit.operationId };
    });
  }
}
