import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Locale } from '@mw/contract/constants';
import { sameConnection, type Connection } from '../../db/database';
import type { OtpRequestsTable, OtpTables } from './tables';
import { AppError, badRequest, tooMany } from '../../lib/errors';
import { newToken, otpRef, sha256, sixDigitCode } from '../../lib/ids';
import type { RateLimiter } from '../../lib/rate-limit';
import type { SmsProvider } from '../../providers/sms/sms-provider';

export type OtpPurpose = OtpRequestsTable['purpose'];

export interface OtpLimits {
  ttlSeconds: number;
  maxAttempts: number;
  resendSeconds: number;
  sendsPerHour: number;
  /** Sends of every purpose from one client address per hour. */
  sendsPerIpHour: number;
  /** Sends to one phone (one purpose) per hour from every address together: a ceiling on SMS to one phone. */
  sendsPerPhoneHour: number;
  /** Sends of every purpose over the whole site per minute (an SMS costs money). */
  sendsGlobalMinute: number;
  /** The share (percent) of the site's minute one client address may use. */
  globalSharePercent: number;
}

/** The SMS, in the language of the person asking for it. */
const smsText: Record<Locale, (code: string, ref: string, minutes: number) => string> = {
  th: (code, ref, minutes) => `รหัส OTP ของคุณคือ ${code} (อ้างอิง ${ref}) ใช้ได้ ${minutes} นาที ห้ามบอกรหัสนี้กับผู้อื่น`,
  la: (code, ref, minutes) => `ລະຫັດ OTP ຂອງທ່ານແມ່ນ ${code} (ອ້າງອີງ ${ref}) ໃຊ້ໄດ້ ${minutes} ນາທີ ຢ່າບອກລະຫັດນີ້ກັບຜູ້ອື່ນ`,
  en: (code, ref, minutes) => `Your OTP code is ${code} (ref ${ref}), valid for ${minutes} min. Do not share it with anyone.`,
};

/** The shape of an otpToken (newToken()); anything else is no token of ours. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,100}$/;

/** How long a verified registration code may be used to register. */
const VERIFICATION_VALID_MS = 30 * 60_000;

/**
 * One-time codes sent by SMS: six digits, valid OTP_TTL_SECONDS, OTP_MAX_ATTEMPTS wrong tries
 * per code before it is blocked (OTP_BLOCK). Sends are limited, in this order:
 * 1. per client address, every phone and purpose: OTP_SENDS_PER_IP_HOUR an hour (REQUEST_LIMIT);
 * 2. per phone, purpose and address: one every OTP_RESEND_SECONDS (REQUEST_LIMIT_1MIN) and
 *    OTP_SENDS_PER_HOUR an hour (REQUEST_LIMIT) — so a stranger asking for codes for someone's
 *    phone uses up the stranger's allowance, not the owner's;
 * 3. per phone and purpose from everywhere: OTP_SENDS_PER_PHONE_HOUR an hour (REQUEST_LIMIT), a
 *    higher ceiling on the SMS one phone can be sent;
 * 4. over the whole site: OTP_SENDS_GLOBAL_MINUTE a minute (REQUEST_LIMIT_1MIN), counting only
 *    sends that passed 1–3, so refused requests cannot use the site's allowance up.
 * Codes are stored hashed; attempts are counted in the database row, atomically.
 *
 * A verified registration code is a capability of the client that verified it: its otpToken
 * (never shown to anyone else) must come with the registration, which uses it up in the same
 * transaction that creates the member. Knowing the phone is not enough.
 */
export class OtpService {
  constructor(
    private readonly db: Kysely<OtpTables>,
    private readonly sms: SmsProvider,
    private readonly limiter: RateLimiter,
    private readonly limits: OtpLimits,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Issues a code. With `deliver` false (a password reset for an unknown phone) the answer looks
   * the same but no SMS goes out and no code will ever match.
   */
  async issue(phone: string, purpose: OtpPurpose, ip: string, deliver = true, locale: Locale = 'th'): Promise<{ otpRef: string; otpToken: string }> {
    await this.checkSendLimits(phone, purpose, ip);
    const code = sixDigitCode();
    const ref = otpRef();
    const token = newToken();
    await this.db
      .insertInto('otp_requests')
      .values({
        token,
        purpose,
        phone,
        ref,
        code_hash: deliver ? sha256(`${token}:${code}`) : sha256(newToken()),
        deliverable: deliver,
        expires_at: new Date(this.now().getTime() + this.limits.ttlSeconds * 1000),
      })
      .execute();
    if (deliver) {
      const minutes = Math.round(this.limits.ttlSeconds / 60);
      try {
        await this.sms.send(phone, smsText[locale](code, ref, minutes));
      } catch {
        throw new AppError(502, 'OTP_SEND_FAIL');
      }
    }
    return { otpRef: ref, otpToken: token };
  }

  /** Checks a code. Returns the phone it was sent to; marks the request verified. */
  async verify(token: string, code: string, purpose: OtpPurpose): Promise<string> {
    if (!TOKEN_PATTERN.test(token)) throw badRequest('OTP_TOKEN_INVALID');
    // Count the attempt first, atomically: parallel guesses cannot exceed the limit.
    const row = await this.db
      .updateTable('otp_requests')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('token', '=', token)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .returning(['phone', 'code_hash', 'attempts', 'expires_at', 'verified_at'])
      .executeTakeFirst();
    if (!row) throw badRequest('OTP_TOKEN_INVALID');
    if (row.verified_at !== null) throw new AppError(409, 'OTP_VERIFIED');
    if (row.expires_at.getTime() <= this.now().getTime()) throw badRequest('OTP_EXPIRED');
    if (row.attempts > this.limits.maxAttempts) throw new AppError(429, 'OTP_BLOCK');
    if (!/^\d{6}$/.test(code) || !safeEqual(row.code_hash, sha256(`${token}:${code}`))) {
      throw row.attempts >= this.limits.maxAttempts ? new AppError(429, 'OTP_BLOCK') : badRequest('OTP_CODE_INVALID', { attemptsLeft: this.limits.maxAttempts - row.attempts });
    }
    await this.db.updateTable('otp_requests').set({ verified_at: this.now() }).where('token', '=', token).execute();
    return row.phone;
  }

  /** Verifies and consumes a code in one step (password reset). */
  async consume(token: string, code: string, purpose: OtpPurpose): Promise<string> {
    const phone = await this.verify(token, code, purpose);
    await this.db.updateTable('otp_requests').set({ consumed_at: this.now() }).where('token', '=', token).execute();
    return phone;
  }

  /**
   * The registration code `token` when this client verified it for `phone` within the last 30
   * minutes and it has not registered anyone yet; otherwise null.
   */
  async verifiedRegistration(token: string, phone: string): Promise<{ otpRef: string; otpToken: string } | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const row = await this.db
      .selectFrom('otp_requests')
      .select(['ref', 'verified_at'])
      .where('token', '=', token)
      .where('purpose', '=', 'register')
      .where('phone', '=', phone)
      .where('consumed_at', 'is', null)
      .executeTakeFirst();
    if (!row?.verified_at || this.now().getTime() - row.verified_at.getTime() >= VERIFICATION_VALID_MS) return null;
    return { otpRef: row.ref, otpToken: token };
  }

  /**
   * Uses up a verified registration code for `phone`, inside the registration's transaction (so
   * a registration that fails leaves the code usable). False when the token is unknown, not
   * verified, for another phone, older than 30 minutes or already used.
   */
  async consumeRegistration(connection: Connection, token: string | undefined, phone: string): Promise<boolean> {
    if (!token || !TOKEN_PATTERN.test(token)) return false;
    const row = await sameConnection<OtpTables>(connection)
      .updateTable('otp_requests')
      .set({ consumed_at: this.now() })
      .where('token', '=', token)
      .where('purpose', '=', 'register')
      .where('phone', '=', phone)
      .where('consumed_at', 'is', null)
      .where('verified_at', 'is not', null)
      .where('verified_at', '>', new Date(this.now().getTime() - VERIFICATION_VALID_MS))
      .returning('token')
      .executeTakeFirst();
    return row !== undefined;
  }

  private async checkSendLimits(phone: string, purpose: OtpPurpose, ip: string): Promise<void> {
    const byIp = await this.limiter.hit(`otp:ip:${ip}`, this.limits.sendsPerIpHour, 3_600_000);
    if (!byIp.allowed) throw tooMany('REQUEST_LIMIT', byIp.retryAfter);
    if (this.limits.resendSeconds > 0) {
      const burst = await this.limiter.hit(`otp:burst:${purpose}:${phone}:${ip}`, 1, this.limits.resendSeconds * 1000);
      if (!burst.allowed) throw tooMany('REQUEST_LIMIT_1MIN', burst.retryAfter);
    }
    const hourly = await this.limiter.hit(`otp:hour:${purpose}:${phone}:${ip}`, this.limits.sendsPerHour, 3_600_000);
    if (!hourly.allowed) throw tooMany('REQUEST_LIMIT', hourly.retryAfter);
    const phoneKey = `otp:phone:${purpose}:${phone}`;
    const byPhone = await this.limiter.hit(phoneKey, this.limits.sendsPerPhoneHour, 3_600_000);
    if (!byPhone.allowed) throw tooMany('REQUEST_LIMIT', byPhone.retryAfter);
    // The site-wide ceiling is split: one address takes at most its share of a minute's sends, so a
    // few addresses cannot use the site's SMS up and close registration and reset for everyone.
    const shareKey = `otp:ipmin:${ip}`;
    const share = await this.limiter.hit(shareKey, Math.max(1, Math.floor((this.limits.sendsGlobalMinute * this.limits.globalSharePercent) / 100)), 60_000);
    if (!share.allowed) {
      await this.limiter.undo(phoneKey);
      throw tooMany('REQUEST_LIMIT_1MIN', share.retryAfter);
    }
    const global = await this.limiter.hit('otp:global', this.limits.sendsGlobalMinute, 60_000);
    if (!global.allowed) {
      await Promise.all([this.limiter.undo('otp:global'), this.limiter.undo(phoneKey), this.limiter.undo(shareKey)]);
      throw tooMany('REQUEST_LIMIT_1MIN', global.retryAfter);
    }
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
