/**
 * The payout reconciliation's report (withdrawals against the bank's transfers): made by the
 * wallet module (payout-reconciliation.ts), shown by deposit's reconciliation view. Its shape
 * lives here so that neither module imports the other.
 */
import type { PayoutAnswer } from '../providers/bank/payout';

/** A completed withdrawal as the reconciliation reads it. */
export interface CompletedWithdrawal {
  id: string;
  memberId: string;
  amount: number;
  currency: string | null;
  method: string | null;
  completedAt: string;
}

export interface BankPayoutSummary {
  reference: string;
  status: PayoutAnswer['status'];
  amount: number;
  currency: string;
  bankCode: string;
  accountNo: string;
  bankRef: string | null;
  at: string;
}

export type PayoutBreach =
  /** The ledger paid a withdrawal out (a payout provider is configured) and the bank has no transfer for it, and no operator recorded paying it by hand. */
  | { kind: 'COMPLETED_WITHOUT_PAYOUT'; withdrawal: CompletedWithdrawal }
  /** The ledger paid it; the bank's transfer of that reference failed or is not final. */
  | { kind: 'PAYOUT_NOT_COMPLETED'; withdrawal: CompletedWithdrawal; payout: BankPayoutSummary }
  /** The bank paid another amount, currency or account than the withdrawal holds. */
  | { kind: 'AMOUNT_MISMATCH' | 'CURRENCY_MISMATCH' | 'ACCOUNT_MISMATCH'; withdrawal: CompletedWithdrawal; payout: BankPayoutSummary }
  /** An operator completed it by hand and the bank paid it too. */
  | { kind: 'PAID_TWICE'; withdrawal: CompletedWithdrawal; payout: BankPayoutSummary }
  /** The bank paid a reference that is no withdrawal of ours: money left that the ledger does not know. */
  | { kind: 'UNKNOWN_PAYOUT'; payout: BankPayoutSummary }
  /** The bank paid it and the money was also returned to the member's wallet. */
  | { kind: 'PAID_BUT_RETURNED'; withdrawalId: string; payout: BankPayoutSummary };

export interface PayoutReconciliationReport {
  ok: boolean;
  provider: string;
  /** Whether the provider can list its transfers (a manual provider cannot: nothing to match). */
  listed: boolean;
  from: string;
  to: string;
  checked: {
    /** Withdrawals completed in the period. */
    completed: number;
    /** …matched 1:1 with a completed bank transfer of the same reference, amount, currency and account. */
    matched: number;
    /** …completed by an operator by hand (PAYOUT_PROVIDER=manual, or the owner's recorded override). */
    manual: number;
    /** Transfers the bank made in the period. */
    bankPayouts: number;
  };
  breaches: PayoutBreach[];
  /** Completed bank transfers whose withdrawal is still processing (the settler settles them). */
  processing: BankPayoutSummary[];
}

/** A withdrawal matched 1:1 with the bank's completed transfer (the reconciliation screen's counts and sums per day). */
export interface MatchedPayout {
  id: string;
  /** Major units of `currency`. */
  amount: number;
  currency: string;
  at: Date;
}
