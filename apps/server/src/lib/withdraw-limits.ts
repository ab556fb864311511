import type { Currency } from '../money';

/** A currency's withdrawal bounds, in minor units. */
export interface WithdrawBounds {
  min: number;
  max: number;
}

/**
 * The withdrawal bounds per currency (the `withdrawLimits` setting), defaults that make sense in
 * each: ฿100 to ฿50,000, and ₭50,000 to ₭10,000,000 (about 600 kip to the baht, rounded to figures a
 * Lao player expects; ₭10,000,000 is also the most one call may carry). The older single form `{withdrawMinSatang, withdrawMaxSatang}` is the baht
 * one; kip then keeps its defaults (never the baht figures read as kip).
 */
export const DEFAULT_WITHDRAW_LIMITS: Record<Currency, WithdrawBounds> = {
  THB: { min: 10_000, max: 5_000_000 },
  LAK: { min: 5_000_000, max: 1_000_000_000 },
};

type Stored = Partial<Record<Currency, Partial<WithdrawBounds>>> & { withdrawMinSatang?: number; withdrawMaxSatang?: number };

export async function withdrawLimitsOf(settings: { get<T>(key: string, fallback: T): Promise<T> }, currency: Currency): Promise<WithdrawBounds> {
  const stored = await settings.get<Stored | null>('withdrawLimits', null);
  const base = DEFAULT_WITHDRAW_LIMITS[currency];
  if (!stored) return base;
  const perCurrency = stored[currency];
  if (perCurrency) return { min: perCurrency.min ?? base.min, max: perCurrency.max ?? base.max };
  if (currency === 'THB' && (stored.withdrawMinSatang !== undefined || stored.withdrawMaxSatang !== undefined)) {
    return { min: stored.withdrawMinSatang ?? base.min, max: stored.withdrawMaxSatang ?? base.max };
  }
  return base;
}
