import { z } from 'zod';
import { recordChange } from '../../platform/audit';
import { defineModule } from '../../platform/module';
import { operatorGuard, operatorName } from '../../platform/operator';
import { bangkokDayStart } from './day';

/**
 * The back office's read views, composed from the domains' services (this module has no tables):
 *   GET  /api/operator/dashboard                 — today's money per currency, queues, provider health
 *   GET  /api/operator/members?q&status&page&pageSize&sort — search by id, phone, name, bank account
 *   GET  /api/operator/members/:id               — profile, wallet and game balances, bonus, invites, notes
 *   GET  /api/operator/members/:id/statement?page&limit, /slips?page&limit, /chat?limit&skip
 *   POST /api/operator/members/:id/lock {locked} — lock (no login, sessions end) or unlock; audited
 *   POST /api/operator/members/:id/notes {text}  — a note on the member; audited
 * "Today" is the calendar day in Asia/Bangkok (the service's business day).
 */
export const backofficeModule = defineModule({
  name: 'backoffice',
  routes(app, services) {
    const { config, money, memberDirectory, wallet, statements, bonuses, invites, chat, deposits, sandboxGames, games } = services;
    const guard = operatorGuard(config);

    app.get('/api/operator/dashboard', { preHandler: guard }, async () => {
      const now = new Date();
      const from = bangkokDayStart(now);
      const [totals, activeMembers, withdrawals, slips, unmatched, unread, catalogue] = await Promise.all([
        money.reports.totals(from, now),
        money.reports.activeMembers(from, now),
        money.reports.queue('withdraw', 'PENDING'),
        deposits.slips.pendingSummary(),
        deposits.bank.unmatchedSummary(),
        chat.unreadSummary(),
        games.catalogue(),
      ]);
      return {
        from: from.toISOString(),
        at: now.toISOString(),
        totals,
        activeMembers,
        queues: { withdrawals, slips, unmatched, chats: { count: unread.conversations, messages: unread.messages, oldestAt: unread.oldestAt } },
        sandbox: sandboxGames !== null,
        providers: catalogue.map((g) => ({ code: g.code, mode: sandboxGames ? sandboxGames.fault(g.code).mode : 'live' })),
      };
    });

    const search = z.object({
      q: z.string().max(100).default(''),
      status: z.enum(['active', 'inactive']).optional(),
      page: z.coerce.number().int().min(1).max(100_000).default(1),
      pageSize: z.coerce.number().int().min(1).max(200).default(25),
      sort: z.enum(['createdAt', '-createdAt', 'username', 'name']).default('-createdAt'),
    });
    app.get('/api/operator/members', { preHandler: guard, schema: { querystring: search } }, async (request) => memberDirectory.search(request.query as z.output<typeof search>));

    const idParams = z.object({ id: z.string().min(1).max(64) });
    app.get('/api/operator/members/:id', { preHandler: guard, schema: { params: idParams } }, async (request) => {
      const { id } = request.params as { id: string };
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

    const pageQuery = z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1), limit: z.coerce.number().int().min(1).max(500).default(25) });
    app.get('/api/operator/members/:id/statement', { preHandler: guard, schema: { params: idParams, querystring: pageQuery } }, async (request) => {
      const { id } = request.params as { id: string };
      const { page, limit } = request.query as z.output<typeof pageQuery>;
      await memberDirectory.get(id);
      return statements.statements(id, page, limit);
    });
    app.get('/api/operator/members/:id/slips', { preHandler: guard, schema: { params: idParams, querystring: pageQuery } }, async (request) => {
      const { id } = request.params as { id: string };
      const { page, limit } = request.query as z.output<typeof pageQuery>;
      await memberDirectory.get(id);
      return statements.slips(id, page, limit);
    });
    const chatQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(50), skip: z.coerce.number().int().min(0).max(1_000_000).default(0) });
    app.get('/api/operator/members/:id/chat', { preHandler: guard, schema: { params: idParams, querystring: chatQuery } }, async (request) => {
      const { id } = request.params as { id: string };
      const { limit, skip } = request.query as z.output<typeof chatQuery>;
      await memberDirectory.get(id);
      return chat.memberThread(id, limit, skip);
    });

    app.post('/api/operator/members/:id/lock', { preHandler: guard, schema: { params: idParams, body: z.strictObject({ locked: z.boolean() }) } }, async (request) => {
      const { id } = request.params as { id: string };
      const { locked } = request.body as { locked: boolean };
      const { before, after } = await memberDirectory.setLocked(id, locked);
      await recordChange(services.database.db, { who: operatorName(request), entity: 'member', key: id, before: { status: before.status }, after: { status: after.status } });
      return after;
    });
    app.post('/api/operator/members/:id/notes', { preHandler: guard, schema: { params: idParams, body: z.strictObject({ text: z.string().trim().min(1).max(1000) }) } }, async (request) => {
      const { id } = request.params as { id: string };
      const { text } = request.body as { text: string };
      const note = await memberDirectory.addNote(id, text, operatorName(request));
      await recordChange(services.database.db, { who: operatorName(request), entity: 'member-note', key: id, before: null, after: note });
      return note;
    });
  },
});
