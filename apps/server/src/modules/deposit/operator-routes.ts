import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { depositOperatorCalls } from '@mw/contract/operator/deposit';
import { contractRoute } from '../../http/contract-route';
import { AppError, badRequest } from '../../lib/errors';
import { idempotencyOf } from '../../money';
import { type operatorGuard, operatorIsOwner, operatorName } from '../../platform/operator';
import type { Services } from '../../platform/services';
import { ledgerCurrency } from '../../money';
import type { ActionResult, AwaitingApproval } from '../approval/approval-service';
import type { MatchedPayout, PayoutReconciliationReport } from '../../lib/payout-report';
import { type DetailedReconciliation } from './reconciliation';
import { reconciliationView } from './reconciliation-view';
import { type Channel, type NewChannel } from './channel-service';
import { newId } from '../../lib/ids';
import './tables';
import { RECONCILIATION_DEFAULT_MS } from './config';

// The deposit module's operator calls: unmatched and manual deposits, channels, slip settings, reconciliation.

export function operatorRoutes(app: FastifyInstance, guard: ReturnType<typeof operatorGuard>, { config, deposits, settings, approvals, accounts, payoutReconciliation }: Services): void {
  const c = depositOperatorCalls;
  const options = { preHandler: guard };
  // The slip rules: upload on/off, the daily closed window (Asia/Bangkok), the oldest transfer accepted.
  contractRoute(app, c.slipSettings, options, async () => deposits.slips.rules());
  contractRoute(app, c.slipSettingsPut, options, async ({ body, request, reply }) => {
    const before = await deposits.slips.rules();
    // Closing uploads only lowers risk: at once. Any other change waits for a second person.
    const closingOnly = changesOf(before, body).every((c) => c.field === 'uploadEnabled' && c.after === false);
    if (closingOnly) return deposits.slips.setRules(body);
    return settingChange(reply, request, { action: 'deposit.slip-settings', target: 'slip', before, after: body, payload: { rules: body } });
  });
  // Slips for the back office; approve / reject of slips in progress (see SlipService).
  contractRoute(app, c.slipsList, options, async ({ query }) => deposits.slips.list(query.status, query.page));
  contractRoute(app, c.slipApprove, options, async ({ params, body, request, reply }) => {
    const amount = body.amount;
    if (amount !== undefined && amount <= 0) throw badRequest('KEY_INVALID', { fields: [{ path: 'amount', code: 'invalid' }] });
    // A slip the bank does not know, credited with the amount the operator typed, is a manual
    // credit: above the manual threshold it waits for a second person, as a manual credit does.
    const typed = amount === undefined ? null : await deposits.slips.typedCredit(params.id, body.bankRef);
    if (typed && amount !== undefined && (await approvals.needsChecker({ kind: 'manual', subject: `slip.approve:${params.id}`, memberId: typed.memberId, operator: operatorName(request), amount, currency: typed.currency }))) {
      const asked = await approvals.request({ action: 'deposit.slip-approve', dedupeKey: `slip.approve:${params.id}`, payload: { id: params.id, amount, bankRef: body.bankRef ?? '' }, memberId: typed.memberId, amount, currency: typed.currency, maker: operatorName(request) });
      return 'approvalId' in asked ? reply.status(202).send(asked) : reply.status(asked.status).send(asked.body);
    }
    return deposits.slips.approve(params.id, amount, body.bankRef);
  });
  contractRoute(app, c.slipReject, options, async ({ params, body }) => deposits.slips.reject(params.id, body.reason));

  // Deposits against the outside systems' records, for [from, to) (ISO times; default: the 24 hours before `to`, `to` now).
  contractRoute(app, c.reconciliation, options, async ({ query }) => {
    const to = query.to ? new Date(query.to) : new Date();
    const from = query.from ? new Date(query.from) : new Date(to.getTime() - RECONCILIATION_DEFAULT_MS);
    if (!(from.getTime() < to.getTime())) throw badRequest('KEY_INVALID', { fields: [{ path: 'from', code: 'invalid' }] });
    // Deposits and payouts against the outside systems; ok only when both are. The screen's days and open items beside.
    const [detailed, payouts]: [DetailedReconciliation, { report: PayoutReconciliationReport; matched: MatchedPayout[] }] = await Promise.all([
      deposits.reconciliation.detailed({ from, to }),
      payoutReconciliation.detailed({ from, to }),
    ]);
    const report = detailed.report;
    const timeZone = config.LAOS_MODE ? 'Asia/Vientiane' : 'Asia/Bangkok';
    return { ...report, ok: report.ok && payouts.report.ok, payouts: payouts.report, timeZone, ...reconciliationView(detailed, payouts) };
  });

  contractRoute(app, c.depositManualSwitch, options, async ({ body: { value }, request, reply }) => {
    const before = await settings.get<boolean>('depositManual', false);
    if (before === value) return { isManual: value };
    return settingChange(reply, request, { action: 'deposit.manual-switch', target: 'depositManual', before: { value: before }, after: { value }, payload: { value } });
  });
  contractRoute(app, c.depositsUnmatched, options, async () => ({ deposits: await deposits.bank.unmatched() }));
  // Four eyes above FOUR_EYES_THRESHOLD: the call records an approval (202) a second operator runs.
  const awaiting = (reply: FastifyReply, asked: AwaitingApproval | ActionResult) =>
    'approvalId' in asked ? reply.status(202).send(asked) : reply.status(asked.status).send(asked.body);
  contractRoute(app, c.depositAssign, options, async ({ params: { id }, body: { memberId }, request, reply }) => {
    const held = await deposits.bank.heldAmount(id);
    if (held && (await approvals.needsChecker({ kind: 'assign', subject: `deposit.assign:${id}`, memberId, operator: operatorName(request), amount: held.amount, currency: held.currency }))) {
      if (!(await accounts.findById(memberId))) throw new AppError(404, 'NO_USER');
      const asked = await approvals.request({ action: 'deposit.assign', dedupeKey: `deposit.assign:${id}`, payload: { id, memberId }, memberId, amount: held.amount, currency: held.currency, maker: operatorName(request) });
      return awaiting(reply, asked);
    }
    return deposits.bank.assign(id, memberId);
  });
  contractRoute(app, c.depositManual, options, async ({ body, request, reply }) => {
    const idem = idempotencyOf(request.headers['idempotency-key'], 'operatorDeposit', request.body);
    if (!idem) throw badRequest('KEY_MISSING', { fields: [{ path: 'Idempotency-Key', code: 'required' }] });
    // Operator keys live apart from members' own ('/' is not allowed in a member's key).
    const key = { key: `operator/${idem.key}`, hash: idem.hash };
    const currency = ledgerCurrency(body.currency);
    if (await approvals.needsChecker({ kind: 'manual', subject: `deposit.manual:${key.key}`, memberId: body.memberId, operator: operatorName(request), amount: body.amount, currency })) {
      if (!(await accounts.findById(body.memberId))) throw new AppError(404, 'NO_USER');
      const asked = await approvals.request({ action: 'deposit.manual', dedupeKey: `deposit.manual:${key.key}`, requestHash: key.hash, payload: { body, idem: key, owner: operatorIsOwner(request) }, memberId: body.memberId, amount: body.amount, currency, maker: operatorName(request) });
      return awaiting(reply, asked);
    }
    return approvals.counted(`deposit.manual:${key.key}`, () => deposits.bank.manual(body, key, operatorIsOwner(request)));
  });
  contractRoute(app, c.depositChannels, options, async () => ({ channels: await deposits.channels.all() }));
  contractRoute(app, c.depositChannelPut, options, async ({ params: { id }, body: b, request, reply }) => {
    const current = (await deposits.channels.all()).find((ch) => ch.id === id);
    const before = current ? channelFieldsOf(current) : null;
    const after: ChannelFields = { kind: b.kind, bank_code: b.bankCode, bank_type: b.bankType, mode: b.mode, account_name: b.accountName, account_no: b.accountNo, currency: b.currency, sort: b.sort, active: b.active };
    const changes = changesOf(before, after);
    // Nothing changed, or only lowering risk (switching the channel off, its place in the list): at once.
    // Where members send money (a new channel, its account, bank, mode, currency, switching it on) waits for a second person.
    if (current && changes.every((ch) => ch.field === 'sort' || (ch.field === 'active' && ch.after === false))) return deposits.channels.upsert({ id, ...after });
    return settingChange(reply, request, { action: 'deposit.channel', target: id, before, after, payload: { id, channel: after } });
  });

  /**
   * Four eyes on where members send money and how deposits are checked: the change is recorded as
   * a request (202 awaiting-approval) with its before and after; a second person's approval applies
   * it, if what it changes is still as it was when asked (else 422 CHANGED_SINCE_REQUEST: ask again).
   * The same Idempotency-Key answers the same request; without one, each call is a request of its own.
   */
  async function settingChange(
    reply: FastifyReply,
    request: FastifyRequest,
    change: { action: string; target: string; before: object | null; after: object; payload: Record<string, unknown> },
  ) {
    const idem = idempotencyOf(request.headers['idempotency-key'], change.action, request.body);
    const asked = await approvals.request({
      action: change.action,
      dedupeKey: `${change.action}:${change.target}:${idem?.key ?? newId()}`,
      requestHash: idem?.hash ?? '',
      payload: { ...change.payload, target: change.target, before: change.before, after: change.after, changes: changesOf(change.before, change.after) },
      memberId: null,
      amount: 0,
      currency: 'THB',
      maker: operatorName(request),
    });
    return awaiting(reply, asked);
  }
}

export type ChannelFields = Omit<NewChannel, 'id'>;
export function channelFieldsOf(ch: Channel): ChannelFields {
  return { kind: ch.kind, bank_code: ch.bank_code, bank_type: ch.bank_type, mode: ch.mode, account_name: ch.account_name, account_no: ch.account_no, currency: ch.currency, sort: ch.sort, active: ch.active };
}

/** Whether two JSON values are equal, whatever their keys' order (jsonb keeps its own). */
export function sameValue(a: unknown, b: unknown): boolean {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1)).map(([k, w]) => [k, canonical(w)])) : (v ?? null);
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** The fields a change alters, each with its value before and after (for the approval and the audit). */
export function changesOf(before: object | null, after: object): { field: string; before: unknown; after: unknown }[] {
  const was = (before ?? {}) as Record<string, unknown>;
  return Object.entries(after)
    .filter(([field, value]) => !sameValue(was[field], value))
    .map(([field, value]) => ({ field, before: was[field] ?? null, after: value }));
}
