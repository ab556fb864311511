import type { Kysely } from 'kysely';
import { toBaht } from '@mw/contract/money';
import type { BankPayoutSummary, CompletedWithdrawal, MatchedPayout, PayoutBreach, PayoutReconciliationReport } from '../../lib/payout-report';
import type { PayoutAnswer, PayoutProvider } from '../../providers/bank/payout';
import type { WalletDb } from './tables';

export type { BankPayoutSummary, CompletedWithdrawal, MatchedPayout, PayoutBreach, PayoutReconciliationReport } from '../../lib/payout-report';

/** How far around the period the bank's transfers are read to match its completions (an answer settled later). */
const LOOKBACK_MS = 7 * 86_400_000;
const LOOKAHEAD_MS = 86_400_000;

function summary(p: PayoutAnswer): BankPayoutSummary {
  return { reference: p.reference, status: p.status, amount: toBaht(p.amount), currency: p.currency, bankCode: p.bankCode, accountNo: p.accountNo, bankRef: p.bankRef ?? null, at: p.at.toISOString() };
}

/**
 * Payouts against the bank: every withdrawal completed in the period matches exactly one
 * completed outgoing transfer of the bank under its reference (the withdrawal's id), with its
 * amount, currency and account; every transfer the bank made in the period matches a completed
 * withdrawal. With PAYOUT_PROVIDER=manual there is no bank record to match: completions are
 * counted as manual. An owner's recorded manual completion (override) is counted as manual too.
 */
export class PayoutReconciliation {
  constructor(
    private readonly db: Kysely<WalletDb>,
    private readonly provider: PayoutProvider | null,
  ) {}

  async run(period: { from: Date; to: Date }): Promise<PayoutReconciliationReport> {
    return (await this.detailed(period)).report;
  }

  /** The report and the withdrawals it matched with the bank's transfers (the back office's screen). */
  async detailed(period: { from: Date; to: Date }): Promise<{ report: PayoutReconciliationReport; matched: MatchedPayout[] }> {
    const { from, to } = period;
    const completed = await this.db
      .selectFrom('operation_view as operations')
      .leftJoin('withdrawal_payouts', 'withdrawal_payouts.withdrawal_id', 'operations.id')
      .select(['operations.id', 'operations.member_id', 'operations.amount', 'operations.target', 'operations.updated_at', 'withdrawal_payouts.method', 'withdrawal_payouts.currency'])
      .where('operations.type', '=', 'withdraw')
      .where('operations.status', '=', 'SUCCESS')
      .where('operations.updated_at', '>=', from)
      .where('operations.updated_at', '<', to)
      .execute();
    const listed = Boolean(this.provider?.payouts);
    const bank = this.provider?.payouts ? await this.provider.payouts(new Date(from.getTime() - LOOKBACK_MS), new Date(to.getTime() + LOOKAHEAD_MS)) : [];
    const byReference = new Map(bank.map((p) => [p.reference, p]));
    const breaches: PayoutBreach[] = [];
    let matched = 0;
    let manual = 0;
    const matchedPayouts: MatchedPayout[] = [];
    const known = new Set<string>();
    for (const row of completed) {
      known.add(row.id);
      const withdrawal: CompletedWithdrawal = { id: row.id, memberId: row.member_id, amount: toBaht(Number(row.amount)), currency: row.currency, method: row.method, completedAt: row.updated_at.toISOString() };
      const payout = byReference.get(row.id);
      if (row.method === 'manual' || !this.provider) {
        if (payout && payout.status !== 'failed') breaches.push({ kind: 'PAID_TWICE', withdrawal, payout: summary(payout) });
        else manual += 1;
        continue;
      }
      if (!listed) continue;
      if (!payout) {
        breaches.push({ kind: 'COMPLETED_WITHOUT_PAYOUT', withdrawal });
        continue;
      }
      const accountNo = row.target.split(' ')[1] ?? '';
      if (payout.status !== 'completed') breaches.push({ kind: 'PAYOUT_NOT_COMPLETED', withdrawal, payout: summary(payout) });
      else if (row.currency !== null && payout.currency !== row.currency) breaches.push({ kind: 'CURRENCY_MISMATCH', withdrawal, payout: summary(payout) });
      else if (payout.amount !== Number(row.amount)) breaches.push({ kind: 'AMOUNT_MISMATCH', withdrawal, payout: summary(payout) });
      else if (payout.accountNo !== accountNo) breaches.push({ kind: 'ACCOUNT_MISMATCH', withdrawal, payout: summary(payout) });
      else {
        matched += 1;
        matchedPayouts.push({ id: row.id, amount: withdrawal.amount, currency: payout.currency, at: row.updated_at });
      }
    }
    // The bank's transfers of the period that no completion of the period explains.
    const inPeriod = bank.filter((p) => p.at >= from && p.at < to);
    const unexplained = inPeriod.filter((p) => p.status === 'completed' && !known.has(p.reference));
    const ops =
      unexplained.length === 0
        ? []
        : await this.db
            .selectFrom('operation_view as operations')
            .select(['id', 'status'])
            .where('type', '=', 'withdraw')
            .where('id', 'in', unexplained.map((p) => p.reference))
            .execute();
    const statusOf = new Map(ops.map((o) => [o.id, o.status]));
    const processing: BankPayoutSummary[] = [];
    for (const payout of unexplained) {
      const status = statusOf.get(payout.reference);
      if (status === undefined) breaches.push({ kind: 'UNKNOWN_PAYOUT', payout: summary(payout) });
      else if (status === 'FAILED') breaches.push({ kind: 'PAID_BUT_RETURNED', withdrawalId: payout.reference, payout: summary(payout) });
      else if (status === 'PENDING') processing.push(summary(payout));
      // SUCCESS outside the period: matched by the period it was completed in.
    }
    const report: PayoutReconciliationReport = {
      ok: breaches.length === 0,
      provider: this.provider?.name ?? 'manual',
      listed,
      from: from.toISOString(),
      to: to.toISOString(),
      checked: { completed: completed.length, matched, manual, bankPayouts: inPeriod.length },
      breaches,
      processing,
    };
    return { report, matched: matchedPayouts };
  }
}
