import { approvalOperatorCalls } from '@mw/contract/operator/approval';
import { contractRoute } from '../../http/contract-route';
import { z } from 'zod';
import { defineModule } from '../../platform/module';
import { moduleConfig } from '../../platform/module-config';
import { operatorGuard, operatorName } from '../../platform/operator';
import { ApprovalService } from './approval-service';

declare module '../../platform/services' {
  interface Services {
    approvals: ApprovalService;
  }
}

const approvalEnv = z.object({
  /** Four eyes above this many baht (a manual credit, an unmatched deposit assigned, a withdrawal paid out). */
  FOUR_EYES_THRESHOLD: z.coerce.number().min(0).max(1_000_000_000).default(50_000),
  /**
   * …and above this many kip for LAK members. A threshold of its own, not a conversion at a rate
   * (rates move; the operator sets the kip limit): default 30,000,000 ≈ 50,000 baht.
   */
  FOUR_EYES_THRESHOLD_LAK: z.coerce.number().min(0).max(1_000_000_000_000).default(30_000_000),
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
  ],
  setup(services) {
    const env = moduleConfig(services.config, approvalEnv);
    services.approvals = new ApprovalService(services.database.db, {
      THB: Math.round(env.FOUR_EYES_THRESHOLD * 100),
      LAK: Math.round(env.FOUR_EYES_THRESHOLD_LAK * 100),
    });
  },
  routes(app, { config, approvals }) {
    const guard = operatorGuard(config);
    const c = approvalOperatorCalls;
    contractRoute(app, c.approvalsList, { preHandler: guard }, async ({ query }) => ({ approvals: await approvals.list(query.status) }));
    contractRoute(app, c.approvalGet, { preHandler: guard }, async ({ params }) => approvals.get(params.id));
    contractRoute(app, c.approvalApprove, { preHandler: guard }, async ({ params: { id }, request }) => {
      const result = await approvals.approve(id, operatorName(request));
      return { id, status: 'approved' as const, result };
    });
    contractRoute(app, c.approvalReject, { preHandler: guard }, async ({ params, body, request }) => approvals.reject(params.id, operatorName(request), body.note));
  },
});
