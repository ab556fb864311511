import { approvalOperatorCalls, fourEyesThresholdsSchema } from '@mw/contract/operator/approval';
import { contractRoute } from '../../http/contract-route';
import { z } from 'zod';
import { defineModule } from '../../platform/module';
import { moduleConfig } from '../../platform/module-config';
import { operatorGuard, operatorName } from '../../platform/operator';
import type { FastifyRequest } from 'fastify';
import { recordChange } from '../../platform/audit';
import { ApprovalService, type Checker } from './approval-service';
import { belowMinorUnit, defaultThresholds, FourEyesRules, type FourEyesTables, type FourEyesThresholds } from './four-eyes-rules';
import { AppError, badRequest } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { idempotencyOf } from '../../money';
import { moduleDb } from '../../db/database';
import type { ApprovalTables } from './approval-service';

declare module '../../platform/services' {
  interface Services {
    approvals: ApprovalService;
  }
}

const approvalEnv = z.object({
  /**
   * The default four-eyes threshold in baht: a member's manual credits and assignments, or payouts,
   * over 24 h above it need a second person; one operator's day above ten times it. Operators (the
   * owner) change each per currency in the back office (GET/PUT /api/operator/four-eyes). Default
   * 20,000: under the largest withdrawal (50,000), so a payout can reach four eyes.
   */
  FOUR_EYES_THRESHOLD: z.coerce.number().min(0).max(1_000_000_000).default(20_000),
  /**
   * …and in kip for LAK members. A threshold of its own, not a conversion at a rate (rates move;
   * the operator sets the kip limit): default 12,000,000 (about 600 kip to the baht, rounded).
   */
  FOUR_EYES_THRESHOLD_LAK: z.coerce.number().min(0).max(1_000_000_000_000).default(12_000_000),
});

/**
 * Maker-checker approvals of operators' money actions (see ApprovalService). Operator calls:
 *   GET  /api/operator/approvals?status=pending|approved|rejected — newest first (pending: oldest first)
 *   GET  /api/operator/approvals/:id
 *   POST /api/operator/approvals/:id/approve            — a different operator runs the action, once
 *   POST /api/operator/approvals/:id/reject { note }    — nothing runs (a checker, or the maker withdrawing it)
 * Other domains register their actions' executors in their setup (this module comes first).
 */
export const approvalModule = defineModule({
  name: 'approval',
  migrations: [
    {
      id: 'approval/001_operator_approvals',
      sql: `
-- Four eyes: an operator's money action waiting for a second operator, and what it answered once run.
CREATE TABLE operator_approvals (
  id text PRIMARY KEY,
  action text NOT NULL,
  dedupe_key text NOT NULL,
  request_hash text NOT NULL DEFAULT '',
  payload jsonb NOT NULL,
  member_id text,
  amount bigint NOT NULL CHECK (amount >= 0),
  currency text NOT NULL CHECK (currency IN ('THB', 'LAK')),
  maker text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
  checker text,
  note text,
  result jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz,
  CONSTRAINT operator_approvals_four_eyes CHECK (status <> 'approved' OR checker IS DISTINCT FROM maker)
);
CREATE UNIQUE INDEX operator_approvals_open ON operator_approvals (dedupe_key) WHERE status <> 'rejected';
CREATE INDEX operator_approvals_status ON operator_approvals (status, created_at);`,
    },
    {
      id: 'approval/002_cancel_and_sums',
      sql: `
-- The maker may cancel their own request; a cancelled one, like a rejected one, no longer blocks a new request for the same thing.
ALTER TABLE operator_approvals DROP CONSTRAINT IF EXISTS operator_approvals_status_check;
ALTER TABLE operator_approvals ADD CONSTRAINT operator_approvals_status_check CHECK (status IN ('pending', 'approved', 'rejected', 'cancelled'));
DROP INDEX operator_approvals_open;
CREATE UNIQUE INDEX operator_approvals_open ON operator_approvals (dedupe_key) WHERE status IN ('pending', 'approved');
-- What one operator's word moved without a second person, once per thing, for the 24-hour sums.
CREATE TABLE four_eyes_spend (
  id text PRIMARY KEY,
  subject text NOT NULL UNIQUE,
  kind text NOT NULL CHECK (kind IN ('manual', 'assign', 'payout')),
  direction text NOT NULL CHECK (direction IN ('in', 'out')),
  member_id text NOT NULL,
  operator text NOT NULL,
  amount bigint NOT NULL CHECK (amount >= 0),
  currency text NOT NULL CHECK (currency IN ('THB', 'LAK')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX four_eyes_spend_member ON four_eyes_spend (member_id, created_at);
CREATE INDEX four_eyes_spend_operator ON four_eyes_spend (operator, created_at);`,
    },
  ],
  setup(services) {
    const env = moduleConfig(services.config, approvalEnv);
    const rules = new FourEyesRules(moduleDb<FourEyesTables>(services.database), defaultThresholds(env.FOUR_EYES_THRESHOLD, env.FOUR_EYES_THRESHOLD_LAK), () => services.settings);
    services.approvals = new ApprovalService(moduleDb<ApprovalTables>(services.database), rules);
  },
  routes(app, services) {
    const { config, approvals } = services;
    // Wired here, where every module's services exist: who may check whom (operators) and who a member is (account).
    approvals.checkersBy((checker, maker) => services.operators.mayCheck(checker, maker));
    approvals.membersBy(async (memberId) => {
      const member = await services.memberDirectory.get(memberId).catch(() => null);
      return member ? { id: member.id, name: member.name, phone: member.username, bank: member.bankCode, account: member.bankAccountNo, currency: member.currency === 'LAK' ? 'LAK' : 'THB' } : null;
    });
    const guard = operatorGuard(config);
    const c = approvalOperatorCalls;
    const checker = (request: FastifyRequest): Checker => ({ username: operatorName(request), via: request.operator?.via === 'api-key' ? 'api-key' : 'session' });
    contractRoute(app, c.approvalsList, { preHandler: guard }, async ({ query }) => ({ approvals: await approvals.list(query.status) }));
    contractRoute(app, c.approvalGet, { preHandler: guard }, async ({ params }) => approvals.get(params.id));
    contractRoute(app, c.approvalApprove, { preHandler: guard }, async ({ params: { id }, request }) => {
      const result = await approvals.approve(id, checker(request));
      return { id, status: 'approved' as const, result };
    });
    contractRoute(app, c.approvalReject, { preHandler: guard }, async ({ params, body, request }) => approvals.reject(params.id, checker(request), body.note));
    contractRoute(app, c.approvalCancel, { preHandler: guard }, async ({ params, body, request }) => approvals.cancel(params.id, checker(request), body.note ?? ''));
    contractRoute(app, c.fourEyesGet, { preHandler: guard }, async () => approvals.rules.thresholds());
    const db = moduleDb<ApprovalTables>(services.database);
    // Raising a threshold loosens the control itself: a second person applies it, only over the
    // thresholds as they were when asked (else 422 CHANGED_SINCE_REQUEST). Lowering is at once.
    approvals.register('approval.four-eyes', async (payload, who) => {
      const { before, after } = z.object({ before: fourEyesThresholdsSchema, after: fourEyesThresholdsSchema }).parse(payload);
      const now = await approvals.rules.thresholds();
      if (sameThresholds(now, after)) return now;
      if (!sameThresholds(now, before)) throw new AppError(422, 'CHANGED_SINCE_REQUEST');
      await approvals.rules.setThresholds(after);
      await recordChange(db, { who, entity: 'setting', key: 'fourEyes', before: now, after });
      return approvals.rules.thresholds();
    });
    contractRoute(app, c.fourEyesPut, { preHandler: guard }, async ({ body, request, reply }) => {
      // Amounts are counted in minor units (satang, att): a threshold finer than one is refused.
      const fields = belowMinorUnit(body);
      if (fields.length > 0) throw badRequest('KEY_INVALID', { fields });
      const before = await approvals.rules.thresholds();
      const changes = thresholdChanges(before, body);
      if (changes.some((change) => change.after > change.before)) {
        const idem = idempotencyOf(request.headers['idempotency-key'], 'approval.four-eyes', request.body);
        const asked = await approvals.request({ action: 'approval.four-eyes', dedupeKey: `approval.four-eyes:${idem?.key ?? newId()}`, requestHash: idem?.hash ?? '', payload: { target: 'fourEyes', before, after: body, changes }, memberId: null, amount: 0, currency: 'THB', maker: operatorName(request) });
        return 'approvalId' in asked ? reply.status(202).send(asked) : reply.status(asked.status).send(asked.body);
      }
      await approvals.rules.setThresholds(body);
      await recordChange(db, { who: operatorName(request), entity: 'setting', key: 'fourEyes', before, after: body });
      return approvals.rules.thresholds();
    });
  },
});

/** Each threshold that differs, as `CURRENCY.field` with its figures before and after (major units). */
function thresholdChanges(before: FourEyesThresholds, after: FourEyesThresholds): Array<{ field: string; before: number; after: number }> {
  const changes: Array<{ field: string; before: number; after: number }> = [];
  for (const currency of Object.keys(after) as Array<keyof FourEyesThresholds>) {
    const was: Partial<Record<string, number>> = { ...before[currency] };
    for (const [field, value] of Object.entries(after[currency])) {
      if (was[field] !== value) changes.push({ field: `${currency}.${field}`, before: was[field] ?? 0, after: value });
    }
  }
  return changes;
}

function sameThresholds(a: FourEyesThresholds, b: FourEyesThresholds): boolean {
  return thresholdChanges(a, b).length === 0 && thresholdChanges(b, a).length === 0;
}
