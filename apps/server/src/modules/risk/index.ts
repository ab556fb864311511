import { riskOperatorCalls as calls } from '@mw/contract/operator/risk';
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
    contractRoute(app, calls.riskRulesPut, { preHandler }, async ({ body, request }) => {
      const before = await risk.rules.get();
      await risk.rules.set(body);
      await recordChange(moduleDb<RiskTables>(services.database), { who: operatorName(request), entity: 'setting', key: 'riskRules', before, after: body });
      return risk.rules.get();
    });
  },
});
