import { adminEndpoints } from '@mw/contract/admin';
import { backofficeOperatorCalls as calls } from '@mw/contract/operator/backoffice';
import { contractRoute } from '../../http/contract-route';
import { readAudit, recordChange } from '../../platform/audit';
import { withSubjects, type SubjectSources } from './audit-subjects';
import { defineModule } from '../../platform/module';
import { operatorGuard, operatorName } from '../../platform/operator';
import { bangkokDayStart } from './day';
import { moduleDb } from '../../db/database';
import type { AuditTables } from '../../platform/audit';

/**
 * The back office's read views, composed from the domains' services (this module has no tables):
 *   GET  /api/operator/dashboard                 — today's money per currency, queues, provider health
 *   GET  /api/operator/members?q&status&page&pageSize&sort — search by id, phone, name, bank account
 *   GET  /api/operator/members/:id               — profile, wallet and game balances, bonus, invites, notes
 *   GET  /api/operator/members/:id/statement?page&limit, /slips?page&limit, /chat?limit&skip
 *   POST /api/operator/members/:id/lock {locked} — lock (no login, sessions end) or unlock; audited
 *   POST /api/operator/members/:id/notes {text}  — a note on the member; audited
 *   PUT  /api/operator/members/:id/tags {tags}   — the member's tags (vip, watch, …); audited
 * "Today" is the calendar day in Asia/Bangkok (the service's business day).
 */
export const backofficeModule = defineModule({
  name: 'backoffice',
  routes(app, services) {
    // The audit log is the platform's: read and written through its functions.
    const audit = moduleDb<AuditTables>(services.database);
    const { config, money, memberDirectory, wallet, statements, bonuses, invites, chat, deposits, sandboxGames, games } = services;
    const guard = operatorGuard(config);

    const preHandler = guard;
    contractRoute(app, calls.dashboard, { preHandler }, async () => {
      const now = new Date();
      const from = bangkokDayStart(now);
      const [totals, activeMembers, withdrawals, slips, unmatched, unread, catalogue, faults] = await Promise.all([
        money.reports.totals(from, now),
        money.reports.activeMembers(from, now),
        money.reports.queue('withdraw', 'PENDING'),
        deposits.slips.pendingSummary(),
        deposits.bank.unmatchedSummary(),
        chat.unreadSummary(),
        games.catalogue(),
        // The sandbox service's faults; a sandbox that does not answer has every game down.
        sandboxGames ? sandboxGames.faults().catch(() => null) : null,
      ]);
      return {
        from: from.toISOString(),
        at: now.toISOString(),
        totals,
        activeMembers,
        queues: { withdrawals, slips, unmatched, chats: { count: unread.conversations, messages: unread.messages, oldestAt: unread.oldestAt } },
        sandbox: sandboxGames !== null,
        providers: catalogue.map((g) => ({ code: g.code, mode: sandboxGames ? (faults ? (faults.get(g.code) ?? faults.get('*') ?? 'none') : ('down' as const)) : ('live' as const) })),
      };
    });

    contractRoute(app, calls.membersSearch, { preHandler }, async ({ query }) => memberDirectory.search(query));

    // The audit log, each entry with what its sentence names (member's phone, amount, currency), read from the owning domains.
    const { payouts, approvals, accounts } = services;
    const sources: SubjectSources = {
      withdrawal: (id) => payouts.get(id),
      approval: (id) => approvals.get(id),
      unmatchedDeposit: (id) => deposits.bank.unmatchedById(id),
      phones: async (ids) => new Map([...(await accounts.contacts(ids))].map(([id, c]) => [id, c.username])),
    };
    contractRoute(app, adminEndpoints.operatorAudit, { preHandler }, async ({ query }) => {
      // A member's phone filters like their id: any phone as members sign in with it, Thai or Lao
      // (digits only; a member's id is 24 hexadecimal characters, so the two never meet).
      const member = query.member && /^\d{8,13}$/.test(query.member) ? ((await accounts.findByPhone(query.member))?.id ?? query.member) : query.member;
      const page = await readAudit(audit, { ...query, member });
      return { ...page, rows: await withSubjects(page.rows, sources) };
    });

    contractRoute(app, calls.memberGet, { preHandler }, async ({ params: { id } }) => {
      const member = await memberDirectory.get(id);
      const [walletView, bonus, progress, inviteSummary, invited, notes] = await Promise.all([
        wallet.wallet(id),
        bonuses.active(id),
        bonuses.progress(id),
        invites.summary(id),
        memberDirectory.invited(id),
        memberDirectory.notes(id),
      ]);
      const inviter = member.inviterId ? await memberDirectory.get(member.inviterId).catch(() => null) : null;
      return {
        member,
        wallet: walletView.wallet,
        coin: walletView.profile.coin,
        games: walletView.slots,
        bonus: bonus ? { ...bonus, progress } : null,
        invite: { ...inviteSummary, inviter: inviter ? { id: inviter.id, username: inviter.username, name: inviter.name } : null, invited: invited.map((m) => ({ id: m.id, username: m.username, name: m.name, createdAt: m.createdAt })) },
        notes,
      };
    });

    contractRoute(app, calls.memberStatement, { preHandler }, async ({ params: { id }, query: { page, limit } }) => {
      await memberDirectory.get(id);
      return statements.statements(id, page, limit);
    });
    contractRoute(app, calls.memberSlips, { preHandler }, async ({ params: { id }, query: { page, limit } }) => {
      await memberDirectory.get(id);
      return services.slipHistory.slips(id, page, limit);
    });
    contractRoute(app, calls.memberChat, { preHandler }, async ({ params: { id }, query: { limit, skip } }) => {
      await memberDirectory.get(id);
      return chat.memberThread(id, limit, skip);
    });

    contractRoute(app, calls.memberLock, { preHandler }, async ({ params: { id }, body: { locked }, request }) => {
      const { before, after } = await memberDirectory.setLocked(id, locked);
      await recordChange(audit, { who: operatorName(request), entity: 'member', key: id, before: { status: before.status }, after: { status: after.status } });
      return after;
    });
    contractRoute(app, calls.memberNoteAdd, { preHandler }, async ({ params: { id }, body: { text }, request }) => {
      const note = await memberDirectory.addNote(id, text, operatorName(request));
      await recordChange(audit, { who: operatorName(request), entity: 'member-note', key: id, before: null, after: note });
      return note;
    });
    contractRoute(app, calls.memberTagsPut, { preHandler }, async ({ params: { id }, body: { tags }, request }) => {
      const { before, after } = await memberDirectory.setTags(id, tags, operatorName(request));
      await recordChange(audit, { who: operatorName(request), entity: 'member-tags', key: id, before: { tags: before }, after: { tags: after } });
      return { id, tags: after };
    });
  },
});
