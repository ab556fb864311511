import type { RiskFlagKind } from '@mw/contract/operator/risk';

/** The i18n key of each signal (`risk.kinds.*`). */
export const KIND_KEYS = {
  'same-bank-account': 'sameBankAccount',
  'same-device': 'sameDevice',
  'same-address': 'sameAddress',
  'shared-bonus': 'sharedBonus',
  'low-turnover': 'lowTurnover',
  'login-new-device': 'loginNewDevice',
  'name-mismatch': 'nameMismatch',
} as const satisfies Record<RiskFlagKind, string>;

/** One line of evidence as a person reads it: arrays of records one item a line, values as they are. */
export function evidenceLines(evidence: Record<string, unknown>): Array<[string, string]> {
  const show = (value: unknown): string => {
    if (value === null || value === undefined) return '—';
    if (Array.isArray(value)) return value.map(show).join('; ');
    if (typeof value === 'object') return Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k}: ${show(v)}`).join(', ');
    return String(value);
  };
  return Object.entries(evidence).map(([key, value]) => [key, show(value)]);
}
