import { useQuery } from '@tanstack/react-query';
import { request, type ResponseParser } from '../../shared/api/client';

/**
 * GET /api/bonus/progress, the open bonus condition's turnover, as the dashboard asks for it.
 * Checked with a zod-free parser equivalent to the contract's bonusProgressSchema, so that the
 * dashboard does not load zod and the contract (≈25 KB gzipped, and their start-up work on a slow
 * phone) for one small card; test/bonusProgress.test.ts keeps it in step with the contract.
 */
export interface BonusProgressCondition {
  code: string;
  /** What opened it: a bonus, or a payout of invite earnings or of a refund (named in words, not by code). */
  origin?: 'bonus' | 'invite' | 'refund';
  turnover: number;
  target: number;
  bonus: number;
  deposit: number;
  bust: number;
}

export interface BonusProgress {
  progress: BonusProgressCondition | null;
}

export const BONUS_PROGRESS_PATH = '/api/bonus/progress';

const AMOUNTS = ['turnover', 'target', 'bonus', 'deposit', 'bust'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function condition(value: unknown): BonusProgressCondition | undefined {
  if (!isRecord(value) || typeof value.code !== 'string') return undefined;
  const amounts: Partial<Record<(typeof AMOUNTS)[number], number>> = {};
  for (const key of AMOUNTS) {
    const amount = value[key];
    if (typeof amount !== 'number' || !Number.isFinite(amount)) return undefined;
    amounts[key] = amount;
  }
  const { turnover, target, bonus, deposit, bust } = amounts;
  if (turnover === undefined || target === undefined || bonus === undefined || deposit === undefined || bust === undefined) return undefined;
  const origin = value.origin === 'bonus' || value.origin === 'invite' || value.origin === 'refund' ? value.origin : undefined;
  return { code: value.code, ...(origin ? { origin } : {}), turnover, target, bonus, deposit, bust };
}

export const bonusProgressParser: ResponseParser<BonusProgress> = {
  safeParse: (value) => {
    if (!isRecord(value) || !('progress' in value)) return { success: false };
    if (value.progress === null) return { success: true, data: { progress: null } };
    const progress = condition(value.progress);
    return progress ? { success: true, data: { progress } } : { success: false };
  },
};

/** The open condition's turnover progress; quiet: the dashboard shows nothing when the call fails. */
export function useBonusProgress() {
  return useQuery({
    queryKey: ['bonus', 'progress'],
    queryFn: ({ signal }) => request(BONUS_PROGRESS_PATH, bonusProgressParser, { signal, background: true }),
    meta: { silent: true },
  });
}

/** The condition's name in words: the bonus's code, or what kind of payout opened it. */
export function conditionTitle(p: BonusProgressCondition, text: (key: 'originInvite' | 'originRefund') => string): string {
  if (p.origin === 'invite') return text('originInvite');
  if (p.origin === 'refund') return text('originRefund');
  return p.code;
}
