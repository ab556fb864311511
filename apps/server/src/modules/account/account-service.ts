import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { bankAllowed } from '../../lib/banks';
import { INVITE_CODE_ALPHABET, INVITE_CODE_LENGTH, INVITE_CODE_PATTERN, type Profile, type Registration } from '@mw/contract/account';
import type { Locale } from '@mw/contract/constants';
import { bangkokDay, checkBirthDate, DEFAULT_MIN_AGE } from '@mw/contract/age';
import {
  checkBankAccountName,
  checkBankAccountNo,
  checkPassword,
  checkPhone,
  checkProfileName,
  normaliseAccountName,
} from '@mw/contract/rules';
import type { MoneyCore } from '../../money';
import { coinBalance } from '../../money';
import { AppError, badRequest, conflict, forbidden, tooMany, uniqueViolation } from '../../lib/errors';
import { ruleError } from '../../lib/rule-error';
import { newId } from '../../lib/ids';
import type { PasswordHasher } from '../../lib/password';
import type { RateLimiter } from '../../lib/rate-limit';
import type { OtpService } from '../otp/otp-service';
import type { SettingsService } from '../settings/settings-service';
import type { SessionService } from './session-service';
import type { AccountDb } from './tables';

export interface AccountOptions {
  /** The money core (set up after accounts: read when a member is created): a new member's ledger accounts open through it. */
  money: () => Pick<MoneyCore, 'openMember'>;
  laosMode: boolean;
  /** The minimum age at registration (MIN_AGE, 20). */
  minAge?: number;
  /** Whether a registration must carry birthDate (BIRTH_DATE_REQUIRED, true). */
  birthDateRequired?: boolean;
  /** The clock of "today" for the age gate (ms). */
  now?: () => number;
  /** Failed logins for one phone from one address per minute (the short lock, for that address only). */
  loginFailsPerMinute: number;
  /** Failed logins for one phone from one address per hour (slow guessing from one address). */
  loginFailsPerPhoneIpHour: number;
  /** Failed logins for one phone from anywhere per hour (the higher ceiling). */
  loginFailsPerPhoneHour: number;
  /** Failed logins from one address per minute, any phone. */
  loginFailsPerIpMinute: number;
  /** Slower answers to an address with many failures this minute: after `after`, `stepMs` more per failure, at most `maxMs`. */
  loginSlowdown?: { after: number; stepMs: number; maxMs: number };
  accountChecksPerDeviceMinute?: number;
  /** Registration checks and registrations from one address per minute. */
  accountChecksPerIpMinute: number;
}

interface CleanRegistration {
  name: string;
  username: string;
  password: string;
  sourceCode: string | null;
  inviterId: string | null;
  bankCode: string;
  bankAccountName: string;
  bankAccountNo: string;
  currency: string;
  birthDate: string | null;
}

/**
 * Registration, login, profile and passwords. Rules the spec leaves open, chosen here:
 * - login answers WRONG_CREDENTIAL (400) for an unknown phone and for a wrong password alike,
 *   and spends the same hashing time on both;
 * - login attempts are counted before the password is checked (so a burst of parallel guesses
 *   cannot overtake the count) and a successful one is taken back. Failures count per phone and
 *   client address (LOGIN_FAILS_PER_MINUTE a minute, LOGIN_FAILS_PER_PHONE_IP_HOUR an hour: that
 *   address only is refused for that phone, 429 REQUEST_LIMIT_1MIN / REQUEST_LIMIT), per client
 *   address over every phone (LOGIN_FAILS_PER_IP_MINUTE a minute, REQUEST_LIMIT_1MIN), and — only
 *   for attempts those let through — per phone from anywhere (LOGIN_FAILS_PER_PHONE_HOUR an hour,
 *   REQUEST_LIMIT). So a stranger's guesses lock out the stranger's address; reaching the phone's
 *   ceiling takes many addresses. A successful login clears the phone+address minute counter;
 * - registration checks and registrations (validate and create; both reveal EXISTING_USER and
 *   EXISTING_BANK) are limited per client address (ACCOUNT_CHECKS_PER_IP_MINUTE a minute);
 * - while registerOTP is on, a registration must carry the otpToken its client verified for the
 *   phone (see OtpService); it is used up by the registration;
 * - bank code and account number are fixed after registration (BANK_DETAILS_LOCKED): withdrawals
 *   go to that account, so changing it is an operator's job; the holder name may be corrected;
 * - an inviter code is the inviter's id, optionally prefixed PR (the invite link's form).
 */
export class AccountService {
  constructor(
    private readonly db: Kysely<AccountDb>,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionService,
    private readonly otp: OtpService,
    private readonly settings: SettingsService,
    private readonly limiter: RateLimiter,
    private readonly options: AccountOptions,
  ) {}

  /**
   * Every registration rule, without writing anything. The wizard calls it at the profile step,
   * before the bank step: with `partial`, bank fields that are all still empty are not checked.
   */
  async validate(input: Registration, partial = false): Promise<CleanRegistration> {
    const bankEmpty = !input.bankCode.trim() && !input.bankAccountName.trim() && !input.bankAccountNo.trim();
    const checkBank = !(partial && bankEmpty);
    const username = input.username.trim();
    const name = input.name.trim();
    const bankCode = input.bankCode.trim().toUpperCase();
    const bankAccountName = normaliseAccountName(input.bankAccountName);
    const bankAccountNo = input.bankAccountNo.replace(/[\s-]/g, '');
    const firstFailure =
      ruleError(checkPhone(username, this.options.laosMode)) ??
      ruleError(checkProfileName(name)) ??
      ruleError(checkPassword(input.password)) ??
      (checkBank && bankCode === '' ? badRequest('KEY_MISSING') : null) ??
      (checkBank ? ruleError(checkBankAccountNo(bankAccountNo)) : null);
    if (firstFailure) throw firstFailure;

    if (checkBank) {
      const bank = await this.db.selectFrom('bank_view as banks').select(['code', 'country']).where('code', '=', bankCode).where('active', '=', true).executeTakeFirst();
      // A bank of another country than the build's (BCEL in the Thai build, a Thai bank for a kip wallet) is not offered, so not accepted.
      const wanted = this.options.laosMode ? (input.currency ?? 'LAK') : 'BAHT';
      if (!bank || !bankAllowed(bank.country, this.options.laosMode, wanted === 'BAHT' ? 'BAHT' : 'LAK')) throw badRequest('INVALID_BANK');
      const nameFailure = ruleError(checkBankAccountName(bankCode, bankAccountName));
      if (nameFailure) throw nameFailure;
    }

    // The age gate (issue 22): checked whenever a birth date comes; create requires one (see register).
    const birthDate = input.birthDate?.trim() || null;
    if (birthDate !== null) {
      const refused = checkBirthDate(birthDate, this.options.minAge ?? DEFAULT_MIN_AGE, bangkokDay((this.options.now ?? Date.now)()));
      if (refused) throw badRequest(refused);
    }

    const currency = this.options.laosMode ? (input.currency ?? 'LAK') : 'BAHT';
    if (!this.options.laosMode && input.currency !== undefined && input.currency !== 'BAHT') throw badRequest('KEY_INVALID');

    const sourceCode = (input.sourceCode ?? '').trim();
    if (sourceCode) {
      const source = await this.db.selectFrom('source_view as sources').select('code').where('code', '=', sourceCode).executeTakeFirst();
      if (!source) throw badRequest('INVALID_SOURCE');
    }
    const inviteCode = (input.inviteCode ?? '').trim();
    let inviterId: string | null = null;
    if (inviteCode) {
      const inviter = await this.inviterOf(inviteCode);
      if (!inviter) throw badRequest('INVALID_INVITE_CODE');
      inviterId = inviter;
    }

    const existingUser = await this.db.selectFrom('members').select('id').where('username', '=', username).executeTakeFirst();
    if (existingUser) throw conflict('EXISTING_USER');
    const existingBank = checkBank
      ? await this.db.selectFrom('members').select('id').where('bank_code', '=', bankCode).where('bank_account_no', '=', bankAccountNo).executeTakeFirst()
      : undefined;
    if (existingBank) throw conflict('EXISTING_BANK');

    return {
      name,
      username,
      password: input.password,
      sourceCode: sourceCode || null,
      inviterId,
      bankCode,
      bankAccountName,
      bankAccountNo,
      currency,
      birthDate,
    };
  }

  /**
   * The member an invite code names: the short code (any letter case), or the old form `PR` + the
   * member's id, which links already shared keep using.
   */
  private async inviterOf(code: string): Promise<string | null> {
    const short = code.toUpperCase();
    if (INVITE_CODE_PATTERN.test(short)) {
      const row = await this.db.selectFrom('members').select('id').where('invite_code', '=', short).executeTakeFirst();
      if (row) return row.id;
    }
    const id = code.replace(/^PR/i, '').toLowerCase();
    const row = await this.db.selectFrom('members').select('id').where('id', '=', id).executeTakeFirst();
    return row?.id ?? null;
  }

  /** The member's short invite code, made (once, unique) the first time it is asked for. */
  private async inviteCodeOf(memberId: string, current: string | null): Promise<string> {
    if (current) return current;
    for (let attempt = 0; attempt < 8; attempt++) {
      const code = Array.from({ length: INVITE_CODE_LENGTH }, () => INVITE_CODE_ALPHABET[randomInt(0, INVITE_CODE_ALPHABET.length)]).join('');
      try {
        const set = await this.db.updateTable('members').set({ invite_code: code }).where('id', '=', memberId).where('invite_code', 'is', null).returning('invite_code').executeTakeFirst();
        if (set?.invite_code) return set.invite_code;
        // Made meanwhile by another request: that one is the code.
        const made = await this.db.selectFrom('members').select('invite_code').where('id', '=', memberId).executeTakeFirst();
        if (made?.invite_code) return made.invite_code;
      } catch (error) {
        if (uniqueViolation(error) === null) throw error;
      }
    }
    throw new AppError(500, 'INTERNAL_SERVER_ERROR');
  }

  /**
   * A member the deployment brings along (the demo member): created when missing, made active
   * again (with this password) when it was retired. Opens its ledger accounts.
   */
  async ensureMember(member: { id: string; username: string; password: string; name: string; sourceCode: string; bankCode: string; bankAccountName: string; bankAccountNo: string }, retiredHash: string): Promise<void> {
    const existing = await this.db.selectFrom('members').select(['id', 'password_hash']).where('username', '=', member.username).executeTakeFirst();
    if (existing?.password_hash === retiredHash) {
      const hash = await this.passwords.hash(member.password);
      await this.db.updateTable('members').set({ status: 'active', password_hash: hash, updated_at: new Date() }).where('id', '=', existing.id).execute();
    }
    if (!existing) {
      await this.db
        .insertInto('members')
        .values({
          id: member.id,
          username: member.username,
          name: member.name,
          password_hash: await this.passwords.hash(member.password),
          source_code: member.sourceCode,
          inviter_id: null,
          bank_code: member.bankCode,
          bank_account_name: member.bankAccountName,
          bank_account_no: member.bankAccountNo,
          currency: 'BAHT',
          // The demo member is an adult (the age gate asks every new member for a birth date).
          birth_date: '1990-01-01',
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    await this.options.money().openMember(this.db, member.id);
  }

  /**
   * Makes a member unusable: inactive, a password hash no password matches (`retiredHash`), every
   * session ended. Answers whether there was one to retire.
   */
  async retire(memberId: string, retiredHash: string): Promise<boolean> {
    const retired = await this.db
      .updateTable('members')
      .set({ status: 'inactive', password_hash: retiredHash, updated_at: new Date() })
      .where('id', '=', memberId)
      .where('password_hash', '<>', retiredHash)
      .executeTakeFirst();
    if (Number(retired.numUpdatedRows) === 0) return false;
    await this.sessions.revokeAll(memberId);
    return true;
  }

  /** The member whose registered bank account this is (bank code and account number are fixed after registration). */
  async findByBankAccount(bankCode: string, accountNo: string): Promise<{ id: string; currency: string; status: string } | null> {
    const row = await this.db
      .selectFrom('members')
      .select(['id', 'currency', 'status'])
      .where('bank_code', '=', bankCode)
      .where('bank_account_no', '=', accountNo)
      .executeTakeFirst();
    return row ?? null;
  }

  /** The member registered with this phone (the username), or null. */
  async findByPhone(phone: string): Promise<{ id: string; currency: string; status: string } | null> {
    const row = await this.db.selectFrom('members').select(['id', 'currency', 'status']).where('username', '=', phone).executeTakeFirst();
    return row ?? null;
  }

  /** A member's currency and status, or null when there is no such member. */
  async findById(memberId: string): Promise<{ id: string; currency: string; status: string } | null> {
    const row = await this.db.selectFrom('members').select(['id', 'currency', 'status']).where('id', '=', memberId).executeTakeFirst();
    return row ?? null;
  }

  /** Members as an operator's confirmation names them (phone, name, bank and account, currency), by id; unknown ids are left out. */
  async contacts(memberIds: readonly string[]): Promise<Map<string, { username: string; name: string; bankCode: string; bankAccountNo: string; currency: string }>> {
    if (memberIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('members')
      .select(['id', 'username', 'name', 'bank_code', 'bank_account_no', 'currency'])
      .where('id', 'in', [...memberIds])
      .execute();
    return new Map(rows.map((r) => [r.id, { username: r.username, name: r.name, bankCode: r.bank_code, bankAccountNo: r.bank_account_no, currency: r.currency }]));
  }

  /** Whether a phone is registered. */
  async isRegistered(phone: string): Promise<boolean> {
    return (await this.db.selectFrom('members').select('id').where('username', '=', phone).executeTakeFirst()) !== undefined;
  }

  /** Counts one registration check (validate or create) of a client address. */
  async countCheck(ip: string, device: string | null = null): Promise<void> {
    // The device (the app's X-Device-Id) does the work; the address is a backstop for a NAT's newcomers.
    if (device) {
      const byDevice = await this.limiter.hit(`account:device:${device}`, this.options.accountChecksPerDeviceMinute ?? 20, 60_000);
      if (!byDevice.allowed) throw tooMany('REQUEST_LIMIT_1MIN', byDevice.retryAfter);
    }
    const hit = await this.limiter.hit(`account:ip:${ip}`, this.options.accountChecksPerIpMinute, 60_000);
    if (!hit.allowed) throw tooMany('REQUEST_LIMIT_1MIN', hit.retryAfter);
  }

  async register(input: Registration): Promise<string> {
    const clean = await this.validate(input);
    if (clean.birthDate === null && (this.options.birthDateRequired ?? true)) throw badRequest('KEY_MISSING', { fields: [{ path: 'birthDate', code: 'required' }] });
    const otpRequired = await this.settings.get('registerOTP', true);
    // Without a token there is nothing to check: refuse before hashing the password.
    if (otpRequired && !input.otpToken) throw forbidden('UNVERIFIED_OTP');
    const id = newId();
    const passwordHash = await this.passwords.hash(clean.password);
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('members')
          .values({
            id,
            username: clean.username,
            name: clean.name,
            password_hash: passwordHash,
            source_code: clean.sourceCode,
            inviter_id: clean.inviterId,
            bank_code: clean.bankCode,
            bank_account_name: clean.bankAccountName,
            bank_account_no: clean.bankAccountNo,
            currency: clean.currency,
            birth_date: clean.birthDate,
          })
          .execute();
        await this.options.money().openMember(trx, id);
        // The code this client verified for this phone is used up here, or nothing is written.
        // (After the insert: a double submit waits on the phone's unique key and answers EXISTING_USER.)
        if (otpRequired && !(await this.otp.consumeRegistration(trx, input.otpToken, clean.username))) throw forbidden('UNVERIFIED_OTP');
      });
    } catch (error) {
      // Two registrations racing past validate(): the database's unique keys decide.
      const constraint = uniqueViolation(error);
      if (constraint === null) throw error;
      throw conflict(constraint.includes('bank') ? 'EXISTING_BANK' : 'EXISTING_USER');
    }
    return id;
  }

  /** Checks the password (under the login limits) and opens a session: its token and whose it is. */
  async login(username: string, password: string, ip: string): Promise<{ token: string; memberId: string }> {
    const phone = username.trim();
    const pairKey = `login:pair:${phone}:${ip}`;
    const pairHourKey = `login:pairhour:${phone}:${ip}`;
    const phoneKey = `login:phone:${phone}`;
    const ipKey = `login:ip:${ip}`;
    // Per phone (and phone + address): counted first, atomically, so that parallel guesses at one
    // account cannot all pass a check made before counting.
    const [byPair, byPairHour] = await Promise.all([
      this.limiter.hit(pairKey, this.options.loginFailsPerMinute, 60_000),
      this.limiter.hit(pairHourKey, this.options.loginFailsPerPhoneIpHour, 3_600_000),
    ]);
    if (!byPair.allowed) throw tooMany('REQUEST_LIMIT_1MIN', byPair.retryAfter);
    if (!byPairHour.allowed) throw tooMany('REQUEST_LIMIT', byPairHour.retryAfter);
    // Per address: hundreds of players share one (carrier-grade NAT), so only failures count, after
    // the outcome; past a few dozen a minute the address's answers come slower, and only far above
    // (the backstop) are they refused. An innocent mistype never costs a neighbour their login.
    const byIp = await this.limiter.peek(ipKey, this.options.loginFailsPerIpMinute);
    if (!byIp.allowed) {
      await Promise.all([this.limiter.undo(pairKey), this.limiter.undo(pairHourKey)]);
      throw tooMany('REQUEST_LIMIT_1MIN', byIp.retryAfter);
    }
    const slow = this.options.loginSlowdown;
    if (slow && byIp.count > slow.after) await new Promise((done) => setTimeout(done, Math.min(slow.maxMs, slow.stepMs * (byIp.count - slow.after))));
    const byPhone = await this.limiter.hit(phoneKey, this.options.loginFailsPerPhoneHour, 3_600_000);
    if (!byPhone.allowed) throw tooMany('REQUEST_LIMIT', byPhone.retryAfter);

    const member = await this.db
      .selectFrom('members')
      .select(['id', 'password_hash', 'status'])
      .where('username', '=', phone)
      .executeTakeFirst();
    const ok = member ? await this.passwords.verify(member.password_hash, password) : (await this.passwords.burn(password), false);
    if (!member || !ok) {
      await this.limiter.hit(ipKey, this.options.loginFailsPerIpMinute, 60_000);
      throw badRequest('WRONG_CREDENTIAL');
    }
    // The right password: this attempt was no failure.
    await Promise.all([this.limiter.reset(pairKey), this.limiter.undo(pairHourKey), this.limiter.undo(phoneKey)]);
    if (member.status !== 'active') throw forbidden('INACTIVE_USER');
    return { token: await this.sessions.create(member.id), memberId: member.id };
  }

  async profile(memberId: string): Promise<Profile> {
    const row = await this.db
      .selectFrom('members')
      .leftJoin('bank_view as banks', 'banks.code', 'members.bank_code')
      .select([
        'members.id',
        'members.username',
        'members.name',
        'members.created_at',
        'members.bank_code',
        'members.bank_account_name',
        'members.bank_account_no',
        'members.currency',
        'members.invite_code',
        'banks.name_th',
        'banks.name_en',
        'banks.name_la',
      ])
      .where('members.id', '=', memberId)
      .executeTakeFirst();
    if (!row) throw new AppError(404, 'NO_USER');
    return {
      _id: row.id,
      username: row.username,
      name: row.name,
      createdAt: row.created_at.toISOString(),
      // Coins are on the ledger (money/coins.ts), no longer in members.coin.
      coin: await coinBalance(this.db, row.id),
      bankCode: row.bank_code,
      bankAccountName: row.bank_account_name,
      bankAccountNo: row.bank_account_no,
      bank: row.name_th !== null ? { code: row.bank_code, nameTH: row.name_th, nameEN: row.name_en ?? '', nameLA: row.name_la ?? row.name_en ?? '' } : null,
      currency: row.currency,
      inviteCode: await this.inviteCodeOf(row.id, row.invite_code),
    };
  }

  async updateProfile(
    memberId: string,
    input: { name: string; bankCode: string; bankAccountName: string; bankAccountNo: string },
  ): Promise<Profile> {
    const current = await this.profile(memberId);
    const name = input.name.trim();
    const nameFailure = ruleError(checkProfileName(name));
    if (nameFailure) throw nameFailure;
    if (input.bankCode.trim().toUpperCase() !== current.bankCode || input.bankAccountNo.replace(/[\s-]/g, '') !== current.bankAccountNo) {
      throw forbidden('BANK_DETAILS_LOCKED');
    }
    const accountName = normaliseAccountName(input.bankAccountName);
    if (accountName !== current.bankAccountName) {
      const failure = ruleError(checkBankAccountName(current.bankCode, accountName));
      if (failure) throw failure;
    }
    await this.db
      .updateTable('members')
      .set({ name, bank_account_name: accountName, updated_at: new Date() })
      .where('id', '=', memberId)
      .execute();
    return this.profile(memberId);
  }

  async updateBankAccountName(memberId: string, bankCode: string, bankAccountName: string): Promise<Profile> {
    const current = await this.profile(memberId);
    if (bankCode.trim().toUpperCase() !== current.bankCode) throw badRequest('INVALID_BANK');
    const name = normaliseAccountName(bankAccountName);
    const failure = ruleError(checkBankAccountName(current.bankCode, name));
    if (failure) throw failure;
    await this.db.updateTable('members').set({ bank_account_name: name, updated_at: new Date() }).where('id', '=', memberId).execute();
    return this.profile(memberId);
  }

  async changePassword(memberId: string, sessionId: string, oldPassword: string, newPassword: string): Promise<void> {
    const member = await this.db.selectFrom('members').select('password_hash').where('id', '=', memberId).executeTakeFirstOrThrow();
    if (!(await this.passwords.verify(member.password_hash, oldPassword))) throw badRequest('WRONG_PASSWORD');
    const failure = ruleError(checkPassword(newPassword));
    if (failure) throw failure;
    if (oldPassword === newPassword) throw badRequest('PASSWORD_SAME');
    const hash = await this.passwords.hash(newPassword);
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('members').set({ password_hash: hash, updated_at: new Date() }).where('id', '=', memberId).execute();
      await this.sessions.revokeAll(memberId, sessionId, trx);
    });
  }

  /** Forgot password, step 1: same answer for registered and unregistered phones. */
  async forgotSend(phoneNumber: string, ip: string, locale: Locale = 'th'): Promise<{ otpRef: string; otpToken: string }> {
    const phone = phoneNumber.trim();
    const failure = ruleError(checkPhone(phone, this.options.laosMode));
    if (failure) throw failure;
    const member = await this.db.selectFrom('members').select('id').where('username', '=', phone).executeTakeFirst();
    return this.otp.issue(phone, 'reset', ip, !!member, locale);
  }

  /** Forgot password, step 2: a valid code sets the new password and ends every session. */
  async forgotReset(otpToken: string, otpCode: string, newPassword: string): Promise<void> {
    const failure = ruleError(checkPassword(newPassword));
    if (failure) throw failure;
    const phone = await this.otp.consume(otpToken, otpCode, 'reset');
    const member = await this.db.selectFrom('members').select('id').where('username', '=', phone).executeTakeFirst();
    if (!member) throw badRequest('OTP_CODE_INVALID');
    const hash = await this.passwords.hash(newPassword);
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('members').set({ password_hash: hash, updated_at: new Date() }).where('id', '=', member.id).execute();
      await this.sessions.revokeAll(member.id, undefined, trx);
    });
    await this.limiter.reset(`login:phone:${phone}`);
  }
}
