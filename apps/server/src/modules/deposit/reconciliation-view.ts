import type { z } from 'zod';
import { toBaht } from '@mw/contract/money';
import type { reconDaySchema, reconItemSchema } from '@mw/contract/operator/deposit';
import { siteDay } from '../../lib/periods';
import type { MatchedPayout, PayoutBreach, PayoutReconciliationReport } from '../../lib/payout-report';
import type { Breach, DetailedReconciliation } from './reconciliation';

type Day = z.infer<typeof reconDaySchema>;
type Item = z.infer<typeof reconItemSchema>;
type Currency = 'THB' | 'LAK';

export { siteDay } from '../../lib/periods';

const currencyOf = (code: string | null | undefined): Currency => (code === 'LAK' ? 'LAK' : 'THB');

function depositBreachItem(breach: Breach): Item {
  if (breach.kind === 'CREDITED_MORE_THAN_ONCE') {
    const first = breach.credits[0];
    return { kind: 'breach', system: breach.system, reference: breach.reference, amount: toBaht(breach.amount), currency: breach.currency, at: first?.createdAt ?? new Date(0).toISOString(), detail: breach.kind, memberId: first?.memberId ?? null, link: { screen: 'member', id: first?.memberId ?? null } };
  }
  const { credit } = breach;
  const currency = breach.kind === 'NO_OUTSIDE_RECORD' ? currencyOf(credit.currency) : breach.outside.currency;
  const amount = breach.kind === 'NO_OUTSIDE_RECORD' ? credit.amount : breach.outside.amount;
  return { kind: 'breach', system: breach.system, reference: breach.reference, amount: toBaht(amount), currency, at: credit.createdAt, detail: breach.kind, memberId: credit.memberId, link: { screen: 'member', id: credit.memberId } };
}

function payoutBreachItem(breach: PayoutBreach): Item {
  const base = { kind: 'breach' as const, system: 'payout' as const, detail: breach.kind };
  if (breach.kind === 'UNKNOWN_PAYOUT') {
    return { ...base, reference: breach.payout.reference, amount: breach.payout.amount, currency: currencyOf(breach.payout.currency), at: breach.payout.at, memberId: null, link: { screen: 'withdrawals', id: null } };
  }
  if (breach.kind === 'PAID_BUT_RETURNED') {
    return { ...base, reference: breach.withdrawalId, amount: breach.payout.amount, currency: currencyOf(breach.payout.currency), at: breach.payout.at, memberId: null, link: { screen: 'withdrawals', id: breach.withdrawalId } };
  }
  const w = breach.withdrawal;
  return { ...base, reference: w.id, amount: w.amount, currency: currencyOf(w.currency), at: w.completedAt, memberId: w.memberId, link: { screen: 'member', id: w.memberId } };
}

/**
 * The reconciliation screen's view of a run: per day (site time), outside system and currency the
 * credits and payouts matched 1:1 with their outside record (count and sum) and what is open; and
 * every open item with where to act on it — money that came with no member (unmatched deposits),
 * money nothing credited, claims in progress, credits held by members' deposit rules, breaches,
 * payouts still with the bank. Amounts in major units.
 */
export function reconciliationView(deposits: DetailedReconciliation, payouts: { report: PayoutReconciliationReport; matched: MatchedPayout[] }): { days: Day[]; items: Item[] } {
  const items: Item[] = [];
  for (const u of deposits.report.uncredited) {
    const amount = toBaht(u.amount);
    if (u.state === 'held') items.push({ kind: 'unmatched', system: u.system, reference: u.reference, amount, currency: u.currency, at: u.at, detail: null, memberId: null, link: { screen: 'deposits', id: u.depositId ?? null } });
    else if (u.state === 'pending') items.push({ kind: 'pending', system: u.slipId ? 'slip' : u.system, reference: u.reference, amount, currency: u.currency, at: u.at, detail: null, memberId: null, link: u.slipId ? { screen: 'slips', id: u.slipId } : { screen: 'deposits', id: null } });
    else items.push({ kind: 'uncredited', system: u.system, reference: u.reference, amount, currency: u.currency, at: u.at, detail: null, memberId: null, link: { screen: 'deposits', id: null } });
  }
  for (const h of deposits.held) {
    items.push({ kind: 'held', system: h.system, reference: h.reference, amount: toBaht(h.amount), currency: h.currency, at: h.at.toISOString(), detail: null, memberId: h.memberId, link: { screen: 'held', id: h.operationId } });
  }
  for (const b of deposits.report.breaches) items.push(depositBreachItem(b));
  for (const b of payouts.report.breaches) items.push(payoutBreachItem(b));
  for (const p of payouts.report.processing) {
    items.push({ kind: 'processing', system: 'payout', reference: p.reference, amount: p.amount, currency: currencyOf(p.currency), at: p.at, detail: p.status, memberId: null, link: { screen: 'withdrawals', id: p.reference } });
  }
  items.sort((a, b) => a.at.localeCompare(b.at) || a.reference.localeCompare(b.reference));

  const days = new Map<string, Day>();
  const row = (day: string, system: Day['system'], currency: Currency): Day => {
    const key = `${day}\n${system}\n${currency}`;
    let found = days.get(key);
    if (!found) {
      found = { day, system, currency, matched: 0, matchedAmount: 0, open: 0, openAmount: 0 };
      days.set(key, found);
    }
    return found;
  };
  // Sums in minor units while adding (no float drift), major units in the answer.
  const minor = new Map<Day, { matched: number; open: number }>();
  const add = (d: Day, field: 'matched' | 'open', amount: number) => {
    const sums = minor.get(d) ?? { matched: 0, open: 0 };
    sums[field] += amount;
    minor.set(d, sums);
    d[field] += 1;
  };
  for (const m of deposits.matched) add(row(siteDay(m.at), m.system, m.currency), 'matched', m.amount);
  for (const p of payouts.matched) add(row(siteDay(p.at), 'payout', currencyOf(p.currency)), 'matched', Math.round(p.amount * 100));
  for (const i of items) add(row(siteDay(i.at), i.system, i.currency ?? 'THB'), 'open', Math.round((i.amount ?? 0) * 100));
  for (const [d, sums] of minor) {
    d.matchedAmount = toBaht(sums.matched);
    d.openAmount = toBaht(sums.open);
  }
  const order: ReadonlyArray<Day['system']> = ['bank', 'slip', 'gateway', 'ewallet', 'voucher', 'payout'];
  return {
    days: [...days.values()].sort((a, b) => a.day.localeCompare(b.day) || order.indexOf(a.system) - order.indexOf(b.system) || a.currency.localeCompare(b.currency)),
    items,
  };
}
