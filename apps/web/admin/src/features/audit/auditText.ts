import type { AuditRow } from '@mw/contract/admin';

/** Actions the log names in words (the key under audit.actions); any other reads as a generic change. */
export const ACTION_KEYS = {
  login: 'login',
  'login.failed': 'loginFailed',
  logout: 'logout',
  'operator.create': 'operatorCreate',
  'operator.enrol': 'operatorEnrol',
  'operator.password': 'operatorPassword',
  'operator.password-failed': 'operatorPasswordFailed',
  'enrol.totp-failed': 'totpFailed',
  'totp.failed': 'totpFailed',
  'deposit.assign': 'depositAssign',
  'deposit.manual': 'depositManual',
  'withdrawal.approve': 'withdrawalApprove',
  'withdrawal.complete': 'withdrawalComplete',
  'withdrawal.change': 'withdrawalChange',
  'bonus.change': 'bonusChange',
  'promotion.change': 'promotionChange',
  'setting.change': 'settingChange',
  'member.change': 'memberChange',
  'member-note.change': 'memberNote',
  'refund.change': 'refundChange',
  'invite.change': 'inviteChange',
} as const;
export type ActionKey = (typeof ACTION_KEYS)[keyof typeof ACTION_KEYS] | 'other';

export function actionKey(action: string): ActionKey {
  return Object.prototype.hasOwnProperty.call(ACTION_KEYS, action) ? ACTION_KEYS[action as keyof typeof ACTION_KEYS] : 'other';
}

/** One changed field: its name and its value before and after, as text. */
export interface FieldChange {
  field: string;
  before: string;
  after: string;
}

function show(value: unknown): string {
  if (value === undefined || value === null) return '—';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The fields an entry changed, one by one (a whole value when before or after is not an object). */
export function fieldChanges(row: Pick<AuditRow, 'before' | 'after'>): FieldChange[] {
  const { before, after } = row;
  if (!isRecord(before) && !isRecord(after)) return before === null && after === null ? [] : [{ field: '', before: show(before), after: show(after) }];
  const b = isRecord(before) ? before : {};
  const a = isRecord(after) ? after : {};
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return fields.filter((f) => JSON.stringify(b[f]) !== JSON.stringify(a[f])).map((f) => ({ field: f, before: show(b[f]), after: show(a[f]) }));
}

/** A Bangkok calendar day (yyyy-mm-dd) as the instant it starts, for the server's from/to filters. */
export function dayStart(day: string, plusDays = 0): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const at = new Date(`${day}T00:00:00+07:00`);
  if (Number.isNaN(at.getTime())) return undefined;
  return new Date(at.getTime() + plusDays * 86_400_000).toISOString();
}
