import { responsibleOperatorCalls } from '@mw/contract/operator/approval';
import { contractRoute } from '../../http/contract-route';
import type { FastifyRequest } from 'fastify';
import { toBaht } from '@mw/contract/money';
import { requireMember } from '../../http/handlers';
import { AppError } from '../../lib/errors';
import { ledgerCurrency } from '../../money';
import { recordChange } from '../../platform/audit';
import { defineModule } from '../../platform/module';
import { operatorGuard, operatorIsOwner, operatorName } from '../../platform/operator';
import { ResponsibleService } from './responsible-service';
import './tables';
import { moduleDb } from '../../db/database';
import type { ResponsibleTables } from './tables';

declare module '../../platform/services' {
  interface Services {
    /** Responsible play: deposit limits (the money core's deposit rules), breaks, reality checks. */
    responsible: ResponsibleService;
  }
}

/**
 * Responsible play (issue 22): the member's calls of contract/responsible.ts, the money core's
 * deposit rules (every deposit path: asks refused, arrivals held), breaks that the route layer
 * enforces (app.ts, each call's `duringBreak`), and operator calls:
 *   GET  /api/operator/deposits/held                 — deposits held by the rules (oldest first)
 *   POST /api/operator/deposits/held/:id/release {force?} — credit it, once: when the rules allow it now, or by an owner with force
 *   POST /api/operator/deposits/held/:id/return      — mark it to be sent back to where it came from (nothing is credited)
 *   GET  /api/operator/members/:id/responsible       — a member's limits, breaks and held deposits
 *   DELETE /api/operator/members/:id/responsible/break, PUT /api/operator/members/:id/responsible/break
 *        — refused (403 EXCLUSION_CANNOT_BE_LIFTED): nobody lifts or shortens a break; the attempt is audited
 */
export const responsibleModule = defineModule({
  name: 'responsible',
  migrations: [
    {
      id: 'responsible/001_settings_pending',
      sql: `
CREATE TABLE responsible_settings (
  member_id text PRIMARY KEY REFERENCES members(id),
  day_limit bigint CHECK (day_limit >= 0),
  week_limit bigint CHECK (week_limit >= 0),
  month_limit bigint CHECK (month_limit >= 0),
  reality_check_minutes integer NOT NULL DEFAULT 0 CHECK (reality_check_minutes IN (0, 15, 30, 60)),
  time_out_until timestamptz,
  self_excluded_until timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- A raise or removal of a limit waits 24 hours; one per member and period.
CREATE TABLE responsible_pending (
  member_id text NOT NULL REFERENCES members(id),
  period text NOT NULL CHECK (period IN ('day', 'week', 'month')),
  amount bigint CHECK (amount >= 0),
  requested_at timestamptz NOT NULL,
  effective_at timestamptz NOT NULL,
  PRIMARY KEY (member_id, period)
);
-- Nobody shortens or lifts a break: the database refuses an earlier end or a NULL over a set one.
CREATE FUNCTION responsible_breaks_hold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (OLD.time_out_until IS NOT NULL AND (NEW.time_out_until IS NULL OR NEW.time_out_until < OLD.time_out_until))
     OR (OLD.self_excluded_until IS NOT NULL AND (NEW.self_excluded_until IS NULL OR NEW.self_excluded_until < OLD.self_excluded_until)) THEN
    RAISE EXCEPTION 'a time-out or self-exclusion cannot be shortened or lifted';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER responsible_breaks_hold BEFORE UPDATE ON responsible_settings FOR EACH ROW EXECUTE FUNCTION responsible_breaks_hold();
CREATE FUNCTION responsible_settings_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'responsible-play settings are not deleted';
END
$$;
CREATE TRIGGER responsible_settings_kept BEFORE DELETE ON responsible_settings FOR EACH ROW EXECUTE FUNCTION responsible_settings_kept();`,
    },
  ],
  setup(services) {
    const clock = services.clock;
    services.responsible = new ResponsibleService(moduleDb<ResponsibleTables>(services.database), services.money, services.sessions, services.accounts, services.activity, () => clock.now());
    services.money.policies.setDepositRules(services.responsible);
  },
  handlers: ({ responsible }) => ({
    responsibleGet: async (ctx) => {
      const member = requireMember(ctx);
      return responsible.state(member.memberId, member.sessionId);
    },
    responsibleLimitsPut: async (ctx) => {
      const member = requireMember(ctx);
      return responsible.setLimits(member.memberId, ctx.body, member.sessionId);
    },
    responsiblePendingCancel: async (ctx) => {
      const member = requireMember(ctx);
      return responsible.cancelPending(member.memberId, ctx.params.period, member.sessionId);
    },
    responsibleTimeOut: async (ctx) => responsible.takeBreak(requireMember(ctx).memberId, 'TIME_OUT', ctx.body.days),
    responsibleSelfExclusion: async (ctx) => responsible.takeBreak(requireMember(ctx).memberId, 'SELF_EXCLUDED', ctx.body.months),
    responsibleRealityCheck: async (ctx) => {
      await responsible.setRealityCheck(requireMember(ctx).memberId, ctx.body.minutes);
      return { ok: true as const };
    },
  }),
  routes(app, { config, money, responsible, accounts, database }) {
    const guard = operatorGuard(config);
    const c = responsibleOperatorCalls;
    contractRoute(app, c.heldDeposits, { preHandler: guard }, async ({ query: { status } }) => {
      const held = await money.credits.held({ status });
      const members = await accounts.contacts([...new Set(held.map((h) => h.memberId))]);
      return {
        deposits: held.map((h) => ({
          id: h.operationId,
          memberId: h.memberId,
          username: members.get(h.memberId)?.username ?? '',
          name: members.get(h.memberId)?.name ?? '',
          bankCode: members.get(h.memberId)?.bankCode ?? '',
          bankAccountNo: members.get(h.memberId)?.bankAccountNo ?? '',
          amount: toBaht(h.amount),
          currency: h.currency,
          from: h.from,
          source: h.source,
          reference: h.ref,
          reason: h.reason,
          status: h.status,
          receivedAt: h.receivedAt.toISOString(),
        })),
      };
    });
    // The body is optional ({force?: boolean}): a missing body is no force.
    contractRoute(app, c.heldRelease, { preHandler: guard }, async ({ params: { id }, body, request }) => {
      const force = body?.force === true;
      // Over the limit (or during a break) only an owner may credit it, and only by asking so (force).
      const released = await money.credits.release(id, force && operatorIsOwner(request));
      if (!released) throw new AppError(404, 'NO_HELD_DEPOSIT');
      const currency = ledgerCurrency((await accounts.findById(released.memberId))?.currency ?? 'BAHT');
      await recordChange(moduleDb<ResponsibleTables>(database), {
        who: operatorName(request),
        entity: 'held-deposit',
        key: id,
        before: { status: 'HELD' },
        after: { status: 'RELEASED', force, memberId: released.memberId, amount: toBaht(released.amount), currency },
      });
      return { ok: true as const, id, memberId: released.memberId, amount: toBaht(released.amount), currency, wallet: { amount: toBaht(released.wallet) } };
    });
    // Returned by hand: the operator sent the money back to the sender outside the wallet; the reference of that transfer and the reason are in the audit.
    contractRoute(app, c.heldReturn, { preHandler: guard }, async ({ params: { id }, body, request }) => {
      const returned = await money.credits.markReturned(id);
      if (!returned) throw new AppError(404, 'NO_HELD_DEPOSIT');
      const reference = body?.reference ?? null;
      await recordChange(moduleDb<ResponsibleTables>(database), {
        who: operatorName(request),
        entity: 'held-deposit',
        key: id,
        before: { status: 'HELD' },
        after: { status: 'RETURNED', memberId: returned.memberId, amount: toBaht(returned.amount), currency: returned.currency, reason: body?.reason ?? null, reference },
      });
      return { ok: true as const, id, status: 'RETURNED' as const, reference };
    });
    contractRoute(app, c.memberResponsible, { preHandler: guard }, async ({ params }) => responsible.operatorView(params.id));
    // Lifting or shortening a break: refused to everyone; the try is in the audit.
    const refuseLift = async ({ params: { id }, request }: { params: { id: string }; request: FastifyRequest }): Promise<never> => {
      await recordChange(moduleDb<ResponsibleTables>(database), { who: operatorName(request), entity: 'responsible-break-lift-refused', key: id, before: null, after: { method: request.method, body: request.body ?? null } });
      throw new AppError(403, 'EXCLUSION_CANNOT_BE_LIFTED');
    };
    contractRoute(app, c.memberBreakLift, { preHandler: guard }, refuseLift);
    contractRoute(app, c.memberBreakChange, { preHandler: guard }, refuseLift);
  },
});
