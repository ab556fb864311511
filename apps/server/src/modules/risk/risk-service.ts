import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { toBaht } from '@mw/contract/money';
import type { RiskRules } from '@mw/contract/operator/risk';
import { newId } from '../../lib/ids';
import type { FlagStore } from './flag-store';
import type { RiskRulesStore } from './risk-rules';
import { accountKey, comparableAddress, namesDiffer } from './signals';
import type { RiskEventKind, RiskTables } from './tables';

/** What the signals read of other domains, through their services (wired by the module). */
export interface RiskSources {
  /** A member's id by phone (the login's username), or null. */
  memberByPhone(phone: string): Promise<string | null>;
  /** The member's latest credited deposit (minor units), or null. */
  lastDeposit(memberId: string): Promise<{ id: string; amount: number; at: Date } | null>;
  /** What the member staked in games since `from` (minor units). */
  stakesSince(memberId: string, from: Date): Promise<number>;
}

/** Where a member's call came from. */
export interface Origin {
  deviceId: string | null;
  /** The client address as the server derived it (request.ip). */
  address: string;
}

const HOUR_MS = 3_600_000;
/** How many members one flag lists at most (evidence beyond that says nothing more to a person). */
const MAX_MEMBERS = 20;

/**
 * Risk signals (issue 34). The member-facing domains tell this service what happened and from
 * where (registration, login, bonus claim, withdrawal); it keeps that as events and raises flags
 * by the owner's rules. **Signals never block a player**: every entry point here swallows its own
 * failure (logged) and refuses nothing — a flag makes work for people (the risk queue, and a
 * second review of the member's withdrawals while it is open).
 */
export class RiskService {
  private log: FastifyBaseLogger | null = null;
  private sources: RiskSources | null = null;

  constructor(
    private readonly db: Kysely<RiskTables>,
    readonly rules: RiskRulesStore,
    readonly flags: FlagStore,
  ) {}

  connect(sources: RiskSources, log: FastifyBaseLogger): void {
    this.sources = sources;
    this.log = log;
  }

  /** Whether the member has an open flag (their payouts then need a second person). */
  hasOpenFlag(memberId: string): Promise<boolean> {
    return this.flags.hasOpen(memberId);
  }

  async registered(input: Origin & { memberId: string; name: string; bankAccountName: string; bankAccountNo: string }): Promise<void> {
    await this.safely('registration', async () => {
      const rules = await this.rules.get();
      const address = comparableAddress(input.address);
      const account = accountKey(input.bankAccountNo);
      await this.record(input.memberId, 'register', input.deviceId, address, {}, account);
      const me = input.memberId;
      if (input.deviceId && rules.sameDeviceRegistrations > 0) {
        const deviceId = input.deviceId;
        const regs = await this.registrations((q) => q.where('device_id', '=', deviceId));
        if (regs.count >= rules.sameDeviceRegistrations) {
          await this.flags.raise('same-device', `same-device:${deviceId}:${me}`, ids(regs.sample), { deviceId, count: regs.count, registrations: regs.sample });
        }
      }
      if (address && rules.sameAddressRegistrations > 0) {
        const since = new Date(Date.now() - rules.sameAddressHours * HOUR_MS);
        const regs = await this.registrations((q) => q.where('address', '=', address).where('at', '>', since));
        if (regs.count >= rules.sameAddressRegistrations) {
          await this.flags.raise('same-address', `same-address:${address}:${me}`, ids(regs.sample), { address, hours: rules.sameAddressHours, count: regs.count, registrations: regs.sample });
        }
      }
      if (account.length >= 6 && rules.sameBankAccount) {
        const regs = await this.registrations((q) => q.where('account_key', '=', account));
        if (regs.count >= 2) await this.flags.raise('same-bank-account', `same-bank-account:${account}:${me}`, ids(regs.sample), { bankAccountNo: account, count: regs.count, registrations: regs.sample });
      }
      if (rules.nameMismatch && namesDiffer(input.name, input.bankAccountName)) {
        await this.flags.raise('name-mismatch', `name-mismatch:${me}`, [me], { name: input.name, bankAccountName: input.bankAccountName });
      }
    });
  }

  /** A wrong password for a phone: counted against its member (a phone no member has is nobody's). */
  async loginFailed(input: Origin & { username: string }): Promise<void> {
    await this.safely('failed login', async () => {
      const memberId = await this.sources?.memberByPhone(input.username.trim());
      if (memberId) await this.record(memberId, 'login-failed', input.deviceId, comparableAddress(input.address), {});
    });
  }

  /** A login: many failures since the last success, then a success from a device the member never used, is a signal. */
  async loggedIn(input: Origin & { memberId: string }): Promise<void> {
    await this.safely('login', async () => {
      const rules = await this.rules.get();
      const me = input.memberId;
      if (rules.failedLogins > 0) {
        // Failures within the window since the last success, in one statement (the login's hot path).
        const windowStart = new Date(Date.now() - rules.failedLoginMinutes * 60_000);
        const failed = await this.db
          .selectFrom('risk_events')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('member_id', '=', me)
          .where('kind', '=', 'login-failed')
          .where('at', '>', windowStart)
          .where((eb) => eb.not(eb.exists(eb.selectFrom('risk_events as s').select('s.id').where('s.member_id', '=', me).where('s.kind', '=', 'login').whereRef('s.at', '>', 'risk_events.at'))))
          .executeTakeFirstOrThrow();
        const failures = Number(failed.n);
        if (failures >= rules.failedLogins) {
          const known = input.deviceId
            ? await this.db.selectFrom('risk_events').select('id').where('member_id', '=', me).where('kind', 'in', ['register', 'login']).where('device_id', '=', input.deviceId).limit(1).executeTakeFirst()
            : undefined;
          if (!known) {
            const at = new Date().toISOString();
            await this.flags.raise('login-new-device', `login-new-device:${me}:${at}`, [me], { failures, minutes: rules.failedLoginMinutes, deviceId: input.deviceId, address: comparableAddress(input.address), at });
          }
        }
      }
      await this.record(me, 'login', input.deviceId, comparableAddress(input.address), {});
    });
  }

  /**
   * A bonus taken. A one-time bonus (a welcome or first-deposit bonus: the member takes it once)
   * from a device another one-time claimer used, or from an address one used within the address
   * rule's hours, is a signal.
   */
  async bonusClaimed(input: Origin & { memberId: string; code: string; oneTime: boolean }): Promise<void> {
    await this.safely('bonus claim', async () => {
      const rules = await this.rules.get();
      const me = input.memberId;
      const address = comparableAddress(input.address);
      await this.record(me, 'bonus-claim', input.deviceId, address, { code: input.code, oneTime: input.oneTime });
      if (!input.oneTime || !rules.sharedBonus || (!input.deviceId && !address)) return;
      const since = new Date(Date.now() - rules.sameAddressHours * HOUR_MS);
      const others = await this.db
        .selectFrom('risk_events as e')
        .select(['e.member_id', 'e.device_id', 'e.address', 'e.kind', 'e.at'])
        .where('e.member_id', '<>', me)
        .where((eb) => {
          const matches = [];
          if (input.deviceId) matches.push(eb('e.device_id', '=', input.deviceId));
          if (address) matches.push(eb.and([eb('e.address', '=', address), eb('e.at', '>', since)]));
          return eb.or(matches);
        })
        .where((eb) => eb.exists(eb.selectFrom('risk_events as c').select('c.id').whereRef('c.member_id', '=', 'e.member_id').where('c.kind', '=', 'bonus-claim').where(sql<boolean>`c.detail->>'oneTime' = 'true'`)))
        .orderBy('e.at', 'desc')
        .limit(200)
        .execute();
      if (others.length === 0) return;
      const claimers = [...new Set(others.map((o) => o.member_id))].slice(0, MAX_MEMBERS - 1);
      const shared = claimers.map((memberId) => {
        const seen = others.filter((o) => o.member_id === memberId);
        return { memberId, via: seen.some((o) => input.deviceId && o.device_id === input.deviceId) ? 'device' : 'address' };
      });
      await this.flags.raise('shared-bonus', `shared-bonus:${me}:${input.code}`, [me, ...claimers], { code: input.code, deviceId: input.deviceId, address, claimers: shared });
    });
  }

  /** A withdrawal asked while the stakes since the last deposit are under the rule's share of that deposit is a signal. */
  async withdrawalRequested(input: Origin & { memberId: string; withdrawalId: string; amount: number }): Promise<void> {
    await this.safely('withdrawal', async () => {
      const rules = await this.rules.get();
      const me = input.memberId;
      // Once per withdrawal (its id names the event): a retry of the call (the same Idempotency-Key) answers the same withdrawal.
      const fresh = await this.db
        .insertInto('risk_events')
        .values({ id: `withdrawal:${input.withdrawalId}`, member_id: me, kind: 'withdrawal', device_id: input.deviceId, address: comparableAddress(input.address), account_key: '', detail: JSON.stringify({ withdrawalId: input.withdrawalId, amount: input.amount }) })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!fresh) return;
      if (rules.withdrawalTurnoverPercent <= 0 || !this.sources) return;
      const deposit = await this.sources.lastDeposit(me);
      if (!deposit) return;
      const stakes = await this.sources.stakesSince(me, deposit.at);
      const required = Math.ceil((deposit.amount * rules.withdrawalTurnoverPercent) / 100);
      if (stakes >= required) return;
      await this.flags.raise('low-turnover', `low-turnover:${input.withdrawalId}`, [me], {
        withdrawalId: input.withdrawalId,
        withdrawal: toBaht(input.amount),
        deposit: { id: deposit.id, amount: toBaht(deposit.amount), at: deposit.at.toISOString() },
        stakes: toBaht(stakes),
        required: toBaht(required),
        percent: rules.withdrawalTurnoverPercent,
      });
    });
  }

  private async record(memberId: string, kind: RiskEventKind, deviceId: string | null, address: string | null, detail: Record<string, unknown>, account = ''): Promise<void> {
    await this.db.insertInto('risk_events').values({ id: newId(), member_id: memberId, kind, device_id: deviceId, address, account_key: account, detail: JSON.stringify(detail) }).execute();
  }

  /** The members whose registrations a filter matches: how many, and the newest few (one row each). */
  private async registrations(filter: (q: RegistrationQuery) => RegistrationQuery): Promise<{ count: number; sample: Registration[] }> {
    const base = filter(this.db.selectFrom('risk_events').where('kind', '=', 'register'));
    const [count, rows] = await Promise.all([
      base.select(sql<string>`count(DISTINCT member_id)`.as('n')).executeTakeFirstOrThrow(),
      base.select(['member_id', 'at', 'device_id', 'address']).orderBy('at', 'desc').limit(200).execute(),
    ]);
    const seen = new Map<string, Registration>();
    for (const r of rows) if (!seen.has(r.member_id)) seen.set(r.member_id, { memberId: r.member_id, at: new Date(r.at).toISOString(), deviceId: r.device_id, address: r.address });
    return { count: Number(count.n), sample: [...seen.values()].slice(0, MAX_MEMBERS) };
  }

  /** Runs a signal; its failure is logged and goes no further (signals never block a player). */
  private async safely(what: string, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error) {
      this.log?.warn({ err: error }, `risk signal (${what}) failed`);
    }
  }
}

interface Registration {
  memberId: string;
  at: string;
  deviceId: string | null;
  address: string | null;
}
type RegistrationQuery = SelectQueryBuilder<RiskTables, 'risk_events', object>;

const ids = (regs: ReadonlyArray<{ memberId: string }>) => regs.map((r) => r.memberId);

export type { RiskRules };
