import { randomInt } from 'node:crypto';
import { sameConnection } from '../../db/database';
import { sql, type Kysely, type Selectable } from 'kysely';
import { QR_MINIMUMS_BY_CURRENCY, QR_PRESETS_BY_CURRENCY } from '@mw/contract/currency-figures';
import { toBaht } from '@mw/contract/money';
import type { QrState } from '@mw/contract/qr';
import { badRequest, conflict, notFound, uniqueViolation } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { MoneyCore } from '../../money';
import { ledgerCurrency, type Currency } from '../../money';
import type { PaymentGateway, QrProvider } from '../../providers/payments/gateway';
import { isQrProvider, PAYMENT_ID } from '../../providers/payments/gateway';
import { qrSvg } from '../../lib/qr-svg';
import type { AccountService } from '../account/account-service';
import type { ChannelService } from './channel-service';
import type { BankDepositService } from './bank-deposit-service';
import type { QrCodesTable, DepositDb } from './tables';

export interface QrRules {
  /** How long a QR can be paid. */
  ttlSeconds: number;
  /** Minimums in minor units, per currency and provider (PAYTIMZ and ZPAY configurable). */
  minimums: Record<Currency, Record<QrProvider, number>>;
  /** Largest QR amount in minor units, per currency. */
  maximum: Record<Currency, number>;
}

/** A payment the gateway reports by its webhook. */
export interface GatewayPayment {
  provider: QrProvider;
  paymentId: string;
  reference: string;
  amount: number;
  currency: Currency;
  paidAt: Date;
}

const REFERENCE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A QR reference for ref1 of the bill-payment QR: 16 characters from A–Z and 2–9. */
function newReference(): string {
  return Array.from({ length: 16 }, () => REFERENCE_ALPHABET[randomInt(0, REFERENCE_ALPHABET.length)]).join('');
}

/** One currency's QR minimums in minor units: the contract's figures (major units), PAYTIMZ and ZPAY overridable. */
export function defaultMinimums(overrides: { PAYTIMZ?: number; ZPAY?: number } = {}, currency: Currency = 'THB'): Record<QrProvider, number> {
  const figures = QR_MINIMUMS_BY_CURRENCY[currency === 'LAK' ? 'LAK' : 'BAHT'];
  return {
    WW: figures.WW * 100,
    PAYONEX: figures.PAYONEX * 100,
    PAYTIMZ: Math.round((overrides.PAYTIMZ ?? figures.PAYTIMZ) * 100),
    ZPAY: Math.round((overrides.ZPAY ?? figures.ZPAY) * 100),
    KBANK: figures.KBANK * 100,
  };
}

/**
 * QR deposits (spec sections 4, 5, 7, 9). A member has at most one open QR per provider; it
 * can be paid until it expires (ttlSeconds) and only once; cancel closes it. Money arrives only
 * by the gateway's signed webhook (`paid`), and the gateway is the source of truth: whatever our
 * QR's state (open, expired, cancelled, paid), a payment it reports is credited once per payment
 * id with the amount it says was paid. A payment for a reference we never issued is held as an
 * unmatched deposit for the operator.
 */
export class QrService {
  constructor(
    private readonly db: Kysely<DepositDb>,
    private readonly gateway: PaymentGateway,
    private readonly channels: ChannelService,
    private readonly accounts: AccountService,
    private readonly bankDeposits: BankDepositService,
    private readonly money: MoneyCore,
    private readonly rules: QrRules,
    private readonly now: () => number = Date.now,
  ) {
    // A QR code paid (once or more): PAID, what it received added up, the first payment's operation kept.
    money.credits.onCredited('qr_paid', async (trx, credited) => {
      await sql`UPDATE qr_codes q SET status = 'PAID', paid_amount = coalesce(q.paid_amount, 0) + x.amount, operation_id = coalesce(q.operation_id, x.op_id), updated_at = now()
        FROM (
          SELECT u.id, sum(u.amount)::bigint AS amount, min(u.op_id) AS op_id
          FROM unnest(${credited.map((c) => c.id)}::text[], ${credited.map((c) => c.operationId)}::text[], ${credited.map((c) => String(c.amount))}::bigint[]) AS u(id, op_id, amount)
          GROUP BY u.id
        ) x
        WHERE q.id = x.id`.execute(sameConnection<DepositDb>(trx));
    });
  }

  private state(row: Selectable<QrCodesTable> | undefined, message?: string): QrState {
    if (!row?.payload) return { hasQrcode: false, qrcodeId: null, qrcode: null, amount: null, expireIn: null, payload: null, ...(message ? { message } : {}) };
    return {
      hasQrcode: true,
      qrcodeId: row.id,
      qrcode: qrSvg(row.payload),
      amount: toBaht(Number(row.amount)),
      expireIn: Math.max(0, Math.floor((row.expires_at.getTime() - this.now()) / 1000)),
      payload: row.payload,
    };
  }

  /** A QR channel's figures for a member of this currency (GET /api/lookup/deposit): the minimum and the presets at or above it, in major units. */
  figures(code: string, currency: Currency): { minimum: number; presets: number[] } | null {
    const upper = code.toUpperCase();
    if (!isQrProvider(upper)) return null;
    const minimum = this.rules.minimums[currency][upper];
    const presets = QR_PRESETS_BY_CURRENCY[currency === 'LAK' ? 'LAK' : 'BAHT'][upper].filter((amount) => amount * 100 >= minimum && amount * 100 <= this.rules.maximum[currency]);
    return { minimum: toBaht(minimum), presets };
  }

  private provider(code: string): QrProvider {
    const upper = code.toUpperCase();
    if (!isQrProvider(upper)) throw notFound('NO_CHANNEL');
    return upper;
  }

  /**
   * Closes the member's open QRs at this provider whose time is up, and one whose create was cut
   * off before the gateway answered (no payload a minute later: nobody can have paid it).
   */
  private async expireOld(memberId: string, provider: string): Promise<void> {
    const now = new Date(this.now());
    await this.db
      .updateTable('qr_codes')
      .set({ status: 'EXPIRED', updated_at: now })
      .where('member_id', '=', memberId)
      .where('provider', '=', provider)
      .where('status', '=', 'OPEN')
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb.and([eb('payload', 'is', null), eb('created_at', '<', new Date(this.now() - 60_000))])]))
      .execute();
  }

  /** The member's open QR at this provider, if any. */
  async get(memberId: string, code: string): Promise<QrState> {
    const provider = this.provider(code);
    await this.expireOld(memberId, provider);
    const row = await this.db.selectFrom('qr_codes').selectAll().where('member_id', '=', memberId).where('provider', '=', provider).where('status', '=', 'OPEN').executeTakeFirst();
    return this.state(row);
  }

  async create(memberId: string, code: string, amount: number): Promise<QrState> {
    const provider = this.provider(code);
    const member = await this.accounts.findById(memberId);
    const channel = member ? await this.channels.qrChannel(provider, member.currency) : null;
    if (!channel || !member || channel.currency !== member.currency) throw notFound('NO_CHANNEL');
    // The figures of the member's currency (never the baht figure read as kip).
    const currency = ledgerCurrency(member.currency);
    const minimum = this.rules.minimums[currency][provider];
    if (amount < minimum) throw badRequest('DEPOSIT_MINIMUM', { minimum: toBaht(minimum), currency });
    if (amount > this.rules.maximum[currency]) throw badRequest('DEPOSIT_MAXIMUM', { maximum: toBaht(this.rules.maximum[currency]), currency });
    // Money asked for: the member's deposit limits (and breaks) refuse it before any QR exists,
    // counting the QRs still open (asked for, not paid) with it.
    await this.money.policies.checkAsk({ memberId, amount, currency: ledgerCurrency(channel.currency), asked: await this.openAmount(memberId) });
    await this.expireOld(memberId, provider);
    const id = newId();
    const reference = newReference();
    const expiresAt = new Date(this.now() + this.rules.ttlSeconds * 1000);
    try {
      await this.db
        .insertInto('qr_codes')
        .values({ id, member_id: memberId, provider, reference, amount, currency: channel.currency, payload: null, gateway_ref: null, status: 'OPEN', expires_at: expiresAt, paid_amount: null, operation_id: null })
        .execute();
    } catch (error) {
      if (uniqueViolation(error) !== null) throw conflict('QR_ALREADY_OPEN');
      throw error;
    }
    let order;
    try {
      order = await this.gateway.createOrder({ provider, reference, amount, currency: ledgerCurrency(channel.currency), expiresAt });
    } catch {
      // The gateway refused or did not answer: the QR is closed, the member is told (QR_FAIL).
      await this.db.updateTable('qr_codes').set({ status: 'CANCELLED', updated_at: new Date() }).where('id', '=', id).execute();
      return this.state(undefined, 'QR_FAIL');
    }
    const row = await this.db
      .updateTable('qr_codes')
      .set({ payload: order.payload, gateway_ref: order.gatewayRef, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return this.state(row);
  }

  /** What the member's open, unexpired QRs ask for together (minor units). */
  private async openAmount(memberId: string): Promise<number> {
    const row = await this.db
      .selectFrom('qr_codes')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount'), eb.val('0')).as('total'))
      .where('member_id', '=', memberId)
      .where('status', '=', 'OPEN')
      .where('expires_at', '>', new Date(this.now()))
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  /** Cancels the member's own open QR (anyone else's, or one no longer open, is NO_QRCODE). */
  async cancel(memberId: string, qrcodeId: string): Promise<void> {
    const row = await this.db
      .updateTable('qr_codes')
      .set({ status: 'CANCELLED', updated_at: new Date() })
      .where('id', '=', qrcodeId)
      .where('member_id', '=', memberId)
      .where('status', '=', 'OPEN')
      .returning(['provider', 'gateway_ref'])
      .executeTakeFirst();
    if (!row) throw notFound('NO_QRCODE');
    if (row.gateway_ref) await this.gateway.cancelOrder(this.provider(row.provider), row.gateway_ref).catch(() => undefined);
  }

  /**
   * Asks the gateway about QRs whose payment webhook may never have come (a crash while it was
   * delivered, a gateway that stopped retrying): every QR not marked paid, older than `graceMs`,
   * from the last two days. A payment the gateway has is credited as its webhook would have been
   * (once per payment id); an expired or cancelled QR the gateway says was never paid is not
   * asked about again. Answers how many payments it credited.
   */
  async reconcile(graceMs: number): Promise<number> {
    const now = this.now();
    const rows = await this.db
      .selectFrom('qr_codes')
      .select(['id', 'provider', 'gateway_ref', 'status', 'expires_at'])
      .where('status', '<>', 'PAID')
      .where('reconciled_at', 'is', null)
      .where('gateway_ref', 'is not', null)
      .where('created_at', '<', new Date(now - graceMs))
      .where('created_at', '>', new Date(now - 2 * 86_400_000))
      .orderBy('created_at')
      .limit(200)
      .execute();
    let credited = 0;
    for (const row of rows) {
      const provider = this.provider(row.provider);
      const state = await this.gateway.lookupOrder(provider, row.gateway_ref ?? '').catch(() => null);
      if (!state) continue;
      if (state.status === 'PAID') {
        // A payment id not in the gateways' format is never a credit key: left for an operator (asked again next time).
        if (!PAYMENT_ID.test(state.paymentId)) continue;
        const result = await this.paid({ provider, paymentId: state.paymentId, reference: state.reference, amount: state.amount, currency: state.currency, paidAt: state.paidAt });
        if (result.credited) credited += 1;
      } else if (state.status === 'CANCELLED' || row.expires_at.getTime() < now - graceMs) {
        await this.db.updateTable('qr_codes').set({ reconciled_at: new Date(now) }).where('id', '=', row.id).where('status', '<>', 'PAID').execute();
      }
    }
    return credited;
  }

  /** The gateway reference of a QR (for the sandbox's "customer pays" route). */
  async gatewayRef(qrcodeId: string): Promise<string> {
    const row = await this.db.selectFrom('qr_codes').select('gateway_ref').where('id', '=', qrcodeId).executeTakeFirst();
    if (!row?.gateway_ref) throw notFound('NO_QRCODE');
    return row.gateway_ref;
  }

  /**
   * A payment the gateway reports (its webhook, verified). Credits the QR's member once per
   * payment id with the paid amount and marks the QR paid, whatever state it was in; a
   * reference we never issued is held as unmatched. Answers whether money moved now.
   */
  async paid(payment: GatewayPayment): Promise<{ credited: boolean; duplicate: boolean; unmatched: boolean }> {
    const qr = await this.db.selectFrom('qr_codes').selectAll().where('provider', '=', payment.provider).where('reference', '=', payment.reference).executeTakeFirst();
    const source = `gateway:${payment.provider}`;
    if (!qr || ledgerCurrency(qr.currency) !== payment.currency) {
      const held = await this.bankDeposits.hold({
        source,
        ref: payment.paymentId,
        channel: payment.provider,
        amount: payment.amount,
        currency: payment.currency,
        reason: qr ? 'CURRENCY_MISMATCH' : 'UNKNOWN_QR',
        receivedAt: payment.paidAt,
      });
      return { credited: false, duplicate: !held, unmatched: true };
    }
    const credit = await this.money.credits.credit({
      source,
      ref: payment.paymentId,
      memberId: qr.member_id,
      amount: payment.amount,
      currency: payment.currency,
      kind: 'deposit',
      from: payment.provider,
      note: null,
      // The QR is paid in the statement that credits it (whatever state it was in).
      tag: { name: 'qr_paid', id: qr.id },
    });
    // Held earlier under the same payment id (it came for an unknown reference first): settled now.
    if (credit.created) await this.bankDeposits.markAssigned(source, payment.paymentId, qr.member_id, credit.operationId);
    // Held by the member's deposit rules (over a limit, during a break): recorded, not credited.
    return { credited: credit.created && !credit.held, duplicate: !credit.created, unmatched: false };
  }
}
