import { randomInt } from 'node:crypto';
import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { toBaht } from '@mw/contract/money';
import type { SlipReasonCode } from '@mw/contract/errors';
import type { Slip } from '@mw/contract/wallet';
import { AppError, badRequest, uniqueViolation } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Idem, MoneyCore } from '../../money';
import { refuseOtherRequest } from '../../money';
import { creditOf } from '../../money';
import { ledgerCurrency, type Currency } from '../../money';
import { BANK_CODE, isTransRef, transferKey, type BankTransfer } from '../../providers/bank/bank';
import { sameConnection } from '../../db/database';
import { inBackground } from '../../db/priority';
import { ImageError, sniffImage } from '../../providers/slips/image';
import { SlipReaderBusy } from '../../providers/slips/reader-pool';
import type { SlipVerifier } from '../../providers/slips/verifier';
import type { AccountService } from '../account/account-service';
import type { SettingsService } from '../settings/settings-service';
import type { SlipLinks } from './slip-links';
import { BANK_TRANSFER_SOURCE } from './bank-deposit-service';
import type { ChannelService } from './channel-service';
import type { DepositChannelsTable, SlipsTable, DepositDb } from './tables';

type DepositChannelsRow = Selectable<DepositChannelsTable>;

export interface SlipSettings {
  uploadEnabled: boolean;
  /** Daily window (Asia/Bangkok, HH:MM) in which uploads are closed; from > to wraps midnight. */
  closedFrom: string;
  closedTo: string;
  /** A transfer older than this is EXPIRED_SLIP. */
  maxAgeMinutes: number;
}

/** A slip as the operator sees it. */
export interface OperatorSlip {
  id: string;
  memberId: string;
  username: string;
  reference: string;
  /**
   * Major units of `currency`; null while not known: a slip in progress whose transfer the bank
   * did not know yet is recorded with no amount (0), which is not an amount to show as ฿0.00.
   */
  amount: number | null;
  currency: 'THB' | 'LAK';
  /** The member's name, bank and account (`username` is the phone). */
  name: string;
  bankCode: string;
  bankAccountNo: string;
  status: 'PENDING' | 'SUCCESS' | 'FAILED';
  note: string | null;
  /** Sending bank and reference (`KBANK:0141...`) while the slip is in progress (for display only: nothing reads it back). */
  transferKey: string | null;
  createdAt: string;
  checkedAt: string | null;
  /** A private link to the image (see SlipLinks). */
  link: string;
}

export interface SlipTiming {
  /** A slip in progress is asked of the bank again when it was last asked this long ago. */
  recheckAfterMs: number;
  /** A slip whose reference the bank still does not know this long after the upload fails (UNSTABLE_REFNO_ON_SLIP). */
  pendingMaxMs: number;
}

type SlipRow = Pick<Selectable<SlipsTable>, 'id' | 'member_id' | 'reference' | 'amount' | 'status' | 'note' | 'transfer_bank' | 'transfer_ref' | 'created_at'>;
const SLIP_COLUMNS = ['id', 'member_id', 'reference', 'amount', 'status', 'note', 'transfer_bank', 'transfer_ref', 'created_at'] as const;

/** A slip's transfer: the sending bank and its reference, checked against the bank's format (never a joined string). */
interface SlipTransfer {
  bank: string;
  ref: string;
}

/** The transfer a slip in progress names (its own columns), or null when it names none. */
function transferOf(row: Pick<SlipRow, 'transfer_bank' | 'transfer_ref'>): SlipTransfer | null {
  return row.transfer_bank && row.transfer_ref ? { bank: row.transfer_bank, ref: row.transfer_ref } : null;
}

/** Whether the bank's answer is the transfer that was asked about (same sending bank and reference). */
function sameTransfer(asked: SlipTransfer, found: BankTransfer): boolean {
  return found.fromBankCode === asked.bank && found.transRef.toUpperCase() === asked.ref.toUpperCase();
}

/** The checks a verified transfer must pass, in order: a failure's reason, or the channel it went to. */
type Checked = { ok: true; channel: DepositChannelsRow } | { ok: false; reason: SlipReasonCode };

/** The defaults (SLIP_CLOSED_FROM, SLIP_CLOSED_TO, SLIP_MAX_AGE_MINUTES); an operator's `slip` setting overrides them. */
export const DEFAULT_SLIP_SETTINGS: SlipSettings = { uploadEnabled: true, closedFrom: '23:50', closedTo: '00:10', maxAgeMinutes: 60 };

/** Minutes since midnight in Asia/Bangkok (UTC+7, no daylight saving). */
function bangkokMinutes(at: number): number {
  const d = new Date(at + 7 * 3600_000);
  return d.getUTCHours() * 60 + d.getUTCMinutes();
}

function minutesOf(hhmm: string): number {
  const [h = '0', m = '0'] = hhmm.split(':');
  return Number(h) * 60 + Number(m);
}

/** The media type a stored image is served with: from its bytes, never from the upload's claims. */
function imageType(image: Buffer): string {
  const format = sniffImage(image);
  return format ? `image/${format}` : 'application/octet-stream';
}

/** How far a bank's transfer time may be ahead of our clock. */
const FUTURE_SKEW_MS = 10 * 60_000;

const REF_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const slipReference = () => `SL${Array.from({ length: 14 }, () => REF_ALPHABET[randomInt(0, REF_ALPHABET.length)]).join('')}`;

/**
 * Slip deposits: a member uploads the slip of a bank transfer; the slip's QR is read on the
 * server and the transfer looked up at the sending bank (SlipVerifier), then checked: to one of
 * our active bank accounts (DEST_ACC_INVALID), from the member's registered account (NOT_MATCH),
 * made at most maxAgeMinutes before the upload (EXPIRED_SLIP), never credited before by anyone —
 * slip or bank feed, the credit key is the sending bank + reference in both
 * (SLIP_REFNO_DUPLICATED; the member's own slip of the transfer in progress refuses a second
 * upload at the same moment). SUCCESS credits the bank's amount once through the money core. Every
 * verified upload is a slip record; a file that is not a readable image is refused before
 * anything is written.
 *
 * The reference is checked at the edge (the QR parser and the verifier: 6-40 letters and digits,
 * as banks issue them; anything else is INVALID_SLIP) and stored in its own columns with the
 * sending bank; the credit key is made from the transfer the bank returned, never from a stored
 * string split again. A slip of a transfer the bank knows is checked before it is recorded, so a
 * slip of someone else's transfer holds nothing; a slip in progress (the bank does not know the
 * reference yet) holds it only for its own member, never against the sender (their own slip, the
 * bank feed or an operator credits them; the squatter's slip then fails NOT_MATCH).
 *
 * In progress (PENDING) is a slip whose reference the bank did not know yet, or one whose upload
 * was cut off between its record and its credit (a crash). `recheck` (run periodically by the
 * module) asks the bank again for each: found, it passes the same checks and is credited or
 * fails; still unknown `pendingMaxMs` after the upload, it fails with UNSTABLE_REFNO_ON_SLIP. An
 * operator may decide first (`approve`, `reject`). Whoever is first wins: the credit is once per
 * transfer key, and a slip leaves PENDING only once.
 */
export class SlipService {
  constructor(
    private readonly db: Kysely<DepositDb>,
    private readonly verifier: SlipVerifier,
    private readonly channels: ChannelService,
    private readonly accounts: AccountService,
    private readonly settings: SettingsService,
    private readonly money: MoneyCore,
    private readonly links: SlipLinks,
    private readonly timing: SlipTiming = { recheckAfterMs: 20_000, pendingMaxMs: 30 * 60_000 },
    private readonly defaults: SlipSettings = DEFAULT_SLIP_SETTINGS,
    private readonly now: () => number = Date.now,
  ) {
    // A slip whose money is recorded is SUCCESS with the amount credited, in the credit's transaction.
    money.credits.onCredited('slip_success', async (trx, credited) => {
      await sql`UPDATE slips s SET status = 'SUCCESS', note = NULL, amount = u.amount
        FROM unnest(${credited.map((c) => c.id)}::text[], ${credited.map((c) => String(c.amount))}::bigint[]) AS u(id, amount)
        WHERE s.id = u.id`.execute(sameConnection<DepositDb>(trx));
    });
  }

  private async currentSettings(): Promise<SlipSettings> {
    return { ...this.defaults, ...(await this.settings.get<Partial<SlipSettings>>('slip', {})) };
  }

  /** The slip rules in force (GET /api/operator/slip-settings). */
  async rules(): Promise<SlipSettings> {
    return this.currentSettings();
  }

  /** An operator changes the slip rules (kept in the `slip` setting, over the configured defaults). */
  async setRules(rules: SlipSettings): Promise<SlipSettings> {
    await this.settings.set('slip', rules);
    return this.currentSettings();
  }

  private async open(): Promise<SlipSettings> {
    const settings = await this.currentSettings();
    const now = bangkokMinutes(this.now());
    const from = minutesOf(settings.closedFrom);
    const to = minutesOf(settings.closedTo);
    const closed = from <= to ? now >= from && now < to : now >= from || now < to;
    if (!settings.uploadEnabled || closed) throw new AppError(403, 'SLIP_UPLOAD_CLOSED');
    return settings;
  }

  private answer(row: SlipRow): Slip {
    return {
      _id: row.id,
      createdAt: row.created_at.toISOString(),
      amount: toBaht(Number(row.amount)),
      status: row.status,
      note: row.note,
      link: this.links.url(row.id),
      reference: row.reference,
    };
  }

  private async record(memberId: string, status: 'PENDING' | 'FAILED', note: SlipReasonCode | null, amount: number, transfer: SlipTransfer | null, image: Buffer, request: { idem: Idem; status: number } | null): Promise<SlipRow> {
    // Only what a bank issues is written (the table's CHECK says so too).
    if (transfer && (!BANK_CODE.test(transfer.bank) || !isTransRef(transfer.ref))) throw new AppError(400, 'INVALID_SLIP');
    // The image is 0.1-1 MB: stored at background priority, after the calls waiting for the embedded database.
    return inBackground(() =>
      this.db
        .insertInto('slips')
        .values({ id: newId(), member_id: memberId, reference: slipReference(), amount, status, note, image_path: null, transfer_bank: transfer?.bank ?? null, transfer_ref: transfer?.ref ?? null, image, image_type: imageType(image), request_key: request?.idem.key ?? null, request_hash: request?.idem.hash ?? null, request_status: request?.status ?? null })
        .returning(SLIP_COLUMNS)
        .executeTakeFirstOrThrow(),
    );
  }

  /** A refusal that is also a slip record (FAILED with its reason): the answer carries both. */
  private async refuse(memberId: string, status: number, reason: SlipReasonCode, amount: number, image: Buffer, idem: Idem | null, extra: Record<string, unknown> = {}): Promise<never> {
    // A 5xx is given back to the client to send again (the route layer keeps no answer): not under its key.
    const row = await this.record(memberId, 'FAILED', reason, amount, null, image, idem && status < 500 ? { idem, status } : null);
    throw new AppError(status, reason, { ...this.answer(row), ...extra });
  }

  async upload(memberId: string, image: Buffer | null, maxBytes: number, idem: Idem | null = null): Promise<Slip> {
    // Run again under its key after the answer was lost (the process died): the slip the first run
    // recorded answers, with its first answer's status (the key with another file is refused).
    const earlier = idem ? await this.db.selectFrom('slips').select([...SLIP_COLUMNS, 'request_hash', 'request_status']).where('member_id', '=', memberId).where('request_key', '=', idem.key).executeTakeFirst() : undefined;
    if (earlier && idem) {
      refuseOtherRequest(earlier.request_hash, idem);
      return this.again(earlier, earlier.request_status);
    }
    const settings = await this.open();
    if (!image) throw new AppError(400, 'SLIP_NO_FILE');
    // A file part that carries no bytes: the picked file did not arrive (deleted, cloud-only, cut off).
    if (image.length === 0) throw new AppError(400, 'UPLOADED_FILE_NOT_EXIST');
    if (image.length > maxBytes) throw new AppError(400, 'IMG_SIZE_UNABLE_TO_PROCESS');
    if (!sniffImage(image)) throw new AppError(400, 'SLIP_INVALID_FILE');
    let verdict;
    try {
      verdict = await this.verifier.verify(image);
    } catch (error) {
      // Every slip reader busy and the queue full: nothing written, the member sends it again.
      if (error instanceof SlipReaderBusy) throw new AppError(503, 'BUSY', { retryAfter: error.retryAfterSeconds });
      if (!(error instanceof ImageError)) throw error;
      throw new AppError(400, error.reason === 'TOO_LARGE' || error.reason === 'TOO_SMALL' ? 'IMG_SIZE_UNABLE_TO_PROCESS' : 'SLIP_INVALID_FILE');
    }
    if (!verdict.ok) {
      if (verdict.reason === 'UNSTABLE_REFNO_ON_SLIP') return this.pending(memberId, { bank: verdict.sendingBank, ref: verdict.transRef }, image, idem);
      const status = verdict.reason === 'TRIPPLE_WRONG_CAPTCHA' || verdict.reason === 'UNKNOW_ERROR' ? 502 : 400;
      return this.refuse(memberId, status, verdict.reason, 0, image, idem);
    }
    // The bank answered another transfer than the slip names: not a slip of it.
    if (!sameTransfer({ bank: verdict.sendingBank, ref: verdict.transRef }, verdict.transfer)) return this.refuse(memberId, 400, 'INVALID_SLIP', 0, image, idem);
    const checked = await this.check(memberId, verdict.transfer, new Date(this.now()), settings);
    // Someone else's transfer: its amount is not the uploader's to learn, and the slip holds nothing.
    if (!checked.ok) return this.refuse(memberId, 400, checked.reason, checked.reason === 'NOT_MATCH' ? 0 : verdict.transfer.amount, image, idem);
    const transfer = { bank: verdict.transfer.fromBankCode, ref: verdict.transfer.transRef };
    let row;
    for (let attempt = 0; ; attempt++) {
      try {
        row = await this.record(memberId, 'PENDING', null, verdict.transfer.amount, transfer, image, idem && { idem, status: 200 });
        break;
      } catch (error) {
        if (uniqueViolation(error) === null) throw error;
        // The member's own earlier slip of this transfer that the bank did not know (in progress,
        // UNSTABLE_REFNO_ON_SLIP: a variant of the reference, or uploaded before the bank had it)
        // never holds back the slip the bank confirms: it fails, and this one goes on, once.
        if (attempt > 0 || !(await this.supersedeUnverified(memberId, transfer))) {
          return this.refuse(memberId, 409, 'SLIP_REFNO_DUPLICATED', verdict.transfer.amount, image, idem, await this.creditedBefore(memberId, verdict.transfer));
        }
      }
    }
    const settled = await this.credit(row, verdict.transfer, verdict.transfer.amount, verdict.transfer.currency, checked.channel.bank_code);
    if (settled.status !== 'SUCCESS') {
      // Answered as a refusal after all: so is a re-run under the key.
      if (idem) await this.db.updateTable('slips').set({ request_status: 409 }).where('id', '=', settled.id).execute();
      throw new AppError(409, 'SLIP_REFNO_DUPLICATED', { ...this.answer(settled), ...(await this.creditedBefore(memberId, verdict.transfer)) });
    }
    return this.answer(settled);
  }

  /**
   * The answer of a slip recorded under the call's key, to the call run again, with the status the
   * first answer had: 200 (in progress or credited then) answers the slip as it is now; a refusal
   * (400, or 409 for a transfer credited before, with when and how much when the slip names it)
   * answers that refusal again. A 5xx is never recorded under a key.
   */
  private async again(row: SlipRow, firstStatus: number | null): Promise<Slip> {
    const status = firstStatus ?? (row.status === 'FAILED' ? (row.note === 'SLIP_REFNO_DUPLICATED' ? 409 : 400) : 200);
    if (status === 200) return this.answer(row);
    const reason = (row.note ?? 'INVALID_SLIP') as SlipReasonCode;
    if (status !== 409) throw new AppError(status, reason, this.answer(row));
    const credited = row.transfer_bank && row.transfer_ref ? await this.creditedBefore(row.member_id, { fromBankCode: row.transfer_bank, transRef: row.transfer_ref }) : {};
    throw new AppError(409, reason, { ...this.answer(row), ...credited });
  }

  /**
   * An already-credited transfer's credit, for the member it was credited to: when and how much
   * (`creditedAt`, `creditedAmount`; contract error-details.ts). Nothing for anyone else's.
   */
  private async creditedBefore(memberId: string, transfer: { fromBankCode: string; transRef: string }): Promise<Record<string, unknown>> {
    const credit = await creditOf(this.db, BANK_TRANSFER_SOURCE, transferKey(transfer.fromBankCode, transfer.transRef));
    return credit && credit.memberId === memberId ? { creditedAt: credit.at.toISOString(), creditedAmount: toBaht(credit.amount) } : {};
  }

  /**
   * Whether a reference the bank does not know is a copy of a credited slip's from the same bank:
   * the same in another case, or one character off (changed, added or dropped). Such a slip is
   * refused at upload (409 SLIP_REFNO_DUPLICATED) rather than left in progress for an operator to
   * credit again; a real transfer it resembles is checked normally once the bank knows it.
   */
  private async nearCredited(transfer: SlipTransfer): Promise<boolean> {
    const ref = transfer.ref.trim().toUpperCase();
    const rows = await this.db
      .selectFrom('slips')
      .select('transfer_ref')
      .where('status', '=', 'SUCCESS')
      .where('transfer_bank', '=', transfer.bank)
      .where(sql<boolean>`length(transfer_ref) BETWEEN ${ref.length - 1} AND ${ref.length + 1}`)
      .where('created_at', '>', new Date(this.now() - NEAR_REFERENCE_DAYS * 86_400_000))
      .limit(5000)
      .execute();
    return rows.some((r) => r.transfer_ref !== null && withinOneEdit(r.transfer_ref.toUpperCase(), ref));
  }

  /** The bank does not know the reference yet: in progress (checked again later). */
  private async pending(memberId: string, transfer: SlipTransfer, image: Buffer, idem: Idem | null): Promise<Slip> {
    if (await this.nearCredited(transfer)) return this.refuse(memberId, 409, 'SLIP_REFNO_DUPLICATED', 0, image, idem);
    try {
      return this.answer(await this.record(memberId, 'PENDING', 'UNSTABLE_REFNO_ON_SLIP', 0, transfer, image, idem && { idem, status: 200 }));
    } catch (error) {
      if (uniqueViolation(error) === null) throw error;
      return this.refuse(memberId, 409, 'SLIP_REFNO_DUPLICATED', 0, image, idem);
    }
  }

  /** The business checks of a transfer the bank confirmed, for a slip uploaded at `uploadedAt`. */
  private async check(memberId: string, transfer: BankTransfer, uploadedAt: Date, settings: SlipSettings): Promise<Checked> {
    const channel = await this.channels.byAccount(transfer.toBankCode, transfer.toAccountNo);
    if (!channel?.active || channel.kind !== 'bank') return { ok: false, reason: 'DEST_ACC_INVALID' };
    const [member, registered] = await Promise.all([this.accounts.findById(memberId), this.accounts.findByBankAccount(transfer.fromBankCode, transfer.fromAccountNo)]);
    if (!member || registered?.id !== memberId) return { ok: false, reason: 'NOT_MATCH' };
    if (ledgerCurrency(member.currency) !== transfer.currency || ledgerCurrency(channel.currency) !== transfer.currency) return { ok: false, reason: 'NOT_MATCH' };
    if (uploadedAt.getTime() - transfer.at.getTime() > settings.maxAgeMinutes * 60_000) return { ok: false, reason: 'EXPIRED_SLIP' };
    // A transfer dated after the upload (beyond clock skew) is not what a real slip shows.
    if (transfer.at.getTime() - uploadedAt.getTime() > FUTURE_SKEW_MS) return { ok: false, reason: 'INVALID_SLIP' };
    return { ok: true, channel };
  }

  /**
   * Credits a slip in progress and answers the slip as it then is: SUCCESS (this credit, or a
   * concurrent one of the same slip), or FAILED SLIP_REFNO_DUPLICATED when the transfer was
   * credited before by something else. The credit's key is the transfer's (sending bank +
   * reference, as the bank feed's): the one the bank returned, or — for an operator's approval of a
   * transfer the bank does not know — the slip's own checked columns; never a string split again.
   */
  private async credit(row: SlipRow, transfer: { fromBankCode: string; transRef: string }, amount: number, currency: 'THB' | 'LAK', from: string): Promise<SlipRow> {
    const credit = await this.money.credits.credit({
      source: BANK_TRANSFER_SOURCE,
      ref: transferKey(transfer.fromBankCode, transfer.transRef),
      memberId: row.member_id,
      amount,
      currency,
      kind: 'deposit',
      from,
      note: null,
      tag: { name: 'slip_success', id: row.id },
    });
    if (!credit.created) {
      // Credited before (by the bank feed, another slip of the same transfer): this slip fails —
      // unless this very slip was credited by someone else at the same moment (the hook made it SUCCESS).
      await this.finish(row.id, 'SLIP_REFNO_DUPLICATED');
    }
    return this.db.selectFrom('slips').select(SLIP_COLUMNS).where('id', '=', row.id).executeTakeFirstOrThrow();
  }

  /** Fails the member's unverified slips in progress of this transfer (same bank, reference in any case); true when there was one. */
  private async supersedeUnverified(memberId: string, transfer: SlipTransfer): Promise<boolean> {
    const done = await this.db
      .updateTable('slips')
      .set({ status: 'FAILED', note: 'SLIP_REFNO_DUPLICATED' })
      .where('member_id', '=', memberId)
      .where('status', '=', 'PENDING')
      .where('note', '=', 'UNSTABLE_REFNO_ON_SLIP')
      .where('transfer_bank', '=', transfer.bank)
      .where((eb) => eb(eb.fn('upper', ['transfer_ref']), '=', transfer.ref.toUpperCase()))
      .executeTakeFirst();
    return Number(done.numUpdatedRows) > 0;
  }

  /** A slip in progress fails with `reason` (a failed slip holds nothing); false when it was no longer in progress. */
  private async finish(id: string, reason: SlipReasonCode, amount?: number): Promise<boolean> {
    const done = await this.db
      .updateTable('slips')
      .set({ status: 'FAILED', note: reason, ...(amount !== undefined ? { amount } : {}) })
      .where('id', '=', id)
      .where('status', '=', 'PENDING')
      .executeTakeFirst();
    return Number(done.numUpdatedRows) > 0;
  }

  /**
   * Drops the images of refused slips older than `days` (their rows stay: the statement lists
   * them, and their image link then answers 404). Credited and pending slips keep their images.
   * Answers how many images were dropped.
   */
  async dropRefusedImages(days: number, at = Date.now()): Promise<number> {
    const done = await this.db
      .updateTable('slips')
      .set({ image: null, image_type: null })
      .where('status', '=', 'FAILED')
      .where('image', 'is not', null)
      .where('created_at', '<', new Date(at - days * 86_400_000))
      .executeTakeFirst();
    return Number(done.numUpdatedRows);
  }

  /**
   * Asks the bank again about slips in progress (at most `limit`, claimed so that several server
   * processes do not ask about the same slip at once). A bank that fails is asked again next time.
   * `at` stands for the clock (tests look into the future with it).
   */
  async recheck(options: { limit?: number; at?: number } = {}): Promise<{ checked: number; credited: number; failed: number }> {
    const limit = options.limit ?? 20;
    const now = new Date(options.at ?? this.now());
    const settled = new Date(now.getTime() - this.timing.recheckAfterMs);
    const claimed = await this.db
      .updateTable('slips')
      .set({ checked_at: now })
      .where('id', 'in', (qb) =>
        qb
          .selectFrom('slips')
          .select('id')
          .where('status', '=', 'PENDING')
          .where('transfer_ref', 'is not', null)
          .where('created_at', '<', settled)
          .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<', settled)]))
          .orderBy('created_at')
          .limit(limit)
          .forUpdate()
          .skipLocked(),
      )
      .returning(SLIP_COLUMNS)
      .execute();
    const settings = await this.currentSettings();
    let credited = 0;
    let failed = 0;
    for (const row of claimed) {
      const outcome = await this.decide(row, settings, now);
      if (outcome === 'SUCCESS') credited += 1;
      if (outcome === 'FAILED') failed += 1;
    }
    return { checked: claimed.length, credited, failed };
  }

  private async decide(row: SlipRow, settings: SlipSettings, now: Date): Promise<'SUCCESS' | 'FAILED' | 'PENDING'> {
    const asked = transferOf(row);
    if (!asked) return (await this.finish(row.id, 'INVALID_SLIP')) ? 'FAILED' : 'PENDING';
    const verdict = await this.verifier.lookup(asked.bank, asked.ref);
    if (verdict.ok && !sameTransfer(asked, verdict.transfer)) return (await this.finish(row.id, 'INVALID_SLIP')) ? 'FAILED' : 'PENDING';
    if (!verdict.ok) {
      if (verdict.reason !== 'UNSTABLE_REFNO_ON_SLIP') return 'PENDING';
      if (now.getTime() - row.created_at.getTime() < this.timing.pendingMaxMs) return 'PENDING';
      return (await this.finish(row.id, 'UNSTABLE_REFNO_ON_SLIP')) ? 'FAILED' : 'PENDING';
    }
    const checked = await this.check(row.member_id, verdict.transfer, row.created_at, settings);
    if (!checked.ok) return (await this.finish(row.id, checked.reason, checked.reason === 'NOT_MATCH' ? 0 : verdict.transfer.amount)) ? 'FAILED' : 'PENDING';
    const after = await this.credit(row, verdict.transfer, verdict.transfer.amount, verdict.transfer.currency, checked.channel.bank_code);
    return after.status;
  }

  /** Slips for the back office, newest first (50 a page), optionally of one status. */
  async list(status: 'PENDING' | 'SUCCESS' | 'FAILED' | undefined, page: number): Promise<{ slips: OperatorSlip[] }> {
    let query = this.db
      .selectFrom('slips')
      .innerJoin('member_view as members', 'members.id', 'slips.member_id')
      .select(['slips.id', 'slips.member_id', 'members.username', 'members.name', 'members.bank_code', 'members.bank_account_no', 'members.currency', 'slips.reference', 'slips.amount', 'slips.status', 'slips.note', 'slips.transfer_bank', 'slips.transfer_ref', 'slips.created_at', 'slips.checked_at'])
      .orderBy('slips.created_at', 'desc')
      .orderBy('slips.id', 'desc')
      .limit(50)
      .offset((page - 1) * 50);
    if (status) query = query.where('slips.status', '=', status);
    const rows = await query.execute();
    return {
      slips: rows.map((r) => ({
        id: r.id,
        memberId: r.member_id,
        username: r.username,
        reference: r.reference,
        amount: Number(r.amount) > 0 ? toBaht(Number(r.amount)) : null,
        currency: ledgerCurrency(r.currency),
        name: r.name,
        bankCode: r.bank_code,
        bankAccountNo: r.bank_account_no,
        status: r.status,
        note: r.note,
        // Shown while the slip is in progress (for the operator to look the transfer up).
        transferKey: r.status === 'PENDING' && r.transfer_bank && r.transfer_ref ? `${r.transfer_bank}:${r.transfer_ref}` : null,
        createdAt: r.created_at.toISOString(),
        checkedAt: r.checked_at ? r.checked_at.toISOString() : null,
        link: this.links.url(r.id),
      })),
    };
  }

  /**
   * Reports: a subquery of the transfer keys (as the bank feed keys its credits, BANK:REF) that
   * credited slips brought, so a report tells a slip's deposit from the bank feed's.
   */
  creditedTransfers(): RawBuilder<string> {
    return sql<string>`SELECT transfer_bank || ':' || upper(transfer_ref) FROM slips WHERE status = 'SUCCESS' AND transfer_bank IS NOT NULL AND transfer_ref IS NOT NULL`;
  }

  /** Slips in progress (the back office's queue): how many and the oldest upload. */
  async pendingSummary(): Promise<{ count: number; oldestAt: string | null }> {
    const row = await this.db
      .selectFrom('slips')
      .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('created_at').as('oldest')])
      .where('status', '=', 'PENDING')
      .executeTakeFirst();
    const oldest = row?.oldest as Date | null | undefined;
    return { count: Number(row?.n ?? 0), oldestAt: oldest ? new Date(oldest).toISOString() : null };
  }

  private async inProgress(id: string): Promise<SlipRow> {
    const row = await this.db.selectFrom('slips').select(SLIP_COLUMNS).where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError(404, 'NO_SLIP');
    if (row.status !== 'PENDING' || !transferOf(row)) throw new AppError(409, 'SLIP_NOT_PENDING', { status: row.status });
    return row;
  }

  /**
   * An operator credits a slip in progress — having seen the money on the account. When the bank
   * knows the transfer, it must pass the same checks as an upload (to one of our accounts, from
   * the member's registered account, in the member's currency, not too old for the upload) and its
   * amount is the bank's whatever the operator says; a failed check is refused with its reason
   * (409, nothing moves: reject the slip instead). When the bank does not know it (yet), the
   * operator's amount is credited in the member's currency (required then). Either way the credit's
   * key is the slip's transfer, so the bank feed or another slip of it later moves nothing.
   */
  async approve(id: string, amount: number | undefined, bankRef?: string): Promise<Slip> {
    const row = await this.inProgress(id);
    const member = await this.accounts.findById(row.member_id);
    if (!member) throw new AppError(404, 'NO_SLIP');
    const asked = transferOf(row);
    if (!asked) throw new AppError(409, 'SLIP_NOT_PENDING', { status: row.status });
    const found = await this.verifier.lookup(asked.bank, asked.ref);
    if (!found.ok && found.reason !== 'UNSTABLE_REFNO_ON_SLIP') throw new AppError(502, found.reason);
    let after: SlipRow;
    if (found.ok) {
      if (!sameTransfer(asked, found.transfer)) throw new AppError(409, 'INVALID_SLIP', { slipId: row.id });
      const checked = await this.check(row.member_id, found.transfer, row.created_at, await this.currentSettings());
      if (!checked.ok) throw new AppError(409, checked.reason, { slipId: row.id });
      after = await this.credit(row, found.transfer, found.transfer.amount, found.transfer.currency, checked.channel.bank_code);
    } else {
      // The bank does not know the slip's reference: the operator, who saw the money on the
      // account, names the amount and the bank's own reference of it. The credit is keyed by that
      // reference, so a look-alike of the slip's (another case, a character off) cannot be credited
      // by another approval, and the bank's feed of the named transfer moves nothing later.
      if (amount === undefined) throw badRequest('KEY_MISSING', { fields: [{ path: 'amount', code: 'required' }] });
      const named = bankRef?.trim().toUpperCase();
      if (!named) throw badRequest('KEY_MISSING', { fields: [{ path: 'bankRef', code: 'required' }] });
      const known = await this.verifier.lookup(asked.bank, named);
      if (known.ok) {
        const checked = await this.check(row.member_id, known.transfer, row.created_at, await this.currentSettings());
        if (!checked.ok) throw new AppError(409, checked.reason, { slipId: row.id });
        after = await this.credit(row, known.transfer, known.transfer.amount, known.transfer.currency, checked.channel.bank_code);
      } else {
        after = await this.credit(row, { fromBankCode: asked.bank, transRef: named }, amount, ledgerCurrency(member.currency), 'SLIP');
      }
    }
    if (after.status !== 'SUCCESS') throw new AppError(409, 'SLIP_REFNO_DUPLICATED', { ...this.answer(after) });
    return this.answer(after);
  }

  /**
   * Whether approving this slip with `bankRef` would credit the operator's typed amount (neither
   * the slip's reference nor `bankRef` known to the bank): then the approval is a manual credit and
   * four eyes apply to it as to one (deposit/operator-routes.ts). Answers the member and the
   * currency of that credit; null when the bank's own amount would be credited (or the approval
   * would be refused: `approve` says why).
   */
  async typedCredit(id: string, bankRef: string | undefined): Promise<{ memberId: string; currency: Currency } | null> {
    const row = await this.inProgress(id);
    const asked = transferOf(row);
    const named = bankRef?.trim().toUpperCase();
    if (!asked || !named) return null;
    const found = await this.verifier.lookup(asked.bank, asked.ref);
    if (found.ok || found.reason !== 'UNSTABLE_REFNO_ON_SLIP') return null;
    if ((await this.verifier.lookup(asked.bank, named)).ok) return null;
    const member = await this.accounts.findById(row.member_id);
    return member ? { memberId: member.id, currency: ledgerCurrency(member.currency) } : null;
  }

  /** An operator refuses a slip in progress with one of the slip reasons (INVALID_SLIP unless told). */
  async reject(id: string, reason: SlipReasonCode): Promise<Slip> {
    const row = await this.inProgress(id);
    if (!(await this.finish(row.id, reason))) throw new AppError(409, 'SLIP_NOT_PENDING');
    return this.answer({ ...row, status: 'FAILED', note: reason });
  }
}

/** How far back a reference the bank does not know is compared with credited slips' references. */
const NEAR_REFERENCE_DAYS = 30;

/** Whether two references differ by at most one character changed, added or dropped. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  // One changed (same length) or one added to the longer: the rest must then match.
  return short.length === long.length ? short.slice(i + 1) === long.slice(i + 1) : short.slice(i) === long.slice(i + 1);
}
