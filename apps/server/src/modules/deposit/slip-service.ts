import { randomInt } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import { toBaht } from '@mw/contract/money';
import type { SlipReasonCode } from '@mw/contract/errors';
import type { Slip } from '@mw/contract/wallet';
import type { DB } from '../../db/schema';
import { AppError, uniqueViolation } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { MoneyCore } from '../../money/core';
import { ledgerCurrency } from '../../money/ledger';
import { transferKey, type BankTransfer } from '../../providers/bank/bank';
import { ImageError, sniffImage } from '../../providers/slips/image';
import type { SlipVerifier } from '../../providers/slips/verifier';
import type { AccountService } from '../account/account-service';
import type { SettingsService } from '../settings/settings-service';
import type { SlipsTable } from '../statement/tables';
import { BANK_TRANSFER_SOURCE } from './bank-deposit-service';
import type { ChannelService } from './channel-service';

interface SlipSettings {
  uploadEnabled: boolean;
  /** Daily window (Asia/Bangkok, HH:MM) in which uploads are closed; from > to wraps midnight. */
  closedFrom: string;
  closedTo: string;
  /** A transfer older than this is EXPIRED_SLIP. */
  maxAgeMinutes: number;
}

const DEFAULT_SETTINGS: SlipSettings = { uploadEnabled: true, closedFrom: '23:50', closedTo: '00:10', maxAgeMinutes: 60 };

/** Minutes since midnight in Asia/Bangkok (UTC+7, no daylight saving). */
function bangkokMinutes(at: number): number {
  const d = new Date(at + 7 * 3600_000);
  return d.getUTCHours() * 60 + d.getUTCMinutes();
}

function minutesOf(hhmm: string): number {
  const [h = '0', m = '0'] = hhmm.split(':');
  return Number(h) * 60 + Number(m);
}

const REF_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const slipReference = () => `SL${Array.from({ length: 14 }, () => REF_ALPHABET[randomInt(0, REF_ALPHABET.length)]).join('')}`;

/**
 * Slip deposits: a member uploads the slip of a bank transfer; the slip's QR is read on the
 * server and the transfer looked up at the sending bank (SlipVerifier), then checked: to one of
 * our active bank accounts (DEST_ACC_INVALID), from the member's registered account (NOT_MATCH),
 * not older than maxAgeMinutes (EXPIRED_SLIP), never credited before by anyone — slip or bank
 * feed, the credit key is the sending bank + reference in both (SLIP_REFNO_DUPLICATED; a unique
 * key on the slips in progress or credited refuses two uploads at the same moment). SUCCESS
 * credits the bank's amount once through the money core. Every verified upload is a slip record;
 * a file that is not a readable image is refused before anything is written.
 */
export class SlipService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly verifier: SlipVerifier,
    private readonly channels: ChannelService,
    private readonly accounts: AccountService,
    private readonly settings: SettingsService,
    private readonly money: MoneyCore,
    private readonly now: () => number = Date.now,
  ) {
    money.credits.registerHook('slip_success', (name, rows) =>
      sql`${sql.ref(name)} AS (
        UPDATE slips s SET status = 'SUCCESS', note = NULL, amount = x.amount
        FROM (SELECT u.id, u.amount FROM unnest(${rows.ids}::text[], ${rows.operationIds}::text[], ${rows.amounts.map(String)}::bigint[]) AS u(id, op_id, amount)
          JOIN op ON op.id = u.op_id) x
        WHERE s.id = x.id)`,
    );
  }

  private async open(): Promise<SlipSettings> {
    const settings = { ...DEFAULT_SETTINGS, ...(await this.settings.get<Partial<SlipSettings>>('slip', DEFAULT_SETTINGS)) };
    const now = bangkokMinutes(this.now());
    const from = minutesOf(settings.closedFrom);
    const to = minutesOf(settings.closedTo);
    const closed = from <= to ? now >= from && now < to : now >= from || now < to;
    if (!settings.uploadEnabled || closed) throw new AppError(403, 'SLIP_UPLOAD_CLOSED');
    return settings;
  }

  private answer(row: Selectable<SlipsTable>): Slip {
    return {
      _id: row.id,
      createdAt: row.created_at.toISOString(),
      amount: toBaht(Number(row.amount)),
      status: row.status,
      note: row.note,
      link: '',
      reference: row.reference,
    };
  }

  private async record(memberId: string, status: 'PENDING' | 'FAILED', note: SlipReasonCode | null, amount: number, key: string | null, image: Buffer): Promise<Selectable<SlipsTable>> {
    return this.db
      .insertInto('slips')
      .values({ id: newId(), member_id: memberId, reference: slipReference(), amount, status, note, image_path: null, transfer_key: key, image, image_type: sniffImage(image) ?? 'application/octet-stream' })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** A refusal that is also a slip record (FAILED with its reason): the answer carries both. */
  private async refuse(memberId: string, status: number, reason: SlipReasonCode, amount: number, image: Buffer): Promise<never> {
    const row = await this.record(memberId, 'FAILED', reason, amount, null, image);
    throw new AppError(status, reason, { ...this.answer(row) });
  }

  async upload(memberId: string, image: Buffer | null, maxBytes: number): Promise<Slip> {
    const settings = await this.open();
    if (!image || image.length === 0) throw new AppError(400, 'SLIP_NO_FILE');
    if (image.length > maxBytes) throw new AppError(400, 'IMG_SIZE_UNABLE_TO_PROCESS');
    if (!sniffImage(image)) throw new AppError(400, 'SLIP_INVALID_FILE');
    let verdict;
    try {
      verdict = await this.verifier.verify(image);
    } catch (error) {
      if (!(error instanceof ImageError)) throw error;
      throw new AppError(400, error.reason === 'TOO_LARGE' || error.reason === 'TOO_SMALL' ? 'IMG_SIZE_UNABLE_TO_PROCESS' : 'SLIP_INVALID_FILE');
    }
    if (!verdict.ok) {
      if (verdict.reason === 'UNSTABLE_REFNO_ON_SLIP') return this.pending(memberId, transferKey(verdict.sendingBank, verdict.transRef), image);
      const status = verdict.reason === 'TRIPPLE_WRONG_CAPTCHA' || verdict.reason === 'UNKNOW_ERROR' ? 502 : 400;
      return this.refuse(memberId, status, verdict.reason, 0, image);
    }
    return this.settle(memberId, verdict.transfer, settings, image);
  }

  /** The bank does not know the reference yet: in progress (checked again later). */
  private async pending(memberId: string, key: string, image: Buffer): Promise<Slip> {
    try {
      return this.answer(await this.record(memberId, 'PENDING', 'UNSTABLE_REFNO_ON_SLIP', 0, key, image));
    } catch (error) {
      if (uniqueViolation(error) === null) throw error;
      return this.refuse(memberId, 409, 'SLIP_REFNO_DUPLICATED', 0, image);
    }
  }

  private async settle(memberId: string, transfer: BankTransfer, settings: SlipSettings, image: Buffer): Promise<Slip> {
    const channel = await this.channels.byAccount(transfer.toBankCode, transfer.toAccountNo);
    if (!channel?.active || channel.kind !== 'bank') return this.refuse(memberId, 400, 'DEST_ACC_INVALID', transfer.amount, image);
    const [member, registered] = await Promise.all([this.accounts.findById(memberId), this.accounts.findByBankAccount(transfer.fromBankCode, transfer.fromAccountNo)]);
    if (!member || registered?.id !== memberId) return this.refuse(memberId, 400, 'NOT_MATCH', transfer.amount, image);
    if (ledgerCurrency(member.currency) !== transfer.currency || ledgerCurrency(channel.currency) !== transfer.currency) return this.refuse(memberId, 400, 'NOT_MATCH', transfer.amount, image);
    if (this.now() - transfer.at.getTime() > settings.maxAgeMinutes * 60_000) return this.refuse(memberId, 400, 'EXPIRED_SLIP', transfer.amount, image);
    const key = transferKey(transfer.fromBankCode, transfer.transRef);
    let row;
    try {
      row = await this.record(memberId, 'PENDING', null, transfer.amount, key, image);
    } catch (error) {
      if (uniqueViolation(error) === null) throw error;
      return this.refuse(memberId, 409, 'SLIP_REFNO_DUPLICATED', transfer.amount, image);
    }
    const credit = await this.money.credits.credit({
      source: BANK_TRANSFER_SOURCE,
      ref: key,
      memberId,
      amount: transfer.amount,
      currency: transfer.currency,
      kind: 'deposit',
      from: channel.bank_code,
      note: null,
      tag: { hook: 'slip_success', id: row.id },
    });
    if (!credit.created) {
      // Credited before (by the bank feed, or another slip of the same transfer): this one fails.
      await this.db.updateTable('slips').set({ status: 'FAILED', note: 'SLIP_REFNO_DUPLICATED', transfer_key: null }).where('id', '=', row.id).execute();
      throw new AppError(409, 'SLIP_REFNO_DUPLICATED', { ...this.answer({ ...row, status: 'FAILED', note: 'SLIP_REFNO_DUPLICATED' }) });
    }
    return this.answer({ ...row, status: 'SUCCESS', note: null });
  }
}
