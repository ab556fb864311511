import { z } from 'zod';
import { riskOperatorCalls as calls, riskRulesSchema, type RiskRules } from '@mw/contract/operator/risk';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { idempotencyOf } from '../../money';
import { contractRoute } from '../../http/contract-route';
import { recordChange } from '../../platform/audit';
import { defineModule } from '../../platform/module';
import { operatorGuard, operatorName } from '../../platform/operator';
import { FlagStore, type RiskMember } from './flag-store';
import { RiskRulesStore } from './risk-rules';
import { RiskService } from './risk-service';
import { riskMigrations } from './tables';
import { moduleDb } from '../../db/database';
import type { RiskTables } from './tables';

declare module '../../platform/services' {
  interface Services {
    /** Risk signals: events of registrations, logins, bonus claims and withdrawals, and the flags raised on them. */
    risk: RiskService;
  }
}

/**
 * Risk flags (issue 34), its own tables (risk_events, risk_flags). The member-facing domains
 * report what happened and from which device and address; flags never block a player. A member
 * with an open flag has every payout reviewed by a second person (four eyes). Operator calls:
 *   GET  /api/operator/risk/flags?status=open|resolved|dismissed|all&kind&memberId&page&limit
 *   POST /api/operator/risk/flags/:id/resolve {note} — the flag was real and is dealt with
 *   POST /api/operator/risk/flags/:id/dismiss {note} — it was no problem
 *   GET  /api/operator/risk/rules, PUT /api/operator/risk/rules (owner; audited)
 */
export const riskModule = defineModule({
  name: 'risk',
  migrations: riskMigrations,
  setup(services) {
    const db = moduleDb<RiskTables>(services.database);
    const memberOf = async (id: string): Promise<RiskMember | null> => {
      const m = await services.memberDirectory.get(id).catch(() => null);
      return m ? { id: m.id, username: m.username, name: m.name, bankCode: m.bankCode, bankAccountNo: m.bankAccountNo, bankAccountName: m.bankAccountName, status: m.status, createdAt: m.createdAt } : null;
    };
    services.risk = new RiskService(db, new RiskRulesStore(() => services.settings), new FlagStore(db, memberOf));
    // Four eyes: a payout of a member with an open flag waits for a second person, whatever its amount.
    const risk = services.risk;
    services.approvals.reviewsBy((memberId) => risk.hasOpenFlag(memberId));
  },
  routes(app, services) {
    const { config, risk } = services;
    // Read at call time: each source's module is set up by now (and a build without one, in tests, fails only that signal).
    risk.connect(
      {
        memberByPhone: async (phone) => (await services.accounts.findByPhone(phone))?.id ?? null,
        lastDeposit: (memberId) => services.statements.lastDeposit(memberId),
        stakesSince: async (memberId, from) => (await services.activity.totals(memberId, from, null, null)).stakes,
      },
      app.log,
    );
    const preHandler = operatorGuard(config);
    contractRoute(app, calls.riskFlagsList, { preHandler }, async ({ query }) => risk.flags.list(query));
    for (const [def, status] of [
      [calls.riskFlagResolve, 'resolved'],
      [calls.riskFlagDismiss, 'dismissed'],
    ] as const) {
      contractRoute(app, def, { preHandler }, async ({ params: { id }, body, request }) => {
        const who = operatorName(request);
        const { before, after } = await risk.flags.decide(id, status, body?.note, who);
        await recordChange(moduleDb<RiskTables>(services.database), { who, entity: 'risk-flag', key: id, before: { status: before.status, kind: before.kind, memberIds: before.memberIds }, after: { status: after.status, note: after.note } });
        return after;
      });
    }
    contractRoute(app, calls.riskRulesGet, { preHandler }, async () => risk.rules.get());
    const db = moduleDb<RiskTables>(services.database);
    // A rule loosened (a signal switched off or made harder to raise) weakens the control over
    // money itself: a second person applies it, over the rules as they were when asked.
    services.approvals.register('risk.rules', async (payload, who) => {
      const { before, after } = z.object({ before: riskRulesSchema, after: riskRulesSchema }).parse(payload);
      const now = await risk.rules.get();
      if (changesOf(now, after).length === 0) return now;
      if (changesOf(now, before).length > 0) throw new AppError(422, 'CHANGED_SINCE_REQUEST');
      await risk.rules.set(after);
      await recordChange(db, { who, entity: 'setting', key: 'riskRules', before: now, after });
      return risk.rules.get();
    });
    contractRoute(app, calls.riskRulesPut, { preHandler }, async ({ body, request, reply }) => {
      const before = await risk.rules.get();
      const changes = changesOf(before, body);
      if (changes.some((change) => loosens(change.field, change.before, change.after))) {
        const idem = idempotencyOf(request.headers['idempotency-key'], 'risk.rules', request.body);
        const asked = await services.approvals.request({ action: 'risk.rules', dedupeKey: `risk.rules:${idem?.key ?? newId()}`, requestHash: idem?.hash ?? '', payload: { target: 'riskRules', before, after: body, changes }, memberId: null, amount: 0, currency: 'THB', maker: operatorName(request) });
        return 'approvalId' in asked ? reply.status(202).send(asked) : reply.status(asked.status).send(asked.body);
      }
      await risk.rules.set(body);
      await recordChange(db, { who: operatorName(request), entity: 'setting', key: 'riskRules', before, after: body });
      return risk.rules.get();
    });
  },
});

type RuleValue = RiskRules[keyof RiskRules];

/** The rules that differ, each before and after. */
function changesOf(before: RiskRules, after: RiskRules): Array<{ field: keyof RiskRules; before: RuleValue; after: RuleValue }> {
  return (Object.keys(after) as Array<keyof RiskRules>).filter((field) => before[field] !== after[field]).map((field) => ({ field, before: before[field], after: after[field] }));
}

/**
 * Whether a change makes a signal weaker: a check switched off; a count that raises a flag made
 * larger, or 0 (off); the turnover percent or a time window made smaller (fewer withdrawals
 * reviewed; repeats spread over a shorter time go unseen).
 */
function loosens(field: keyof RiskRules, before: RuleValue, after: RuleValue): boolean {
  if (typeof before === 'boolean') return before && !after;
  const was = Number(before);
  const now = Number(after);
  if (field === 'sameDeviceRegistrations' || field === 'sameAddressRegistrations' || field === 'failedLogins') return was !== 0 && (now === 0 || now > was);
  return now < was;
}
