import { constants, privateDecrypt } from 'node:crypto';
import { sameConnection } from '../../db/database';
import { sql, type Kysely } from 'kysely';
import { toBaht } from '@mw/contract/money';
import type { MoneyResult } from '@mw/contract/wallet';
import { AppError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { MoneyCore } from '../../money';
import { creditedBy } from '../../money';
import type { Idem } from '../../money';
import { ledgerCurrency, type Currency } from '../../money';
import { BreakerOpen, CallTimeout, type Breaker } from '../../platform/breaker';
import { EWalletUnavailable, VoucherRefused, voucherHash, type EWallet } from '../../providers/ewallet/ewallet';
import type { AccountService } from '../account/account-service';
import type { BankDepositService } from './bank-deposit-service';
import type { Channel, ChannelService } from './channel-service';
import type { DepositDb } from './tables';

/** Credit keys: one credit per gift voucher (its hash), one per e-wallet transfer (its id). */
export const VOUCHER_SOURCE = 'voucher:TRUEWALLET';
export const EWALLET_TRANSFER_SOURCE = 'ewallet:TRUEWALLET';

/** A transfer into our e-wallet account, as the e-wallet's signed webhook reports it. */
export interface EwalletTransfer {
  transferId: string;
  fromPhone: string;
  toPhone: string;
  /** Minor units. */
  amount: number;
  currency: Currency;
  at: Date;
}

export interface EwalletOptions {
  /** The smallest voucher taken (minor units) per currency: 200 = 2 baht, 100,000 = 1,000 kip. */
  minimum: Record<Currency, number>;
  /** A claim whose redemption outcome was unknown this long ago is settled by `reconcile`. */
  graceMs: number;
}

/**
 * E-wallet deposits (TrueMoney Wallet).
 *
 * Gift link (POST /api/wallet/truelink): the body's `link` is base64 of the RSA-OAEP (SHA-256)
 * ciphertext of the member's link under our public key (GET /api/lookup/deposit, each e-wallet's
 * `publicKey`), then `::`, then the e-wallet account name it is for. The link must be a voucher
 * link (https://gift.truemoney.com/campaign/?v=<hash>); the account name one of our active
 * gift-mode e-wallets in the member's currency (NO_WALLET otherwise). Then, in order:
 *   1. the voucher is claimed for the member (a row per hash): a voucher another member claimed,
 *      or one credited already, is TRUELINK_DUPLICATE; ten sends of one link at once: one goes on;
 *   2. the e-wallet is asked about it (verify): unknown, expired, emptied by someone else, or made
 *      by our own wallet is TRUELINK_INVALID; under 2 baht is DEPOSIT_MINIMUM (left unredeemed);
 *   3. it is redeemed into our wallet, and the voucher's amount — the e-wallet's, never the
 *      member's — is credited once per hash (the money core's credit key).
 * A refusal frees the claim. When the e-wallet does not answer (down, timeout, the breaker open)
 * the member is told TRUELINK_UNAVAILABLE at once, and the claim stays: a retry by the member, or
 * `reconcile` later, asks the e-wallet again — a voucher our wallet did redeem is credited, one
 * still untouched is released.
 *
 * AUTO mode: a transfer into our AUTO e-wallet account, reported by the e-wallet's signed webhook,
 * credits the member whose registered phone sent it, once per transfer id; money from a phone no
 * member has (or into a channel not in AUTO mode) is held for an operator like bank deposits.
 */
export class EwalletDepositService {
  constructor(
    private readonly db: Kysely<DepositDb>,
    private readonly ewallet: EWallet | null,
    private readonly breaker: Breaker,
    private readonly channels: ChannelService,
    private readonly accounts: AccountService,
    private readonly bank: BankDepositService,
    private readonly money: MoneyCore,
    private readonly keys: () => { privateKey: string; publicKey: string },
    private readonly options: EwalletOptions = { minimum: { THB: 200, LAK: 100_000 }, graceMs: 60_000 },
  ) {
    // A voucher whose money is recorded: CREDITED with its amount and operation.
    money.credits.onCredited('voucher_credited', async (trx, credited) => {
      await sql`UPDATE ewallet_redemptions r SET status = 'CREDITED', amount = u.amount, operation_id = u.op_id, updated_at = now()
        FROM unnest(${credited.map((c) => c.id)}::text[], ${credited.map((c) => c.operationId)}::text[], ${credited.map((c) => String(c.amount))}::bigint[]) AS u(hash, op_id, amount)
        WHERE r.hash = u.hash`.execute(sameConnection<DepositDb>(trx));
    });
  }

  /** The smallest voucher taken from a member of this currency (minor units). */
  minimum(currency: Currency): number {
    return this.options.minimum[currency];
  }

  /** The public key (SPKI PEM) members' links are encrypted with. */
  publicKey(): string {
    return this.keys().publicKey;
  }

  /** The voucher link inside a member's `link` field, and the account it names; TRUELINK_INVALID when it does not open. */
  private open(link: string): { hash: string; accountName: string } {
    const sep = link.indexOf('::');
    const cipher = sep > 0 ? link.slice(0, sep) : '';
    const accountName = sep > 0 ? link.slice(sep + 2).trim() : '';
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(cipher) || cipher.length > 1024) throw new AppError(400, 'TRUELINK_INVALID');
    // eslint-disable-next-line no-control-regex -- control characters are what is refused
    if (accountName.length > 120 || /[\u0000-\u001F\u007F-\u009F]/.test(accountName)) throw new AppError(400, 'TRUELINK_INVALID');
    let plain: string;
    try {
      plain = privateDecrypt({ key: this.keys().privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(cipher, 'base64')).toString('utf8');
    } catch {
      throw new AppError(400, 'TRUELINK_INVALID');
    }
    const hash = voucherHash(plain);
    if (!hash) throw new AppError(400, 'TRUELINK_INVALID');
    return { hash, accountName };
  }

  private async giftWallet(accountName: string, memberCurrency: string): Promise<Channel> {
    const channel = (await this.channels.all()).find(
      (c) => c.kind === 'wallet' && c.active && c.mode !== 'AUTO' && c.currency === memberCurrency && c.account_name === accountName && c.account_no !== '',
    );
    if (!channel) throw notFound('NO_WALLET');
    return channel;
  }

  /** Calls the e-wallet through the breaker: no answer → TRUELINK_UNAVAILABLE (503) at once. */
  private async call<T>(run: (ewallet: EWallet, signal: AbortSignal) => Promise<T>): Promise<T> {
    const ewallet = this.ewallet;
    if (!ewallet) throw new AppError(503, 'TRUELINK_UNAVAILABLE');
    try {
      return await this.breaker.run((signal) => run(ewallet, signal));
    } catch (error) {
      if (error instanceof BreakerOpen || error instanceof CallTimeout || error instanceof EWalletUnavailable) throw new AppError(503, 'TRUELINK_UNAVAILABLE');
      throw error;
    }
  }

  async redeemLink(memberId: string, link: string, idem: Idem | null): Promise<MoneyResult> {
    // A retry of a call that went through answers as the first time.
    const prior = idem ? await this.money.recorded(memberId, idem) : null;
    if (prior) return prior;
    const member = await this.accounts.findById(memberId);
    if (!member) throw notFound('NO_USER');
    const { hash, accountName } = this.open(link);
    const channel = await this.giftWallet(accountName, member.currency);
    return this.money.once(memberId, idem, async () => {
      const attempt = await this.claim(hash, memberId, channel.id);
      try {
        return await this.redeemClaimed(hash, memberId, channel, idem, attempt);
      } finally {
        // Between attempts (a refusal deleted the claim; a credit made it CREDITED; no answer leaves it for a retry).
        await this.db.updateTable('ewallet_redemptions').set({ attempt: null }).where('hash', '=', hash).where('attempt', '=', attempt).execute();
      }
    });
  }

  /** An attempt left this long without finishing (a crash) no longer blocks others. */
  private get staleAttemptMs(): number {
    return this.options.graceMs * 2;
  }

  /**
   * Claims a voucher for an attempt of a member: a new claim, or the member's own claim whose
   * outcome was unknown and that no other attempt works on. TRUELINK_DUPLICATE when it is another
   * member's, credited, or being redeemed right now (ten sends at once: one goes on).
   */
  private async claim(hash: string, memberId: string, channelId: string): Promise<string> {
    const attempt = newId();
    const inserted = await this.db
      .insertInto('ewallet_redemptions')
      .values({ hash, member_id: memberId, channel: channelId, status: 'REDEEMING', attempt, amount: null, operation_id: null })
      .onConflict((oc) => oc.column('hash').doNothing())
      .returning('hash')
      .executeTakeFirst();
    if (inserted) return attempt;
    const resumed = await this.db
      .updateTable('ewallet_redemptions')
      .set({ attempt, updated_at: new Date() })
      .where('hash', '=', hash)
      .where('member_id', '=', memberId)
      .where('status', '=', 'REDEEMING')
      .where((eb) => eb.or([eb('attempt', 'is', null), eb('updated_at', '<', new Date(Date.now() - this.staleAttemptMs))]))
      .returning('hash')
      .executeTakeFirst();
    if (resumed) return attempt;
    throw new AppError(409, 'TRUELINK_DUPLICATE');
  }

  /** Frees the claim of a voucher that was not redeemed (a refusal). */
  private async release(hash: string, attempt: string): Promise<void> {
    await this.db.deleteFrom('ewallet_redemptions').where('hash', '=', hash).where('status', '=', 'REDEEMING').where('attempt', '=', attempt).execute();
  }

  private async redeemClaimed(hash: string, memberId: string, channel: Channel, idem: Idem | null, attempt: string): Promise<MoneyResult> {
    const mobile = channel.account_no;
    let amount: number;
    try {
      const voucher = await this.call((e, signal) => e.verify(hash, mobile, signal));
      if (voucher.status === 'REDEEMED' && voucher.redeemedBy === mobile && !voucher.ownVoucher) {
        // Our wallet redeemed it under this claim before the answer was lost: credit it now.
        amount = voucher.amount;
      } else {
        if (voucher.status !== 'AVAILABLE' || voucher.ownVoucher) throw new VoucherRefused('VOUCHER_OUT_OF_STOCK');
        // The minimum of the channel's currency (the member's: giftWallet picks one in it).
        const currency = ledgerCurrency(channel.currency);
        if (voucher.amount < this.options.minimum[currency]) {
          await this.release(hash, attempt);
          throw new AppError(400, 'DEPOSIT_MINIMUM', { minimum: toBaht(this.options.minimum[currency]), currency });
        }
        // Money asked for: the member's deposit limits refuse the voucher before it is redeemed (left unredeemed).
        try {
          await this.money.policies.checkAsk({ memberId, amount: voucher.amount, currency: ledgerCurrency(channel.currency) });
        } catch (refusal) {
          await this.release(hash, attempt);
          throw refusal;
        }
        try {
          amount = (await this.call((e, signal) => e.redeem(hash, mobile, signal))).amount;
        } catch (redeemError) {
          // "This wallet took it already": an earlier attempt under this claim redeemed it and its
          // answer was lost. Our wallet holds the money: ask its amount and credit it (never "invalid").
          if (!(redeemError instanceof VoucherRefused) || redeemError.code !== 'TARGET_USER_REDEEMED') throw redeemError;
          const taken = await this.call((e, signal) => e.verify(hash, mobile, signal));
          if (taken.status !== 'REDEEMED' || taken.redeemedBy !== mobile) throw new AppError(503, 'TRUELINK_UNAVAILABLE');
          amount = taken.amount;
        }
      }
    } catch (error) {
      if (error instanceof VoucherRefused) {
        await this.release(hash, attempt);
        throw new AppError(400, 'TRUELINK_INVALID');
      }
      throw error;
    }
    const credit = await this.money.credits.credit({
      source: VOUCHER_SOURCE,
      ref: hash,
      memberId,
      amount,
      currency: ledgerCurrency(channel.currency),
      kind: 'deposit',
      from: channel.bank_code,
      note: null,
      idem,
      tag: { name: 'voucher_credited', id: hash },
    });
    if (!credit.created) throw new AppError(409, 'TRUELINK_DUPLICATE');
    // Redeemed, then held by the deposit rules (a limit reached meanwhile): recorded, shown as held.
    if (credit.held) throw new AppError(403, 'DEPOSIT_HELD', { held: true, reason: credit.held, reference: credit.operationId });
    return { ok: true, wallet: { amount: toBaht(credit.wallet ?? 0) }, amount: toBaht(amount), reference: credit.operationId };
  }

  /**
   * Settles claims whose outcome was unknown (the e-wallet did not answer) `graceMs` ago: a voucher
   * our wallet redeemed is credited to the member who claimed it; any other is released.
   */
  async reconcile(): Promise<{ credited: number; released: number }> {
    const attempt = newId();
    const stale = await this.db
      .updateTable('ewallet_redemptions')
      .set({ attempt, updated_at: new Date() })
      .where('hash', 'in', (qb) =>
        qb
          .selectFrom('ewallet_redemptions')
          .select('hash')
          .where('status', '=', 'REDEEMING')
          .where('updated_at', '<', new Date(Date.now() - this.options.graceMs))
          .where((eb) => eb.or([eb('attempt', 'is', null), eb('updated_at', '<', new Date(Date.now() - this.staleAttemptMs))]))
          .limit(50)
          .forUpdate()
          .skipLocked(),
      )
      .returning(['hash', 'member_id', 'channel'])
      .execute();
    let credited = 0;
    let released = 0;
    const channels = new Map((await this.channels.all()).map((c) => [c.id, c]));
    for (const claim of stale) {
      const channel = channels.get(claim.channel);
      if (!channel?.account_no) continue;
      try {
        const voucher = await this.call((e, signal) => e.verify(claim.hash, channel.account_no, signal));
        if (voucher.status === 'REDEEMED' && voucher.redeemedBy === channel.account_no) {
          const credit = await this.money.credits.credit({
            source: VOUCHER_SOURCE,
            ref: claim.hash,
            memberId: claim.member_id,
            amount: voucher.amount,
            currency: ledgerCurrency(channel.currency),
            kind: 'deposit',
            from: channel.bank_code,
            note: null,
            tag: { name: 'voucher_credited', id: claim.hash },
          });
          if (credit.created) credited += 1;
        } else {
          await this.release(claim.hash, attempt);
          released += 1;
        }
      } catch (error) {
        if (error instanceof VoucherRefused) {
          await this.release(claim.hash, attempt);
          released += 1;
        } else if (!(error instanceof AppError)) {
          throw error;
        }
        // Still no answer: next time.
      } finally {
        await this.db.updateTable('ewallet_redemptions').set({ attempt: null }).where('hash', '=', claim.hash).where('attempt', '=', attempt).execute();
      }
    }
    return { credited, released };
  }

  /** A transfer into one of our e-wallet accounts (the AUTO feed): credited, duplicate, held or ignored. */
  async feed(transfer: EwalletTransfer): Promise<{ result: 'credited' | 'duplicate' | 'held' | 'ignored'; operationId?: string }> {
    const ours = (await this.channels.all()).filter((c) => c.kind === 'wallet' && c.account_no === transfer.toPhone);
    const channel = ours.find((c) => c.active && c.mode === 'AUTO') ?? ours[0];
    if (!channel) return { result: 'ignored' };
    const done = await creditedBy(this.db, EWALLET_TRANSFER_SOURCE, transfer.transferId);
    if (done) return { result: 'duplicate', operationId: done };
    const held = async (reason: 'NO_MEMBER' | 'INACTIVE_MEMBER' | 'CURRENCY_MISMATCH' | 'CHANNEL_NOT_AUTO') =>
      (await this.bank.hold({
        source: EWALLET_TRANSFER_SOURCE,
        ref: transfer.transferId,
        channel: channel.bank_code,
        amount: transfer.amount,
        currency: transfer.currency,
        reason,
        receivedAt: transfer.at,
        from: { bankCode: channel.bank_code, accountNo: transfer.fromPhone, name: '' },
        toAccountNo: transfer.toPhone,
      }))
        ? { result: 'held' as const }
        : { result: 'duplicate' as const };
    if (!channel.active || channel.mode !== 'AUTO') return held('CHANNEL_NOT_AUTO');
    const member = await this.accounts.findByPhone(transfer.fromPhone);
    if (!member) return held('NO_MEMBER');
    if (member.status !== 'active') return held('INACTIVE_MEMBER');
    if (ledgerCurrency(member.currency) !== transfer.currency || ledgerCurrency(channel.currency) !== transfer.currency) return held('CURRENCY_MISMATCH');
    const credit = await this.money.credits.credit({
      source: EWALLET_TRANSFER_SOURCE,
      ref: transfer.transferId,
      memberId: member.id,
      amount: transfer.amount,
      currency: transfer.currency,
      kind: 'deposit',
      from: channel.bank_code,
      note: null,
    });
    await this.bank.markAssigned(EWALLET_TRANSFER_SOURCE, transfer.transferId, member.id, credit.operationId);
    return { result: credit.held && credit.created ? 'held' : credit.created ? 'credited' : 'duplicate', operationId: credit.operationId };
  }
}
