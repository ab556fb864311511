import { EmvcoError, parseSlipPayload, SLIP_BANK_CODES } from '../../lib/emvco';
import { BANK_CODE, BankLookupError, isTransRef, type Bank, type BankTransfer } from '../bank/bank';
import { readSlipQr } from './qr-reader';

/** What reading a slip and asking the bank found (the business checks come after: see the slip service). */
export type SlipVerdict =
  | { ok: true; sendingBank: string; transRef: string; transfer: BankTransfer }
  | { ok: false; reason: 'CANNOT_READ_CROPPED_IMAGE' | 'INVALID_SLIP'; sendingBank?: undefined; transRef?: undefined }
  | { ok: false; reason: 'UNSTABLE_REFNO_ON_SLIP' | 'TRIPPLE_WRONG_CAPTCHA' | 'UNKNOW_ERROR'; sendingBank: string; transRef: string };

/**
 * Verifies a slip image: finds and decodes its slip-verify QR (spec reason
 * CANNOT_READ_CROPPED_IMAGE when there is none), checks that it is a slip payload with a good CRC
 * (INVALID_SLIP otherwise, a PromptPay QR included), then asks the sending bank for the transfer
 * by its reference: the amount, sender, receiver and time are the bank's, never the image's. A
 * reference the bank does not know (yet) is UNSTABLE_REFNO_ON_SLIP; a bank that fails answers
 * TRIPPLE_WRONG_CAPTCHA or UNKNOW_ERROR. File-level problems (not an image, too large or small)
 * throw ImageError before any of this; a full queue of slip readers throws SlipReaderBusy.
 */
export class SlipVerifier {
  /**
   * `read` finds the image's QR: the server's is the slip readers' worker pool (reader-pool.ts,
   * which may throw SlipReaderBusy); by default it reads on the calling thread.
   */
  constructor(
    private readonly bank: Bank,
    private readonly read: (image: Buffer) => Promise<{ text: string } | null> = (image) => readSlipQr(image),
  ) {}

  async verify(image: Buffer): Promise<SlipVerdict> {
    const qr = await this.read(image);
    if (!qr) return { ok: false, reason: 'CANNOT_READ_CROPPED_IMAGE' };
    let payload;
    try {
      payload = parseSlipPayload(qr.text);
    } catch (error) {
      if (error instanceof EmvcoError) return { ok: false, reason: 'INVALID_SLIP' };
      throw error;
    }
    const sendingBank = (SLIP_BANK_CODES as Readonly<Record<string, string>>)[payload.sendingBank];
    if (!sendingBank) return { ok: false, reason: 'INVALID_SLIP' };
    return this.lookup(sendingBank, payload.transRef);
  }

  /** Asks the bank again (a slip whose reference the bank did not know yet). */
  async lookup(sendingBank: string, transRef: string): Promise<SlipVerdict> {
    // Only a reference a bank could have issued is asked about (and ever becomes a key).
    if (!BANK_CODE.test(sendingBank) || !isTransRef(transRef)) return { ok: false, reason: 'INVALID_SLIP' };
    try {
      const transfer = await this.bank.lookup(sendingBank, transRef);
      if (!transfer) return { ok: false, reason: 'UNSTABLE_REFNO_ON_SLIP', sendingBank, transRef };
      return { ok: true, sendingBank, transRef, transfer };
    } catch (error) {
      if (error instanceof BankLookupError) return { ok: false, reason: error.kind === 'captcha' ? 'TRIPPLE_WRONG_CAPTCHA' : 'UNKNOW_ERROR', sendingBank, transRef };
      throw error;
    }
  }
}
