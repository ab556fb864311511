import type { z } from 'zod';
import type { bonusBodySchema, storedBannersSchema } from '@mw/contract/operator/promotions';

/** A bonus as the operator edits it (the PUT body of /api/operator/bonuses/:code) and its checks. */
type StoredBanners = z.input<typeof storedBannersSchema>;
type Category = z.input<typeof bonusBodySchema>['categories'][number];
type Amounts = Partial<Record<'THB' | 'LAK', { minDeposit: number; maxBonus: number }>>;

export interface BonusRow {
  code: string;
  type: 'limit' | 'day' | 'week';
  max_received: number;
  max_total: number | null;
  percent_fail: number | string;
  banners: StoredBanners;
  percent: number | string;
  amounts: Amounts;
  turnover_multiple: number | string;
  categories: Category[];
  deposit_window_minutes: number;
  active: boolean;
  sort: number;
}

export interface BonusForm {
  type: 'limit' | 'day' | 'week';
  maxReceived: number;
  maxTotal: number | null;
  percentFail: number;
  banners: StoredBanners;
  percent: number;
  amounts: Amounts;
  turnoverMultiple: number;
  categories: Category[];
  depositWindowMinutes: number;
  active: boolean;
  sort: number;
}

export function formOf(row: BonusRow): BonusForm {
  return {
    type: row.type,
    maxReceived: row.max_received,
    maxTotal: row.max_total,
    percentFail: Number(row.percent_fail),
    banners: row.banners,
    percent: Number(row.percent),
    amounts: row.amounts,
    turnoverMultiple: Number(row.turnover_multiple),
    categories: row.categories,
    depositWindowMinutes: row.deposit_window_minutes,
    active: row.active,
    sort: row.sort,
  };
}

/** Field → problem, as the server's rules say (it checks again). */
export function validateBonus(form: BonusForm): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!(form.percent >= 0.01 && form.percent <= 1000)) problems.percent = '0.01–1000';
  if (!(form.turnoverMultiple >= 0 && form.turnoverMultiple <= 100)) problems.turnoverMultiple = '0–100';
  if (!(Number.isInteger(form.maxReceived) && form.maxReceived >= 1 && form.maxReceived <= 1000)) problems.maxReceived = '1–1000';
  if (!(form.percentFail >= 0 && form.percentFail <= 100)) problems.percentFail = '0–100';
  if (form.categories.length === 0) problems.categories = '≥ 1';
  for (const [currency, amounts] of Object.entries(form.amounts)) {
    if (!amounts) continue;
    if (!(Number.isInteger(amounts.minDeposit) && amounts.minDeposit >= 1) || !(Number.isInteger(amounts.maxBonus) && amounts.maxBonus >= 1)) problems[`amounts.${currency}`] = '≥ 1';
  }
  if (Object.keys(form.amounts).length === 0) problems.amounts = '≥ 1 currency';
  return problems;
}

/** What a member gets for a deposit (minor units): percent of it, up to the maximum; nothing under the minimum. */
export function previewBonus(form: BonusForm, currency: 'THB' | 'LAK', deposit: number): { bonus: number; turnover: number } {
  const amounts = form.amounts[currency];
  if (!amounts || deposit < amounts.minDeposit) return { bonus: 0, turnover: 0 };
  const bonus = Math.min(Math.floor((deposit * form.percent) / 100), amounts.maxBonus);
  return { bonus, turnover: Math.round((deposit + bonus) * form.turnoverMultiple) };
}
