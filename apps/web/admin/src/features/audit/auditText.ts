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

/** The money sentences that name the member's phone and the amount (auditSay.*), by what an entry did. */
export type SayKey =
  | 'withdrawalApprove'
  | 'withdrawalComplete'
  | 'withdrawalReject'
  | 'depositManual'
  | 'depositAssign'
  | 'heldRelease'
  | 'heldReturn'
  | 'approvalAsk'
  | 'approvalApprove'
  | 'approvalReject'
  | 'approvalCancel';
export type RequestKey = 'withdrawalApprove' | 'withdrawalComplete' | 'depositManual' | 'depositAssign' | 'other';

const REQUESTS: Record<string, RequestKey> = {
  'withdrawal.approve': 'withdrawalApprove',
  'withdrawal.complete': 'withdrawalComplete',
  'deposit.manual': 'depositManual',
  'deposit.assign': 'depositAssign',
};

/**
 * Which money sentence an entry reads as (null: the generic sentence). Withdrawals by the state they
 * were put in, four-eyes approvals by their decision, manual credits and assignments by their call,
 * held deposits by release or return.
 */
export function sayOf(row: Pick<AuditRow, 'action' | 'entity' | 'after'>): { key: SayKey; request: RequestKey | null } | null {
  const after = isRecord(row.after) ? row.after : {};
  const say = (key: SayKey, request: RequestKey | null = null) => ({ key, request });
  if (row.entity === 'withdrawal') {
    if (after.payout === 'processing') return say('withdrawalApprove');
    if (after.status === 'SUCCESS') return say('withdrawalComplete');
    if (after.status === 'FAILED') return say('withdrawalReject');
    return null;
  }
  if (row.entity === 'approval') {
    const request = typeof after.action === 'string' ? (REQUESTS[after.action] ?? 'other') : 'other';
    if (after.status === 'pending') return say('approvalAsk', request);
    if (after.status === 'approved') return say('approvalApprove', request);
    if (after.status === 'rejected') return say('approvalReject', request);
    if (after.status === 'cancelled') return say('approvalCancel', request);
    return null;
  }
  if (row.entity === 'held-deposit') return after.status === 'RELEASED' ? say('heldRelease') : after.status === 'RETURNED' ? say('heldReturn') : null;
  if (row.action === 'POST /api/operator/deposits') return say('depositManual');
  if (row.action === 'POST /api/operator/deposits/:id/assign') return say('depositAssign');
  return null;
}

/** The request a four-eyes entry names: the approval row's own action, else what the server read from the approval. */
export function requestOf(row: Pick<AuditRow, 'subject'>, fromRow: RequestKey | null): RequestKey | null {
  if (fromRow && fromRow !== 'other') return fromRow;
  const asked = row.subject?.request;
  return asked ? (REQUESTS[asked] ?? 'other') : fromRow;
}

/** Whether a role is one of the four the texts name (roles.*); others are shown as written. */
export function isRole(role: string): role is 'owner' | 'finance' | 'support' | 'marketing' {
  return role === 'owner' || role === 'finance' || role === 'support' || role === 'marketing';
}
