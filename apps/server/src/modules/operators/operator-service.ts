import { sql, type Kysely, type Selectable } from 'kysely';
import {
  OPERATOR_PASSWORD_MAX,
  OPERATOR_PASSWORD_MIN,
  OPERATOR_USERNAME,
  type Operator,
  type OperatorRole,
  type OperatorSelf,
} from '@mw/contract/admin';
import { AppError, badRequest, conflict, notFound, tooMany, unauthorized, uniqueViolation } from '../../lib/errors';
import { newId, newToken, sha256 } from '../../lib/ids';
import type { PasswordHasher } from '../../lib/password';
import type { RateLimiter } from '../../lib/rate-limit';
import type { SecretBox } from '../../lib/secret-box';
import { recordAudit, type AuditActor } from '../../platform/audit';
import { API_KEY_IDENTITY, type OperatorIdentity } from '../../platform/operator';
import { qrSvg } from '../../lib/qr-svg';
import type { Clock, OperatorSessionService } from './operator-sessions';
import type { OperatorsTable, OperatorsTables } from './tables';
import { matchTotp, newTotpSecret, otpauthUri, totpStep } from './totp';

export interface OperatorOptions {
  /** OPERATOR_ENROLMENT_HOURS: how long an enrolment link works. */
  enrolmentHours: number;
  /** Where the back office is (`PUBLIC_URL`): enrolment links point to `<publicUrl>/admin/enrol/<token>`. */
  publicUrl: string;
  /** The issuer an authenticator app shows beside the username. */
  issuer: string;
  /** Failed logins for one username from one address per minute. */
  loginFailsPerMinute: number;
  /** Failed logins (wrong passwords and wrong TOTP codes) for one username from anywhere per hour. */
  loginFailsPerUsernameHour: number;
  /** Failed logins from one address per minute, any username (a backstop: an office behind one NAT). */
  loginFailsPerIpMinute: number;
}

/** A login challenge's life, and the wrong codes that void it. */
export const CHALLENGE_SECONDS = 300;
export const CHALLENGE_MAX_FAILURES = 5;
/** The demo operators' password and TOTP secret (README quick start; SEED_DEMO only). */
export const DEMO_OPERATOR_PASSWORD = 'demo-operator-1';
export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';
/** Wrong current passwords on `PUT /api/admin/password` an operator may give in an hour (the next answers 429 REQUEST_LIMIT). */
export const PASSWORD_CHANGE_FAILS_PER_HOUR = 5;

export const DEMO_OPERATORS: ReadonlyArray<{ username: string; name: string; role: OperatorRole }> = [
  { username: 'owner', name: 'Demo Owner', role: 'owner' },
  { username: 'finance', name: 'Demo Finance', role: 'finance' },
  { username: 'support', name: 'Demo Support', role: 'support' },
  { username: 'marketing', name: 'Demo Marketing', role: 'marketing' },
];
/** The password hash of a retired demo operator: no password matches it. */
const RETIRED = '!retired-demo-operator';

type OperatorRow = Selectable<OperatorsTable>;

export interface Enrolment {
  token: string;
  link: string;
  expiresAt: string;
}

function publicOperator(row: OperatorRow): Operator {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    role: row.role as OperatorRole,
    status: row.status as Operator['status'],
    createdAt: row.created_at.toISOString(),
    lastLoginAt: row.last_login_at?.toISOString() ?? null,
  };
}

function self(row: Pick<OperatorRow, 'username' | 'name' | 'role'>): OperatorSelf {
  return { username: row.username, name: row.name, role: row.role as OperatorRole };
}

function actorOf(identity: OperatorIdentity): AuditActor {
  return { id: identity.id, username: identity.username, role: identity.role, via: identity.via };
}

function checkPassword(password: string): void {
  if ([...password].length < OPERATOR_PASSWORD_MIN || [...password].length > OPERATOR_PASSWORD_MAX) throw badRequest('OPERATOR_PASSWORD_INVALID');
}

/**
 * Operators: people with a role, an argon2id password and a TOTP second factor (secret sealed
 * with the credentials key). Rules chosen where the issue is silent:
 * - a login is two calls: the password answers a challenge (5 minutes), a TOTP code turns it
 *   into a session; a wrong username and a wrong password answer the same 401
 *   WRONG_CREDENTIAL and cost the same hashing time; 5 wrong codes void the challenge;
 * - a code is accepted for the current step and one either side, and only for a step after the
 *   last one accepted for that operator (a code is never taken twice, nor an older one);
 * - failed logins count per username and address (a minute), per username from anywhere (an
 *   hour; wrong TOTP codes count here too) and per address (a minute, a backstop sized for an
 *   office behind one NAT); counted before the password is checked, taken back when it is right;
 * - the right password of a disabled operator answers 403 OPERATOR_DISABLED, of one waiting
 *   for enrolment 403 OPERATOR_NOT_ACTIVE;
 * - there is always an active owner (409 LAST_OWNER), and an owner does not disable or demote
 *   themself (409 OWN_ACCOUNT);
 * - disabling, a password change and a TOTP reset revoke every session of the operator; a TOTP
 *   reset makes a new enrolment (new secret and password) and voids the older links.
 */
/** Roles that move money: a promotion to one restarts the 7 days (and names who set the trust) before the operator may check that one's requests. */
const MONEY_ROLES: readonly OperatorRole[] = ['owner', 'finance'];
/** How long an operator whose trust someone set (created, promoted, re-enrolled) waits before approving that someone's requests, or asking them. */
export const CHECKER_TRUST_MS = 7 * 24 * 60 * 60_000;
/** The automation key's name where a person's would be. */
const API_KEY = API_KEY_IDENTITY.username;

export class OperatorService {
  private demoHash: Promise<string> | null = null;

  constructor(
    private readonly db: Kysely<OperatorsTables>,
    private readonly passwords: PasswordHasher,
    private readonly limiter: RateLimiter,
    private readonly box: SecretBox,
    readonly sessions: OperatorSessionService,
    private readonly options: OperatorOptions,
    readonly clock: Clock,
  ) {}

  // ---- management (owner) ----

  /**
   * Four eyes between people: may `checker` decide `maker`'s requests? Not when one of them stands
   * on the other's word, or on the automation key's, within the 7 days (CHECKER_TRUST_MS): an
   * operator's trust is set (`trusted_by`) by whoever created them, gave them a money role or issued
   * their re-enrolment link, and restarts (`trusted_from`) then and at the enrolment. Each one's
   * chain of trust is walked while each link is within its 7 days (who set my trust, who set theirs,
   * …); refused when the checker is in the maker's chain (the maker's account was just made by the
   * checker), the maker in the checker's (the checker's), both chains meet (two accounts the same
   * person just made), or `api-key` is in either (whoever holds the key may be either of them). So an
   * owner cannot approve their own request through an account they just made, promoted or re-enrolled.
   */
  async mayCheck(checker: string, maker: string): Promise<boolean> {
    const row = await this.db.selectFrom('operators').select(['created_by', 'trusted_from']).where('username', '=', checker).executeTakeFirst();
    if (row && row.created_by === maker && this.recent(row.trusted_from)) return false;
    const checkers = [checker, ...(await this.vouchers(checker))];
    const makers = [maker, ...(await this.vouchers(maker))];
    if (checkers.includes(API_KEY) || makers.includes(API_KEY)) return false;
    return !checkers.some((name) => makers.includes(name));
  }

  /** Whether trust set at `from` is still within its 7 days. */
  private recent(from: Date | string): boolean {
    return this.clock.now().getTime() - new Date(from).getTime() < CHECKER_TRUST_MS;
  }

  /**
   * Who an operator's trust stands on within the 7 days: who set it, then who set theirs while that
   * one is within their own 7 days, and so on (an old or seeded account, or `api-key`, ends it).
   */
  private async vouchers(username: string): Promise<string[]> {
    const chain: string[] = [];
    let current = username;
    while (chain.length < 64) {
      const row = await this.db.selectFrom('operators').select(['trusted_by', 'trusted_from']).where('username', '=', current).executeTakeFirst();
      if (!row?.trusted_by || !this.recent(row.trusted_from) || row.trusted_by === username || chain.includes(row.trusted_by)) break;
      chain.push(row.trusted_by);
      current = row.trusted_by;
    }
    return chain;
  }

  async list(): Promise<Operator[]> {
    const rows = await this.db.selectFrom('operators').selectAll().orderBy('username').execute();
    return rows.map(publicOperator);
  }

  /** A new operator waiting for enrolment, and the one-time link to enrol. */
  async create(input: { username: string; name?: string; role: OperatorRole }, actor: AuditActor): Promise<{ operator: Operator; enrolment: Enrolment }> {
    const username = input.username.trim().toLowerCase();
    if (!OPERATOR_USERNAME.test(username) || username === 'api-key') throw badRequest('USERNAME_INVALID');
    const name = input.name?.trim() || username;
    try {
      return await this.db.transaction().execute(async (trx) => {
        const row = await trx.insertInto('operators').values({ id: newId(), username, name, role: input.role, status: 'pending-enrolment', created_by: actor.username, trusted_by: actor.username, trusted_from: this.clock.now() }).returningAll().executeTakeFirstOrThrow();
        const enrolment = await this.newEnrolment(trx, row.id);
        await recordAudit(trx, { actor, action: 'operator.create', entity: 'operator', target: username, before: null, after: publicOperator(row) });
        return { operator: publicOperator(row), enrolment };
      });
    } catch (error) {
      if (uniqueViolation(error) !== null) throw conflict('OPERATOR_EXISTS');
      throw error;
    }
  }

  async changeRole(id: string, role: OperatorRole, actor: AuditActor): Promise<Operator> {
    return this.change(id, actor, 'operator.role', async (trx, row) => {
      if (row.role === role) return row;
      if (row.id === actor.id) throw conflict('OWN_ACCOUNT');
      if (row.role === 'owner' && row.status === 'active') await this.keepAnOwner(trx, row.id);
      const promoted = MONEY_ROLES.includes(role) && !MONEY_ROLES.includes(row.role as OperatorRole);
      // Their open connections start again under the new role (the inbox is support's and the owner's).
      this.sessions.changed(id);
      return trx.updateTable('operators').set({ role, updated_at: this.clock.now(), ...(promoted ? { trusted_from: this.clock.now(), trusted_by: actor.username } : {}) }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
    });
  }

  async disable(id: string, actor: AuditActor): Promise<Operator> {
    return this.change(id, actor, 'operator.disable', async (trx, row) => {
      if (row.status === 'disabled') return row;
      if (row.id === actor.id) throw conflict('OWN_ACCOUNT');
      if (row.role === 'owner' && row.status === 'active') await this.keepAnOwner(trx, row.id);
      await this.sessions.revokeAll(id, trx);
      await this.closeOpen(trx, id);
      return trx.updateTable('operators').set({ status: 'disabled', updated_at: this.clock.now() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
    });
  }

  async enable(id: string, actor: AuditActor): Promise<Operator> {
    return this.change(id, actor, 'operator.enable', async (trx, row) => {
      if (row.status !== 'disabled') return row;
      // One who never finished an enrolment (or whose demo login was retired) needs a new one.
      const enrolled = row.password_hash !== null && row.password_hash !== RETIRED && row.totp_secret !== null;
      return trx
        .updateTable('operators')
        .set({ status: enrolled ? 'active' : 'pending-enrolment', updated_at: this.clock.now() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  }

  /** A new TOTP secret (and password) through a new enrolment link; until it is finished the operator cannot log in. */
  async resetTotp(id: string, actor: AuditActor): Promise<{ operator: Operator; enrolment: Enrolment }> {
    let enrolment: Enrolment | null = null;
    const operator = await this.change(id, actor, 'operator.reset-totp', async (trx, row) => {
      if (row.status === 'disabled') throw conflict('OPERATOR_NOT_ACTIVE');
      await this.sessions.revokeAll(id, trx);
      await this.closeOpen(trx, id);
      enrolment = await this.newEnrolment(trx, id);
      // Who issued the link sets the trust the enrolment restarts (whoever enrols from it is theirs).
      return trx.updateTable('operators').set({ status: 'pending-enrolment', updated_at: this.clock.now(), trusted_by: actor.username, trusted_from: this.clock.now() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
    });
    if (!enrolment) throw new Error('no enrolment made');
    return { operator, enrolment };
  }

  /** One change of an operator, locked, with its audit row (before and after) in the same transaction. */
  private async change(
    id: string,
    actor: AuditActor,
    action: string,
    apply: (trx: Kysely<OperatorsTables>, row: OperatorRow) => Promise<OperatorRow>,
  ): Promise<Operator> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('operators').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      if (!row) throw notFound('NO_OPERATOR');
      const after = await apply(trx, row);
      await recordAudit(trx, { actor, action, entity: 'operator', target: row.username, before: publicOperator(row), after: publicOperator(after) });
      return publicOperator(after);
    });
  }

  /** Refuses a change that would leave no active owner besides `leaving` (every owner row locked first). */
  private async keepAnOwner(trx: Kysely<OperatorsTables>, leaving: string): Promise<void> {
    const owners = await trx.selectFrom('operators').select('id').where('role', '=', 'owner').where('status', '=', 'active').orderBy('id').forUpdate().execute();
    if (!owners.some((o) => o.id !== leaving)) throw conflict('LAST_OWNER');
  }

  /** Voids the operator's open enrolment links and login challenges. */
  private async closeOpen(trx: Kysely<OperatorsTables>, operatorId: string): Promise<void> {
    const now = this.clock.now();
    await trx.updateTable('operator_enrolments').set({ revoked_at: now }).where('operator_id', '=', operatorId).where('used_at', 'is', null).where('revoked_at', 'is', null).execute();
    await trx.updateTable('operator_challenges').set({ closed_at: now }).where('operator_id', '=', operatorId).where('closed_at', 'is', null).execute();
  }

  private async newEnrolment(trx: Kysely<OperatorsTables>, operatorId: string): Promise<Enrolment> {
    const token = newToken();
    const expiresAt = new Date(this.clock.now().getTime() + this.options.enrolmentHours * 3_600_000);
    await trx
      .insertInto('operator_enrolments')
      .values({ id: newId(), token_hash: sha256(token), operator_id: operatorId, totp_secret: this.box.seal(newTotpSecret()), expires_at: expiresAt })
      .execute();
    return { token, link: `${this.options.publicUrl.replace(/\/+$/, '')}/admin/enrol/${token}`, expiresAt: expiresAt.toISOString() };
  }

  // ---- enrolment ----

  /** The secret and its QR, shown once. */
  async enrolment(token: string): Promise<{ username: string; name: string; role: OperatorRole; otpauthUri: string; secret: string; qrDataUrl: string }> {
    const now = this.clock.now();
    const shown = await this.db
      .updateTable('operator_enrolments')
      .set({ shown_at: now })
      .where('token_hash', '=', sha256(token))
      .where('shown_at', 'is', null)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['operator_id', 'totp_secret'])
      .executeTakeFirst();
    if (!shown) {
      const open = await this.openEnrolment(token);
      throw open ? conflict('ENROLMENT_SHOWN') : notFound('ENROLMENT_INVALID');
    }
    const operator = await this.db.selectFrom('operators').select(['username', 'name', 'role']).where('id', '=', shown.operator_id).executeTakeFirstOrThrow();
    const secret = this.box.open(shown.totp_secret);
    const uri = otpauthUri(this.options.issuer, operator.username, secret);
    return {
      ...self(operator),
      otpauthUri: uri,
      secret,
      qrDataUrl: `data:image/svg+xml;base64,${Buffer.from(qrSvg(uri)).toString('base64')}`,
    };
  }

  private async openEnrolment(token: string) {
    return this.db
      .selectFrom('operator_enrolments')
      .selectAll()
      .where('token_hash', '=', sha256(token))
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', this.clock.now())
      .executeTakeFirst();
  }

  /** Sets the password, proves the authenticator with a code, and the operator is active. */
  async finishEnrolment(token: string, password: string, code: string, address: string): Promise<void> {
    const tries = await this.limiter.hit(`admin:enrol:${sha256(token)}`, 10, 3_600_000);
    if (!tries.allowed) throw tooMany('REQUEST_LIMIT', tries.retryAfter);
    const enrolment = await this.openEnrolment(token);
    if (!enrolment) throw notFound('ENROLMENT_INVALID');
    const operator = await this.db.selectFrom('operators').selectAll().where('id', '=', enrolment.operator_id).executeTakeFirstOrThrow();
    if (operator.status !== 'pending-enrolment') throw notFound('ENROLMENT_INVALID');
    checkPassword(password);
    const secret = this.box.open(enrolment.totp_secret);
    const step = matchTotp(secret, code, this.clock.now());
    const actor: AuditActor = { id: operator.id, username: operator.username, role: operator.role };
    if (step === null) {
      await recordAudit(this.db, { actor, action: 'enrol.totp-failed', entity: 'operator', target: operator.username, address });
      throw unauthorized('WRONG_TOTP');
    }
    const hash = await this.passwords.hash(password);
    await this.db.transaction().execute(async (trx) => {
      const used = await trx
        .updateTable('operator_enrolments')
        .set({ used_at: this.clock.now() })
        .where('id', '=', enrolment.id)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(used.numUpdatedRows) !== 1) throw notFound('ENROLMENT_INVALID');
      const after = await trx
        .updateTable('operators')
        .set({ password_hash: hash, totp_secret: enrolment.totp_secret, totp_last_step: String(step), status: 'active', updated_at: this.clock.now(), trusted_from: this.clock.now() })
        .where('id', '=', operator.id)
        .where('status', '=', 'pending-enrolment')
        .returningAll()
        .executeTakeFirst();
      if (!after) throw notFound('ENROLMENT_INVALID');
      await recordAudit(trx, { actor, action: 'operator.enrol', entity: 'operator', target: operator.username, before: publicOperator(operator), after: publicOperator(after), address });
    });
  }

  // ---- login ----

  /** Whether the operator once signed in (password and TOTP) from this address: a session was made from it. */
  private async knownAddress(operatorId: string, address: string): Promise<boolean> {
    const row = await this.db.selectFrom('operator_sessions').select('id').where('operator_id', '=', operatorId).where('address', '=', address).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  /** The first step: username and password → a challenge for the TOTP step. */
  async login(usernameInput: string, password: string, address: string): Promise<{ challenge: string }> {
    const username = usernameInput.trim().toLowerCase().slice(0, 64);
    const pairKey = `admin:login:pair:${username}:${address}`;
    const userKey = `admin:login:user:${username}`;
    const ipKey = `admin:login:ip:${address}`;
    // Counted first, atomically: parallel attempts cannot all pass a check made before counting.
    const [byPair, byIp] = await Promise.all([
      this.limiter.hit(pairKey, this.options.loginFailsPerMinute, 60_000),
      this.limiter.hit(ipKey, this.options.loginFailsPerIpMinute, 60_000),
    ]);
    if (!byPair.allowed || !byIp.allowed) throw tooMany('REQUEST_LIMIT_1MIN', Math.max(byPair.retryAfter, byIp.retryAfter));
    const row = await this.db.selectFrom('operators').selectAll().where('username', '=', username).executeTakeFirst();
    // The hourly lock of a username counts failures from addresses the operator never signed in
    // from (password and TOTP): a stranger's guesses lock the stranger out, not the operator at their
    // usual desk, who still meets the per-address minute limit above.
    const known = row ? await this.knownAddress(row.id, address) : false;
    if (!known) {
      const byUser = await this.limiter.hit(userKey, this.options.loginFailsPerUsernameHour, 3_600_000);
      if (!byUser.allowed) throw tooMany('REQUEST_LIMIT', byUser.retryAfter);
    }

    const ok = row?.password_hash ? await this.passwords.verify(row.password_hash, password) : (await this.passwords.burn(password), false);
    if (!row || !ok) {
      await recordAudit(this.db, { actor: { id: row?.id ?? null, username: username || '(empty)', role: row?.role ?? null }, action: 'login.failed', address, after: { reason: 'WRONG_CREDENTIAL' } });
      throw unauthorized('WRONG_CREDENTIAL');
    }
    // The right password: this attempt was no failure.
    await Promise.all([this.limiter.reset(pairKey), this.limiter.undo(ipKey), known ? Promise.resolve() : this.limiter.undo(userKey)]);
    const actor: AuditActor = { id: row.id, username: row.username, role: row.role };
    if (row.status !== 'active') {
      await recordAudit(this.db, { actor, action: 'login.failed', address, after: { reason: row.status } });
      throw new AppError(403, row.status === 'disabled' ? 'OPERATOR_DISABLED' : 'OPERATOR_NOT_ACTIVE');
    }
    const challenge = newToken();
    await this.db
      .insertInto('operator_challenges')
      .values({ id: newId(), token_hash: sha256(challenge), operator_id: row.id, expires_at: new Date(this.clock.now().getTime() + CHALLENGE_SECONDS * 1000) })
      .execute();
    return { challenge };
  }

  /** The second step: the challenge and a TOTP code → a session. */
  async loginTotp(challenge: string, code: string, address: string): Promise<{ token: string; operator: OperatorSelf }> {
    const now = this.clock.now();
    const open = await this.db
      .selectFrom('operator_challenges as c')
      .innerJoin('operators as o', 'o.id', 'c.operator_id')
      .select(['c.id', 'c.expires_at', 'c.failures', 'c.closed_at', 'o.id as operatorId', 'o.username', 'o.name', 'o.role', 'o.status', 'o.totp_secret'])
      .where('c.token_hash', '=', sha256(challenge))
      .executeTakeFirst();
    if (!open || open.closed_at !== null || open.expires_at <= now || open.failures >= CHALLENGE_MAX_FAILURES || open.status !== 'active' || !open.totp_secret) {
      throw unauthorized('CHALLENGE_INVALID');
    }
    const actor: AuditActor = { id: open.operatorId, username: open.username, role: open.role };
    const step = matchTotp(this.box.open(open.totp_secret), code, now);
    // A step after the last one accepted, or that same step while it is still the current one (a
    // second sign-in within the code's own 30 s), taken atomically: a code is never taken again once
    // its step has passed (a replay after its window), nor an older one.
    const current = step !== null && step === totpStep(now);
    const taken =
      step !== null &&
      (await this.db
        .updateTable('operators')
        .set({ totp_last_step: String(step) })
        .where('id', '=', open.operatorId)
        .where((eb) =>
          eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', String(step)), ...(current ? [eb('totp_last_step', '=', String(step))] : [])]),
        )
        .executeTakeFirst()
        .then((r) => Number(r.numUpdatedRows) === 1));
    if (!taken) {
      const failed = await this.db
        .updateTable('operator_challenges')
        .set((eb) => ({
          failures: eb('failures', '+', 1),
          closed_at: sql<Date | null>`CASE WHEN failures + 1 >= ${CHALLENGE_MAX_FAILURES} THEN ${now}::timestamptz ELSE NULL END`,
        }))
        .where('id', '=', open.id)
        .where('closed_at', 'is', null)
        .returning('failures')
        .executeTakeFirst();
      if (!(await this.knownAddress(open.operatorId, address))) await this.limiter.hit(`admin:login:user:${open.username}`, this.options.loginFailsPerUsernameHour, 3_600_000);
      await recordAudit(this.db, {
        actor,
        action: 'totp.failed',
        address,
        after: { reason: step === null ? 'WRONG_TOTP' : 'REPLAYED_TOTP', failures: failed?.failures ?? CHALLENGE_MAX_FAILURES },
      });
      if (!failed) throw unauthorized('CHALLENGE_INVALID');
      throw unauthorized('WRONG_TOTP');
    }
    const closed = await this.db
      .updateTable('operator_challenges')
      .set({ closed_at: now })
      .where('id', '=', open.id)
      .where('closed_at', 'is', null)
      .where('failures', '<', CHALLENGE_MAX_FAILURES)
      .executeTakeFirst();
    if (Number(closed.numUpdatedRows) !== 1) throw unauthorized('CHALLENGE_INVALID');
    const session = await this.sessions.create(open.operatorId, address);
    await this.db.updateTable('operators').set({ last_login_at: now }).where('id', '=', open.operatorId).execute();
    await recordAudit(this.db, { actor, action: 'login', address, after: { session: session.id } });
    return { token: session.token, operator: self(open) };
  }

  async logout(identity: OperatorIdentity, address: string): Promise<void> {
    if (identity.sessionId) await this.sessions.revoke(identity.sessionId);
    await recordAudit(this.db, { actor: actorOf(identity), action: 'logout', address });
  }

  /** The caller's own password: every session of theirs ends, and a new one is answered. */
  async changePassword(identity: OperatorIdentity, oldPassword: string, newPassword: string, address: string): Promise<{ token: string; operator: OperatorSelf }> {
    // Wrong current passwords are limited per operator (a stolen session cannot guess the password
    // to take the account over): counted first, atomically, and given back when the password is right.
    const failKey = `admin:password:${identity.id}`;
    const tries = await this.limiter.hit(failKey, PASSWORD_CHANGE_FAILS_PER_HOUR, 3_600_000);
    if (!tries.allowed) throw tooMany('REQUEST_LIMIT', tries.retryAfter);
    const row = await this.db.selectFrom('operators').selectAll().where('id', '=', identity.id).executeTakeFirst();
    if (!row?.password_hash || !(await this.passwords.verify(row.password_hash, oldPassword))) {
      await recordAudit(this.db, { actor: actorOf(identity), action: 'operator.password-failed', entity: 'operator', target: identity.username, address });
      throw badRequest('WRONG_PASSWORD');
    }
    await this.limiter.undo(failKey);
    checkPassword(newPassword);
    if (newPassword === oldPassword) throw badRequest('PASSWORD_SAME');
    const hash = await this.passwords.hash(newPassword);
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('operators').set({ password_hash: hash, updated_at: this.clock.now() }).where('id', '=', row.id).execute();
      const revoked = await this.sessions.revokeAll(row.id, trx);
      await recordAudit(trx, { actor: actorOf(identity), action: 'operator.password', entity: 'operator', target: row.username, after: { sessionsRevoked: revoked }, address });
    });
    const session = await this.sessions.create(row.id, address);
    return { token: session.token, operator: self(row) };
  }

  // ---- demo ----

  /** With SEED_DEMO: the four demo operators, active, with the README's password and secret. */
  async seedDemo(): Promise<void> {
    this.demoHash ??= this.passwords.hash(DEMO_OPERATOR_PASSWORD);
    const hash = await this.demoHash;
    for (const demo of DEMO_OPERATORS) {
      const values = { password_hash: hash, totp_secret: this.box.seal(DEMO_TOTP_SECRET), status: 'active', role: demo.role, name: demo.name };
      await this.db
        .insertInto('operators')
        .values({ id: newId(), username: demo.username, demo: true, ...values })
        .onConflict((oc) => oc.column('username').doUpdateSet(values).where('operators.demo', '=', true).where('operators.password_hash', '=', RETIRED))
        .execute();
    }
  }

  /** Without SEED_DEMO: demo operators a development run left in the database can no longer log in. */
  async retireDemo(): Promise<void> {
    const retired = await this.db
      .updateTable('operators')
      .set({ password_hash: RETIRED, status: 'disabled', updated_at: this.clock.now() })
      .where('demo', '=', true)
      .where((eb) => eb.or([eb('password_hash', 'is', null), eb('password_hash', '<>', RETIRED)]))
      .returning('id')
      .execute();
    for (const { id } of retired) await this.sessions.revokeAll(id);
  }
}
