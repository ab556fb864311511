import { sql, type Kysely, type Selectable } from 'kysely';
import { toBaht } from '@mw/contract/money';
import { LIMIT_INCREASE_DELAY_HOURS, LIMIT_PERIODS, type LimitPeriod, type ResponsibleState } from '@mw/contract/responsible';
import { Batcher } from '../../lib/batcher';
import { AppError } from '../../lib/errors';
import type { MoneyCore } from '../../money';
import { creditedSince, moneySince } from '../../money';
import { ledgerCurrency, type Currency } from '../../money';
import type { DepositRules, IncomingRefusal, MoneyIncoming } from '../../money';
import type { SessionService } from '../account/session-service';
import type { AccountService } from '../account/account-service';
import type { GameActivity } from '../activity';
import type { ResponsibleSettingsTable, ResponsibleTables } from './tables';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The rolling windows of the limits: 24 hours, 7 days, 30 days. */
export const WINDOWS: Record<LimitPeriod, number> = { day: DAY, week: 7 * DAY, month: 30 * DAY };
const COLUMN = { day: 'day_limit', week: 'week_limit', month: 'month_limit' } as const;

type Settings = Selectable<ResponsibleSettingsTable>;
type Limits = Record<LimitPeriod, number | null>;

/** A break in force: which one, and when it ends. Self-exclusion wins over a time-out. */
export interface ActiveBreak {
  code: 'SELF_EXCLUDED' | 'TIME_OUT';
  until: Date;
}

/** `months` calendar months after `at` (UTC; the 31st into a shorter month ends on its last day). */
function addMonths(at: number, months: number): Date {
  const d = new Date(at);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/**
 * Responsible play (issue 22). Rules chosen where the issue is silent are in README
 * "Responsible play"; in short:
 * - limits are per member in the member's currency (minor units), rolling 24 h / 7 d / 30 d of
 *   deposits credited (the money core's `credited_at`, by the money core's clock: the sandbox clock
 *   moves the windows); the lowest room left applies; a limit of 0 stops every deposit;
 * - a new or lower limit applies at once (and drops a pending raise of it); a raise or a removal
 *   waits 24 h as pending (a second raise restarts the wait; cancellable); due pending changes apply
 *   when next read;
 * - breaks: a time-out (days) or self-exclusion (months) from now; a break that would end before
 *   one in force is refused (BREAK_ALREADY_LONGER): nothing shortens one, and nobody lifts one;
 *   every session of the member ends when one starts.
 */
export class ResponsibleService implements DepositRules {
  /**
   * The breaks of the members whose calls the route layer checks (`assertNoBreak`, on every money
   * call), read in one statement for all the calls that wait while one read runs (Batcher): a read
   * starts after its call arrived, so it sees every break set before.
   */
  private readonly breaks = new Batcher<string, Pick<Settings, 'time_out_until' | 'self_excluded_until'> | undefined>(
    async (memberIds) => {
      const rows = await this.db
        .selectFrom('responsible_settings')
        .select(['member_id', 'time_out_until', 'self_excluded_until'])
        .where(sql<boolean>`member_id = ANY(${[...new Set(memberIds)]}::text[])`)
        .execute();
      const byMember = new Map(rows.map((r) => [r.member_id, r]));
      return memberIds.map((id) => ({ ok: true, value: byMember.get(id) }));
    },
    { maxBatch: 256, concurrency: 2 },
  );

  /** Per session: the member's breaks as last read, and when (wall clock, ms). */
  private readonly breaksBySession = new Map<string, { at: number; value: Pick<Settings, 'time_out_until' | 'self_excluded_until'> | undefined }>();

  private async breaksOf(memberId: string, sessionId: string | undefined): Promise<Pick<Settings, 'time_out_until' | 'self_excluded_until'> | undefined> {
    const keep = this.sessions.cacheMs;
    if (!sessionId || keep <= 0) return this.breaks.submit(memberId);
    const at = Date.now();
    const kept = this.breaksBySession.get(sessionId);
    if (kept && at - kept.at < keep) return kept.value;
    const value = await this.breaks.submit(memberId);
    if (this.breaksBySession.size > 100_000) this.breaksBySession.clear();
    this.breaksBySession.set(sessionId, { at, value });
    return value;
  }

  constructor(
    private readonly db: Kysely<ResponsibleTables>,
    private readonly money: MoneyCore,
    private readonly sessions: SessionService,
    private readonly accounts: AccountService,
    private readonly activity: GameActivity,
    private readonly now: () => number,
  ) {}

  private async settings(memberId: string, db: Kysely<ResponsibleTables> = this.db): Promise<Settings | undefined> {
    return db.selectFrom('responsible_settings').selectAll().where('member_id', '=', memberId).executeTakeFirst();
  }

  private async ensureRow(memberId: string): Promise<void> {
    await this.db.insertInto('responsible_settings').values({ member_id: memberId }).onConflict((oc) => oc.column('member_id').doNothing()).execute();
  }

  /** Pending changes whose 24 hours have passed become the limits (read-time promotion); answers the pending left. */
  private async promoteDue(memberId: string, db: Kysely<ResponsibleTables> = this.db): Promise<Array<Selectable<ResponsibleTables['responsible_pending']>>> {
    const pending = await db.selectFrom('responsible_pending').selectAll().where('member_id', '=', memberId).execute();
    const now = this.now();
    const due = pending.filter((p) => p.effective_at.getTime() <= now);
    for (const p of due) {
      await db.updateTable('responsible_settings').set({ [COLUMN[p.period]]: p.amount === null ? null : Number(p.amount), updated_at: new Date() }).where('member_id', '=', memberId).execute();
      await db.deleteFrom('responsible_pending').where('member_id', '=', memberId).where('period', '=', p.period).where('effective_at', '=', p.effective_at).execute();
    }
    return pending.filter((p) => p.effective_at.getTime() > now);
  }

  /** The limits in force now: the stored ones with due pending changes applied (without writing). */
  private async limitsInForce(memberId: string, db: Kysely<ResponsibleTables>): Promise<{ limits: Limits; settings: Settings | undefined }> {
    const [settings, pending] = await Promise.all([this.settings(memberId, db), db.selectFrom('responsible_pending').selectAll().where('member_id', '=', memberId).execute()]);
    const limits: Limits = { day: settings?.day_limit ?? null, week: settings?.week_limit ?? null, month: settings?.month_limit ?? null };
    for (const p of pending) if (p.effective_at.getTime() <= this.now()) limits[p.period] = p.amount === null ? null : Number(p.amount);
    for (const period of LIMIT_PERIODS) if (limits[period] !== null) limits[period] = Number(limits[period]);
    return { limits, settings };
  }

  /** The break in force for these settings, if any. */
  breakOf(settings: Pick<Settings, 'time_out_until' | 'self_excluded_until'> | undefined): ActiveBreak | null {
    const now = this.now();
    if (settings?.self_excluded_until && settings.self_excluded_until.getTime() > now) return { code: 'SELF_EXCLUDED', until: settings.self_excluded_until };
    if (settings?.time_out_until && settings.time_out_until.getTime() > now) return { code: 'TIME_OUT', until: settings.time_out_until };
    return null;
  }

  /**
   * The route layer's check of calls refused during a break: 403 SELF_EXCLUDED / TIME_OUT {until}.
   * With the caller's session, the breaks read are kept for that session as long as the session
   * service keeps a checked token (SESSION_CACHE_MS): a break that starts revokes every session of
   * the member (`takeBreak`), so a session whose kept read could be out of date no longer
   * authenticates — the same bound as the token's own cache, and no read per money call.
   */
  async assertNoBreak(memberId: string, sessionId?: string): Promise<void> {
    const active = this.breakOf(await this.breaksOf(memberId, sessionId));
    if (active) throw new AppError(403, active.code, { until: active.until.toISOString() });
  }

  private async used(memberId: string, db: Kysely<ResponsibleTables>): Promise<Record<LimitPeriod, number>> {
    const now = this.now();
    const [day, week, month] = await creditedSince(db, memberId, LIMIT_PERIODS.map((p) => new Date(now - WINDOWS[p])));
    return { day: day ?? 0, week: week ?? 0, month: month ?? 0 };
  }

  // DepositRules (the money core asks these for every deposit path).

  async applies(memberId: string): Promise<boolean> {
    const [settings, pending] = await Promise.all([
      this.settings(memberId),
      this.db.selectFrom('responsible_pending').select('period').where('member_id', '=', memberId).where('amount', 'is not', null).executeTakeFirst(),
    ]);
    if (!settings) return false;
    return settings.day_limit !== null || settings.week_limit !== null || settings.month_limit !== null || pending !== undefined || this.breakOf(settings) !== null;
  }

  async refusal(db: Kysely<ResponsibleTables>, incoming: MoneyIncoming): Promise<IncomingRefusal | null> {
    const { limits, settings } = await this.limitsInForce(incoming.memberId, db);
    const active = this.breakOf(settings);
    if (active) return { code: active.code, extra: { until: active.until.toISOString() } };
    if (LIMIT_PERIODS.every((p) => limits[p] === null)) return null;
    const used = await this.used(incoming.memberId, db);
    const asked = incoming.asked ?? 0;
    let tightest: { period: LimitPeriod; left: number; limit: number } | null = null;
    for (const period of LIMIT_PERIODS) {
      const limit = limits[period];
      if (limit === null) continue;
      const left = Math.max(0, limit - used[period] - asked);
      if (!tightest || left < tightest.left) tightest = { period, left, limit };
    }
    if (!tightest || incoming.amount <= tightest.left) return null;
    return { code: 'DEPOSIT_LIMIT', extra: { left: toBaht(tightest.left), period: tightest.period, limit: toBaht(tightest.limit) } };
  }

  // The member's calls.

  async state(memberId: string, sessionId: string | null): Promise<ResponsibleState> {
    await this.ensureRow(memberId);
    const pending = await this.promoteDue(memberId);
    const [{ limits, settings }, used, currency, held, startedAt] = await Promise.all([
      this.limitsInForce(memberId, this.db),
      this.used(memberId, this.db),
      this.currencyOf(memberId),
      this.money.credits.held({ memberId, status: 'ALL' }),
      sessionId ? this.sessions.startedAt(sessionId) : Promise.resolve(null),
    ]);
    const since = startedAt ?? new Date(this.now());
    const [money, play] = await Promise.all([moneySince(this.db, memberId, since), this.activity.totals(memberId, since, null, null)]);
    const left = (period: LimitPeriod) => {
      const limit = limits[period];
      return limit === null ? null : toBaht(Math.max(0, limit - used[period]));
    };
    const baht = (limit: number | null) => (limit === null ? null : toBaht(limit));
    return {
      limits: { day: baht(limits.day), week: baht(limits.week), month: baht(limits.month) },
      pending: pending
        .sort((a, b) => LIMIT_PERIODS.indexOf(a.period) - LIMIT_PERIODS.indexOf(b.period))
        .map((p) => ({ period: p.period, amount: p.amount === null ? null : toBaht(Number(p.amount)), requestedAt: p.requested_at.toISOString(), effectiveAt: p.effective_at.toISOString() })),
      used: { day: toBaht(used.day), week: toBaht(used.week), month: toBaht(used.month) },
      left: { day: left('day'), week: left('week'), month: left('month') },
      currency,
      timeOutUntil: settings?.time_out_until && settings.time_out_until.getTime() > this.now() ? settings.time_out_until.toISOString() : null,
      selfExcludedUntil: settings?.self_excluded_until && settings.self_excluded_until.getTime() > this.now() ? settings.self_excluded_until.toISOString() : null,
      realityCheckMinutes: settings?.reality_check_minutes ?? 0,
      held: held
        .reverse()
        .map((h) => ({ id: h.operationId, amount: toBaht(h.amount), from: h.from, reason: h.reason, status: h.status === 'HELD' ? ('HELD' as const) : ('RETURNED' as const), receivedAt: h.receivedAt.toISOString() })),
      session: { startedAt: since.toISOString(), deposits: toBaht(money.deposits), withdrawals: toBaht(money.withdrawals), gameResult: toBaht(play.wins - play.stakes) },
      now: new Date(this.now()).toISOString(),
    };
  }

  private async currencyOf(memberId: string): Promise<Currency> {
    const member = await this.accounts.findById(memberId);
    return ledgerCurrency(member?.currency ?? 'BAHT');
  }

  /** Sets limits (minor units; null: none; a period not given is left as it is): lower or new at once, higher or removed after 24 h. */
  async setLimits(memberId: string, wanted: Partial<Limits>, sessionId: string | null): Promise<ResponsibleState> {
    await this.ensureRow(memberId);
    await this.db.transaction().execute(async (trx) => {
      // The member's deposit decisions wait (a lower limit applies to the next deposit, not one half-decided).
      await this.money.lockDeposits(trx, memberId);
      await this.promoteDue(memberId, trx);
      const current = await this.settings(memberId, trx);
      const now = this.now();
      for (const period of LIMIT_PERIODS) {
        if (!(period in wanted) || wanted[period] === undefined) continue;
        const next = wanted[period] ?? null;
        const inForce = current?.[COLUMN[period]] ?? null;
        const inForceAmount = inForce === null ? null : Number(inForce);
        if (next !== null && (inForceAmount === null || next <= inForceAmount)) {
          await trx.updateTable('responsible_settings').set({ [COLUMN[period]]: next, updated_at: new Date() }).where('member_id', '=', memberId).execute();
          await trx.deleteFrom('responsible_pending').where('member_id', '=', memberId).where('period', '=', period).execute();
        } else if (next === inForceAmount) {
          await trx.deleteFrom('responsible_pending').where('member_id', '=', memberId).where('period', '=', period).execute();
        } else {
          const change = { member_id: memberId, period, amount: next, requested_at: new Date(now), effective_at: new Date(now + LIMIT_INCREASE_DELAY_HOURS * HOUR) };
          await trx
            .insertInto('responsible_pending')
            .values(change)
            .onConflict((oc) => oc.columns(['member_id', 'period']).doUpdateSet({ amount: next, requested_at: change.requested_at, effective_at: change.effective_at }))
            .execute();
        }
      }
    });
    return this.state(memberId, sessionId);
  }

  async cancelPending(memberId: string, period: LimitPeriod, sessionId: string | null): Promise<ResponsibleState> {
    await this.promoteDue(memberId);
    const done = await this.db.deleteFrom('responsible_pending').where('member_id', '=', memberId).where('period', '=', period).executeTakeFirst();
    if (Number(done.numDeletedRows) === 0) throw new AppError(404, 'NO_PENDING_LIMIT');
    return this.state(memberId, sessionId);
  }

  /** A time-out (days) or self-exclusion (months) from now; every session of the member ends. */
  async takeBreak(memberId: string, kind: 'TIME_OUT' | 'SELF_EXCLUDED', length: number): Promise<{ ok: true; until: string }> {
    await this.ensureRow(memberId);
    const now = this.now();
    const until = kind === 'TIME_OUT' ? new Date(now + length * DAY) : addMonths(now, length);
    await this.db.transaction().execute(async (trx) => {
      await this.money.lockDeposits(trx, memberId);
      const active = this.breakOf(await this.settings(memberId, trx));
      if (active && active.until.getTime() >= until.getTime()) throw new AppError(409, 'BREAK_ALREADY_LONGER', { until: active.until.toISOString(), code: active.code });
      await trx
        .updateTable('responsible_settings')
        .set(kind === 'TIME_OUT' ? { time_out_until: until, updated_at: new Date() } : { self_excluded_until: until, updated_at: new Date() })
        .where('member_id', '=', memberId)
        .execute();
    });
    // Logged out everywhere: sessions revoked (their sockets closed by the chat's listener).
    await this.sessions.revokeAll(memberId);
    return { ok: true, until: until.toISOString() };
  }

  async setRealityCheck(memberId: string, minutes: number): Promise<void> {
    await this.ensureRow(memberId);
    await this.db.updateTable('responsible_settings').set({ reality_check_minutes: minutes, updated_at: new Date() }).where('member_id', '=', memberId).execute();
  }

  /** Operators' view of a member (read-only). */
  async operatorView(memberId: string): Promise<ResponsibleState> {
    if (!(await this.accounts.findById(memberId))) throw new AppError(404, 'NO_USER');
    return this.state(memberId, null);
  }
}
