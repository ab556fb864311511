import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { bonusProgressSchema } from '@mw/contract/bonus';
import { request } from '../../shared/api/client';
import { BONUS_PROGRESS_PATH, bonusProgressParser } from '../../shared/api/contractParsers.generated';

// GET /api/bonus/progress, the open bonus condition's turnover, as the dashboard asks for it: checked
// with the parser generated from the contract (no zod in the dashboard's first download).
export { BONUS_PROGRESS_PATH, bonusProgressParser };

export type BonusProgress = z.output<typeof bonusProgressSchema>;
/** The open condition; `origin`: what opened it, a bonus or a payout of invite earnings or of a refund (named in words, not by code). */
export type BonusProgressCondition = NonNullable<BonusProgress['progress']>;

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
