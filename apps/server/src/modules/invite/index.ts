import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { toBaht } from '@mw/contract/money';
import type { DB, DefaultTimestamp } from '../../db/schema';
import { requireMember } from '../../http/handlers';
import { AppError } from '../../lib/errors';
import { KeyTaken } from '../../money/idempotency';
import type { MoneyCore } from '../../money/core';
import { recordChange } from '../../platform/audit';
import { bannersFor, type StoredBanners } from '../../lib/banners';
import { defineModule } from '../../platform/module';
import { bannerSettingRoutes, operatorGuard, operatorName } from '../../platform/operator';
import { payoutConditionCte, payoutConditionData, type BonusService } from '../bonus/bonus-service';
import type { SettingsService } from '../settings/settings-service';

/** What an inviter earned from one deposit of an invitee (once per deposit operation). */
export interface InviteEarningsTable {
  operation_id: string;
  inviter_id: string;
  invitee_id: string;
  amount: number;
  created_at: DefaultTimestamp;
  /** The credit that paid it to the inviter's wallet, once received. */
  paid_operation_id: string | null;
  payout_id: string | null;
}

declare module '../../db/schema' {
  interface DB {
    invite_earnings: InviteEarningsTable;
  }
}

declare module '../../platform/services' {
  interface Services {
    invites: InviteService;
  }
}

/** The invite rule (setting `invite`): percents as numbers, the minimum in satang. */
export interface InviteRules {
  active: boolean;
  /** Percent of each invitee deposit the inviter earns. */
  percent: number;
  /** Smallest amount received at once. */
  minimum: number;
  /**
   * Shown in the receive confirmation (spec: invite success and fail percentages), and the
   * condition the payout opens: turnover of successPercent % of it, bust at failPercent % (see
   * PayoutRule; successPercent 0: no condition).
   */
  successPercent: number;
  failPercent: number;
}

export const DEFAULT_INVITE_RULES: InviteRules = { active: true, percent: 1, minimum: 100, successPercent: 100, failPercent: 0 };

/**
 * Invite a friend: invitees are members who registered with the inviter's code (`PR` + `_id`).
 * The inviter earns `percent` of each successful deposit of each invitee (the qualifying activity
 * is deposits), accrued once per deposit operation when the inviter's wallet or invite list is
 * read. Nothing is earned when the invitee is the inviter's own inviter (a loop A ⇄ B) or holds
 * a bank account under the same name as the inviter (the same person twice). `GET
 * /api/invite/bonus` pays what was accrued and not received yet into the wallet, once (a `bonus`
 * row "from" INVITE), under a turnover condition opened in the same statement (BONUS_REMAINING
 * while another condition is open): NO_INVITE_BONUS when there is nothing, INVITE_INACTIVE when invites are off,
 * INVITE_COLLECT under the minimum, NO_INVITEE_PLAY_INFO when no invitee has deposited yet.
 */
export class InviteService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly money: MoneyCore,
    private readonly settings: SettingsService,
    private readonly bonuses: BonusService,
  ) {
    money.credits.registerHook('invite_paid', (name, rows) =>
      sql`${sql.ref(name)} AS (
        UPDATE invite_earnings e SET paid_operation_id = u.op_id
        FROM unnest(${rows.ids}::text[], ${rows.operationIds}::text[]) AS u(payout, op_id)
        JOIN op ON op.id = u.op_id
        WHERE e.payout_id = u.payout AND e.paid_operation_id IS NULL),
      ${payoutConditionCte(`${name}_condition`, 'invite', rows)}`,
    );
  }

  async rules(): Promise<InviteRules> {
    return { ...DEFAULT_INVITE_RULES, ...(await this.settings.get<Partial<InviteRules>>('invite', {})) };
  }

  /** Writes the inviter's earnings from invitees' deposits not counted yet (idempotent, safe at once). */
  async accrue(inviterId: string, rules: InviteRules): Promise<void> {
    if (!rules.active || rules.percent <= 0) return;
    await sql`
      INSERT INTO invite_earnings (operation_id, inviter_id, invitee_id, amount)
      SELECT o.id, inviter.id, invitee.id, floor(o.amount * ${rules.percent}::numeric / 100)::bigint
      FROM members invitee
      JOIN members inviter ON inviter.id = invitee.inviter_id
      JOIN operations o ON o.member_id = invitee.id AND o.type = 'deposit' AND o.status = 'SUCCESS'
      WHERE inviter.id = ${inviterId}
        AND invitee.id <> inviter.id
        AND (inviter.inviter_id IS NULL OR inviter.inviter_id <> invitee.id)
        AND upper(invitee.bank_account_name) <> upper(inviter.bank_account_name)
        AND o.created_at >= invitee.created_at
        AND floor(o.amount * ${rules.percent}::numeric / 100) > 0
        AND NOT EXISTS (SELECT 1 FROM invite_earnings e WHERE e.operation_id = o.id)
      ON CONFLICT (operation_id) DO NOTHING`.execute(this.db);
  }

  private async unpaid(inviterId: string): Promise<number> {
    const row = await this.db
      .selectFrom('invite_earnings')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount'), sql<string>`0`).as('n'))
      .where('inviter_id', '=', inviterId)
      .where('payout_id', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The wallet's invite fields: what can be received now, and the confirmation's percentages. */
  async summary(memberId: string): Promise<{ amount: number; success: number; fail: number }> {
    const rules = await this.rules();
    await this.accrue(memberId, rules);
    return { amount: rules.active ? toBaht(await this.unpaid(memberId)) : 0, success: rules.successPercent, fail: rules.failPercent };
  }

  async list(memberId: string, page: number, limit: number): Promise<{ total: number; invites: Array<{ from: { name: string }; amount: number; createdAt: string }> }> {
    await this.accrue(memberId, await this.rules());
    const [count, rows] = await Promise.all([
      this.db.selectFrom('invite_earnings').select((eb) => eb.fn.countAll<string>().as('n')).where('inviter_id', '=', memberId).executeTakeFirstOrThrow(),
      this.db
        .selectFrom('invite_earnings')
        .innerJoin('members', 'members.id', 'invite_earnings.invitee_id')
        .select(['members.name', 'invite_earnings.amount', 'invite_earnings.created_at'])
        .where('invite_earnings.inviter_id', '=', memberId)
        .orderBy('invite_earnings.created_at', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute(),
    ]);
    return { total: Number(count.n), invites: rows.map((r) => ({ from: { name: r.name }, amount: toBaht(Number(r.amount)), createdAt: r.created_at.toISOString() })) };
  }

  /** Pays the accrued earnings into the wallet, once: the earnings are claimed by a payout id, then credited with it as the key. */
  async receive(memberId: string): Promise<{ message: 'INVITE_BONUS_SUCCESS'; amount: number; wallet: { amount: number } }> {
    const rules = await this.rules();
    if (!rules.active) throw new AppError(403, 'INVITE_INACTIVE');
    await this.accrue(memberId, rules);
    const payoutId = `${memberId}:${Date.now()}:${Math.random().toString(36).slice(2, 10)}`;
    const due = await this.unpaid(memberId);
    if (due === 0) {
      // Friends who have not deposited yet, or nothing left to receive.
      const [invitee, earned] = await Promise.all([
        this.db.selectFrom('members').select('id').where('inviter_id', '=', memberId).executeTakeFirst(),
        this.db.selectFrom('invite_earnings').select('operation_id').where('inviter_id', '=', memberId).executeTakeFirst(),
      ]);
      throw new AppError(404, invitee && !earned ? 'NO_INVITEE_PLAY_INFO' : 'NO_INVITE_BONUS');
    }
    if (due < rules.minimum) throw new AppError(400, 'INVITE_COLLECT', { minimum: toBaht(rules.minimum) });
    await this.bonuses.settle(memberId);
    if (await this.bonuses.active(memberId)) throw new AppError(409, 'BONUS_REMAINING');
    const claimed = await sql<{ amount: string }>`
      WITH taken AS (
        UPDATE invite_earnings SET payout_id = ${payoutId} WHERE inviter_id = ${memberId} AND payout_id IS NULL RETURNING amount)
      SELECT coalesce(sum(amount), 0)::text AS amount FROM taken`.execute(this.db);
    const amount = Number(claimed.rows[0]?.amount ?? 0);
    if (amount === 0) throw new AppError(409, 'NO_INVITE_BONUS');
    let credit;
    try {
      credit = await this.money.credits.credit({ source: 'invite', ref: payoutId, memberId, amount, currency: 'THB', kind: 'invite', from: 'INVITE', note: null, tag: { hook: 'invite_paid', id: payoutId, data: payoutConditionData(memberId, amount, rules) } });
    } catch (error) {
      // Another condition opened meanwhile (one per member): nothing was credited; give the earnings back.
      await this.db.updateTable('invite_earnings').set({ payout_id: null }).where('payout_id', '=', payoutId).where('paid_operation_id', 'is', null).execute();
      if (error instanceof KeyTaken) throw new AppError(409, 'BONUS_REMAINING');
      throw error;
    }
    if (!credit.created) throw new AppError(409, 'INVITE_BONUS_FAIL');
    return { message: 'INVITE_BONUS_SUCCESS', amount: toBaht(amount), wallet: { amount: toBaht(credit.wallet ?? 0) } };
  }

  /** Payouts claimed but not credited (a crash between the two): credited now, with the same key. */
  async settleClaimed(): Promise<void> {
    const open = await this.db
      .selectFrom('invite_earnings')
      .select(['payout_id', 'inviter_id', (eb) => eb.fn.sum<string>('amount').as('amount')])
      .where('payout_id', 'is not', null)
      .where('paid_operation_id', 'is', null)
      .where('created_at', '<', new Date(Date.now() - 60_000))
      .groupBy(['payout_id', 'inviter_id'])
      .limit(100)
      .execute();
    const rules = await this.rules();
    for (const p of open) {
      if (!p.payout_id) continue;
      const amount = Number(p.amount);
      try {
        await this.money.credits.credit({ source: 'invite', ref: p.payout_id, memberId: p.inviter_id, amount, currency: 'THB', kind: 'invite', from: 'INVITE', note: null, tag: { hook: 'invite_paid', id: p.payout_id, data: payoutConditionData(p.inviter_id, amount, rules) } });
      } catch (error) {
        // A condition is open now: the claim is given back, to be received again later.
        if (!(error instanceof KeyTaken)) throw error;
        await this.db.updateTable('invite_earnings').set({ payout_id: null }).where('payout_id', '=', p.payout_id).where('paid_operation_id', 'is', null).execute();
      }
    }
  }
}

const rulesBody = z.strictObject({
  active: z.boolean(),
  percent: z.number().min(0).max(100),
  minimum: z.number().int().min(1).max(100_000_000),
  successPercent: z.number().min(0).max(10_000),
  failPercent: z.number().min(0).max(100),
});

/** Invite a friend (spec sections 2, 3, 7, 8). Operator: GET/PUT /api/operator/invite-settings. */
export const inviteModule = defineModule({
  name: 'invite',
  migrations: [
    {
      id: 'invite/001_invite_earnings',
      sql: `
CREATE TABLE invite_earnings (
  operation_id text PRIMARY KEY,
  inviter_id text NOT NULL REFERENCES members(id),
  invitee_id text NOT NULL REFERENCES members(id),
  amount bigint NOT NULL CHECK (amount > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  payout_id text,
  paid_operation_id text
);
CREATE INDEX invite_earnings_inviter ON invite_earnings (inviter_id, created_at DESC);`,
    },
  ],
  setup(services) {
    services.invites = new InviteService(services.database.db, services.money, services.settings, services.bonuses);
    const invites = services.invites;
    services.wallet.setInviteSummary((memberId) => invites.summary(memberId));
  },
  handlers: ({ invites, settings }) => ({
    inviteList: async (ctx) => invites.list(requireMember(ctx).memberId, ctx.body.page, ctx.body.limit),
    inviteBonus: async (ctx) => invites.receive(requireMember(ctx).memberId),
    inviteBanners: async (ctx) => bannersFor(await settings.get<StoredBanners>('inviteBanners', []), ctx.locale),
  }),
  routes(app, services) {
    const { config, invites, settings, database } = services;
    bannerSettingRoutes(app, services, 'invite');
    const guard = operatorGuard(config);
    app.get('/api/operator/invite-settings', { preHandler: guard }, async () => invites.rules());
    app.put('/api/operator/invite-settings', { preHandler: guard, schema: { body: rulesBody } }, async (request) => {
      const before = await invites.rules();
      await settings.set('invite', request.body as InviteRules);
      const after = await invites.rules();
      await recordChange(database.db, { who: operatorName(request), entity: 'invite', key: 'rules', before, after });
      return after;
    });
  },
  start({ invites }, log) {
    const timer = setInterval(() => void invites.settleClaimed().catch((error: unknown) => log.warn({ err: error }, 'invite settle failed')), 60_000);
    timer.unref();
    return () => clearInterval(timer);
  },
});
