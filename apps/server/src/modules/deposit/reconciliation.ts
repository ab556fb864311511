import type { Kysely } from 'kysely';
import { creditedKeys, depositCredits, type RecordedCredit } from '../../money';
import type { Currency } from '../../money';
import { BANK_CODE, isTransRef, transferKey, type Bank } from '../../providers/bank/bank';
import type { EWallet } from '../../providers/ewallet/ewallet';
import type { PaymentGateway } from '../../providers/payments/gateway';
import { BANK_TRANSFER_SOURCE } from './bank-deposit-service';
import type { Channel } from './channel-service';
import { EWALLET_TRANSFER_SOURCE, VOUCHER_SOURCE } from './ewallet-service';
import type { DepositDb } from './tables';

/** The outside systems deposits are checked against. */
export type OutsideSystem = 'bank' | 'gateway' | 'voucher' | 'ewallet';
const SYSTEMS: readonly OutsideSystem[] = ['bank', 'gateway', 'voucher', 'ewallet'];

/** A record of money the outside system holds for us: the credit key it must have, once. */
export interface OutsideRecord {
  system: OutsideSystem;
  /** The credit key it must be credited under (external_credits source, ref). */
  source: string;
  ref: string;
  /** The outside system's own reference (transfer reference, payment id, voucher hash, transfer id). */
  reference: string;
  amount: number;
  currency: Currency;
  at: Date;
}

export interface CreditSummary {
  source: string;
  ref: string;
  operationId: string;
  memberId: string;
  amount: number;
  currency: Currency | null;
  createdAt: string;
}

export type Breach =
  | { kind: 'CREDITED_MORE_THAN_ONCE'; system: OutsideSystem; reference: string; amount: number; currency: Currency; credits: CreditSummary[] }
  | { kind: 'NO_OUTSIDE_RECORD'; system: OutsideSystem; reference: string; credit: CreditSummary }
  | { kind: 'AMOUNT_MISMATCH' | 'CURRENCY_MISMATCH'; system: OutsideSystem; reference: string; outside: { amount: number; currency: Currency }; credit: CreditSummary };

export interface Uncredited {
  system: OutsideSystem;
  reference: string;
  amount: number;
  currency: Currency;
  at: string;
  /** held: waiting for an operator (unmatched deposits); pending: a slip or voucher claim in progress; unmatched: nothing of ours names it. */
  state: 'held' | 'pending' | 'unmatched';
  /** Added: the unmatched deposit waiting for an operator (state held), or the slip in progress (state pending), that names it. */
  depositId?: string;
  slipId?: string;
}

/** A credit matched 1:1 with its outside record (the reconciliation screen's counts and sums per day and system). */
export interface MatchedCredit {
  /** The outside system; a bank transfer credited through an uploaded slip is `slip`. */
  system: OutsideSystem | 'slip';
  /** Minor units of `currency`. */
  amount: number;
  currency: Currency;
  at: Date;
}

/** A credit the member's deposit rules hold (recorded under its outside record's key, no money moved): waits in Held deposits. */
export interface HeldCredit {
  system: OutsideSystem | 'slip';
  reference: string;
  operationId: string;
  memberId: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: Currency;
  at: Date;
}

/** The report and, for the back office's screen, the matched and held credits it counted. */
export interface DetailedReconciliation {
  report: ReconciliationReport;
  matched: MatchedCredit[];
  held: HeldCredit[];
}

export interface ReconciliationReport {
  /** No breach (money never credited is informational). */
  ok: boolean;
  from: string;
  to: string;
  checked: {
    /** Deposit credits made in the period. */
    credits: number;
    /** …of which matched 1:1 with their outside record. */
    matched: number;
    /** Outside records of money into our accounts in the period. */
    outside: number;
    /** Operators' manual deposits (no outside record by nature). */
    manual: number;
    /** …of the matched: held by the member's deposit rules (or returned), recorded under their outside record's key with no money moved. */
    held: number;
    /** Credits of a system that cannot list its records (none connected): not verifiable here. */
    unverifiable: number;
    /** Per system: credits and outside records. */
    systems: Record<OutsideSystem, { credits: number; outside: number; listed: boolean }>;
    /** Systems that can list their records but did not answer this time (the report is not ok; ask again). */
    unanswered: OutsideSystem[];
  };
  breaches: Breach[];
  uncredited: Uncredited[];
}

/** The outside systems' adapters as reconciliation reads them (each lists its records for a period, when it can). */
export interface OutsideSystems {
  bank: Bank;
  gateway: PaymentGateway;
  ewallet: EWallet | null;
}

/** How far before the period outside records are read for matching its credits (a slip may be credited days after its transfer). */
const LOOKBACK_MS = 30 * 86_400_000;
/** …and after it (a transfer dated up to a few minutes ahead of our clock). */
const LOOKAHEAD_MS = 86_400_000;

function systemOf(source: string): OutsideSystem | 'manual' | null {
  if (source === BANK_TRANSFER_SOURCE) return 'bank';
  if (source.startsWith('gateway:')) return 'gateway';
  if (source === VOUCHER_SOURCE) return 'voucher';
  if (source === EWALLET_TRANSFER_SOURCE) return 'ewallet';
  if (source === 'manual') return 'manual';
  return null;
}

/** Letters and digits only, upper case: how a forged key variant (`KBANK:REF:X0`, `ref `, …) is traced to the record it copies. */
const skeleton = (value: string) => value.toUpperCase().replace(/[^A-Z0-9]/g, '');
const keyOf = (source: string, ref: string) => `${source}\n${ref}`;
/** A bank transfer's credit key; a record whose reference no bank issues still gets one (it then matches no credit). */
const bankKey = (bank: string, ref: string) => (BANK_CODE.test(bank.toUpperCase()) && isTransRef(ref) ? transferKey(bank, ref) : `${bank.toUpperCase()}:${ref.toUpperCase()}`);

function summary(c: RecordedCredit): CreditSummary {
  return { source: c.source, ref: c.ref, operationId: c.operationId, memberId: c.memberId, amount: c.amount, currency: c.currency, createdAt: c.createdAt.toISOString() };
}

/**
 * Reconciliation of deposits with the outside world: every credit of money from outside made in
 * a period is matched 1:1 with the record of the system it came from (the bank's transfer, the
 * gateway's payment, the e-wallet's redeemed voucher or transfer), read through the adapters.
 * Breaches: an outside record credited more than once (its own key and a variant of it), a credit
 * no outside record explains, an amount or currency that differs. Outside records of money into
 * our accounts in the period never credited are listed (held, pending, unmatched), not breaches.
 */
export class DepositReconciliation {
  constructor(
    private readonly db: Kysely<DepositDb>,
    private readonly systems: OutsideSystems,
    private readonly channels: { all(): Promise<Channel[]> },
  ) {}

  /**
   * The outside records of money into our accounts in [from, to), per system; null for a system
   * that cannot list. A system that can list but did not answer is named in `unanswered` (its
   * credits are then unverifiable, and the report is not ok).
   */
  private async outside(from: Date, to: Date, unanswered: OutsideSystem[]): Promise<Record<OutsideSystem, OutsideRecord[] | null>> {
    const channels = await this.channels.all();
    const ourBankAccounts = new Set(channels.filter((c) => c.kind === 'bank' && c.account_no !== '').map((c) => `${c.bank_code}\n${c.account_no}`));
    const ourWallets = new Map(channels.filter((c) => c.kind === 'wallet' && c.account_no !== '').map((c) => [c.account_no, c]));
    const { bank, gateway, ewallet } = this.systems;
    const listing = async <T>(system: OutsideSystem, list: ((from: Date, to: Date) => Promise<T[]>) | undefined): Promise<T[] | null> => {
      if (!list) return null;
      try {
        return await list(from, to);
      } catch {
        if (!unanswered.includes(system)) unanswered.push(system);
        return null;
      }
    };
    const [transfers, payments, vouchers, walletTransfers] = await Promise.all([
      listing('bank', bank.transfers?.bind(bank)),
      listing('gateway', gateway.payments?.bind(gateway)),
      listing('voucher', ewallet?.redeemedVouchers?.bind(ewallet)),
      listing('ewallet', ewallet?.transfers?.bind(ewallet)),
    ]);
    const walletCurrency = (phone: string): Currency => (ourWallets.get(phone)?.currency === 'LAK' ? 'LAK' : 'THB');
    return {
      bank:
        transfers
          ?.filter((t) => ourBankAccounts.has(`${t.toBankCode}\n${t.toAccountNo}`))
          .map((t) => ({ system: 'bank' as const, source: BANK_TRANSFER_SOURCE, ref: bankKey(t.fromBankCode, t.transRef), reference: `${t.fromBankCode}/${t.transRef}`, amount: t.amount, currency: t.currency, at: t.at })) ?? null,
      gateway: payments?.map((p) => ({ system: 'gateway' as const, source: `gateway:${p.provider}`, ref: p.paymentId, reference: `${p.provider}/${p.paymentId}`, amount: p.amount, currency: p.currency, at: p.paidAt })) ?? null,
      voucher:
        vouchers
          ?.filter((v) => ourWallets.has(v.redeemedBy))
          .map((v) => ({ system: 'voucher' as const, source: VOUCHER_SOURCE, ref: v.hash, reference: v.hash, amount: v.amount, currency: walletCurrency(v.redeemedBy), at: v.redeemedAt })) ?? null,
      ewallet:
        walletTransfers
          ?.filter((t) => ourWallets.has(t.toPhone))
          .map((t) => ({ system: 'ewallet' as const, source: EWALLET_TRANSFER_SOURCE, ref: t.transferId, reference: t.transferId, amount: t.amount, currency: 'THB' as const, at: t.at })) ?? null,
    };
  }

  async run(period: { from: Date; to: Date }): Promise<ReconciliationReport> {
    return (await this.detailed(period)).report;
  }

  /** The report with the credits it matched and those held by members' deposit rules (the back office's screen). */
  async detailed(period: { from: Date; to: Date }): Promise<DetailedReconciliation> {
    const { from, to } = period;
    const unanswered: OutsideSystem[] = [];
    const [credits, records] = await Promise.all([depositCredits(this.db, from, to), this.outside(new Date(from.getTime() - LOOKBACK_MS), new Date(to.getTime() + LOOKAHEAD_MS), unanswered)]);
    const systems = Object.fromEntries(SYSTEMS.map((s) => [s, { credits: 0, outside: 0, listed: records[s] !== null }])) as ReconciliationReport['checked']['systems'];
    const byKey = new Map<string, OutsideRecord>();
    const bySkeleton = new Map<string, OutsideRecord>();
    for (const system of SYSTEMS) {
      for (const r of records[system] ?? []) {
        byKey.set(keyOf(r.source, r.ref), r);
        bySkeleton.set(`${r.source}\n${skeleton(r.ref)}`, r);
      }
    }
    const breaches: Breach[] = [];
    const creditsOf = new Map<OutsideRecord, RecordedCredit[]>();
    let manual = 0;
    let unverifiable = 0;
    let matched = 0;
    let held = 0;
    const matchedCredits: Array<{ record: OutsideRecord; credit: RecordedCredit }> = [];
    const heldCredits: Array<{ record: OutsideRecord; credit: RecordedCredit }> = [];
    for (const credit of credits) {
      const system = systemOf(credit.source);
      if (system === 'manual') {
        manual += 1;
        continue;
      }
      if (system === null || records[system] === null) {
        unverifiable += 1;
        continue;
      }
      systems[system].credits += 1;
      let record = byKey.get(keyOf(credit.source, credit.ref));
      if (!record) {
        // A key that is not the record's own but spells it with extra characters: the same money again.
        const letters = skeleton(credit.ref);
        for (let n = letters.length; n >= 6 && !record; n--) record = bySkeleton.get(`${credit.source}\n${letters.slice(0, n)}`);
      }
      if (!record) {
        breaches.push({ kind: 'NO_OUTSIDE_RECORD', system, reference: credit.ref, credit: summary(credit) });
        continue;
      }
      creditsOf.set(record, [...(creditsOf.get(record) ?? []), credit]);
    }
    for (const [record, list] of creditsOf) {
      // Every credit of the record must be its own key; one record, one credit (an earlier one outside the period counts too).
      const own = list.filter((c) => c.source === record.source && c.ref === record.ref);
      const earlier = own.length === 0 && (await creditedKeys(this.db, [record])).size > 0 ? 1 : 0;
      if (list.length + earlier > 1) {
        breaches.push({ kind: 'CREDITED_MORE_THAN_ONCE', system: record.system, reference: record.reference, amount: record.amount, currency: record.currency, credits: list.map(summary) });
        continue;
      }
      const [credit] = list;
      if (!credit) continue;
      if (credit.state !== 'credited') {
        // Held (or returned): matched to its record by key and amount; no money reached a wallet, so no currency to compare.
        if (credit.amount !== record.amount) {
          breaches.push({ kind: 'AMOUNT_MISMATCH', system: record.system, reference: record.reference, outside: { amount: record.amount, currency: record.currency }, credit: summary(credit) });
        } else {
          matched += 1;
          held += 1;
          if (credit.state === 'held') heldCredits.push({ record, credit });
        }
      } else if (credit.currency !== record.currency) {
        breaches.push({ kind: 'CURRENCY_MISMATCH', system: record.system, reference: record.reference, outside: { amount: record.amount, currency: record.currency }, credit: summary(credit) });
      } else if (credit.amount !== record.amount) {
        breaches.push({ kind: 'AMOUNT_MISMATCH', system: record.system, reference: record.reference, outside: { amount: record.amount, currency: record.currency }, credit: summary(credit) });
      } else {
        matched += 1;
        matchedCredits.push({ record, credit });
      }
    }
    // Money that arrived in the period and was never credited (under its own key, at any time).
    const inPeriod = SYSTEMS.flatMap((s) => (records[s] ?? []).filter((r) => r.at >= from && r.at < to));
    for (const r of inPeriod) systems[r.system].outside += 1;
    const credited = await creditedKeys(this.db, inPeriod);
    const uncredited = await this.states(inPeriod.filter((r) => !credited.has(keyOf(r.source, r.ref))));
    const report: ReconciliationReport = {
      ok: breaches.length === 0 && unanswered.length === 0,
      from: from.toISOString(),
      to: to.toISOString(),
      checked: { credits: credits.length, matched, outside: inPeriod.length, manual, held, unverifiable, systems, unanswered },
      breaches,
      uncredited,
    };
    // A bank transfer credited through an uploaded slip counts as a slip (the bank feed did not bring it).
    const slipKeys = await this.slipCredited([...matchedCredits, ...heldCredits].filter((m) => m.record.system === 'bank').map((m) => m.record.ref), new Date(from.getTime() - LOOKBACK_MS));
    const systemOfMatch = (record: OutsideRecord) => (record.system === 'bank' && slipKeys.has(record.ref) ? 'slip' : record.system);
    return {
      report,
      matched: matchedCredits.map(({ record, credit }) => ({ system: systemOfMatch(record), amount: credit.amount, currency: credit.currency ?? record.currency, at: credit.createdAt })),
      held: heldCredits.map(({ record, credit }) => ({ system: systemOfMatch(record), reference: record.reference, operationId: credit.operationId, memberId: credit.memberId, amount: credit.amount, currency: record.currency, at: credit.createdAt })),
    };
  }

  /** Which of these bank transfer keys were credited through a slip (slips credited since `since`). */
  private async slipCredited(keys: string[], since: Date): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const wanted = new Set(keys);
    const slips = await this.db
      .selectFrom('slips')
      .select(['transfer_bank', 'transfer_ref'])
      .where('status', '=', 'SUCCESS')
      .where('transfer_ref', 'is not', null)
      .where('created_at', '>=', since)
      .execute();
    return new Set(slips.map((s) => bankKey(s.transfer_bank ?? '', s.transfer_ref ?? '')).filter((key) => wanted.has(key)));
  }

  /** Why outside records were not credited: held for an operator, in progress (a slip, a voucher claim), or nothing names them. */
  private async states(records: OutsideRecord[]): Promise<Uncredited[]> {
    if (records.length === 0) return [];
    const [held, slips, claims] = await Promise.all([
      this.db.selectFrom('unmatched_deposits').select(['id', 'source', 'ref']).where('assigned_member_id', 'is', null).where('ref', 'in', records.map((r) => r.ref)).execute(),
      this.db.selectFrom('slips').select(['id', 'transfer_bank', 'transfer_ref']).where('status', '=', 'PENDING').where('transfer_ref', 'is not', null).execute(),
      this.db.selectFrom('ewallet_redemptions').select('hash').where('status', '=', 'REDEEMING').execute(),
    ]);
    const heldKeys = new Map(held.map((h) => [keyOf(h.source, h.ref), h.id]));
    const pendingSlips = new Map(slips.map((s) => [keyOf(BANK_TRANSFER_SOURCE, bankKey(s.transfer_bank ?? '', s.transfer_ref ?? '')), s.id]));
    const claimed = new Set(claims.map((c) => keyOf(VOUCHER_SOURCE, c.hash)));
    return records.map((r): Uncredited => {
      const key = keyOf(r.source, r.ref);
      const base = { system: r.system, reference: r.reference, amount: r.amount, currency: r.currency, at: r.at.toISOString() };
      const depositId = heldKeys.get(key);
      if (depositId !== undefined) return { ...base, state: 'held', depositId };
      const slipId = pendingSlips.get(key);
      if (slipId !== undefined) return { ...base, state: 'pending', slipId };
      return { ...base, state: claimed.has(key) ? 'pending' : 'unmatched' };
    });
  }
}
