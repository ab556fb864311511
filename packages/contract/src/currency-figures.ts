import { EWALLET_MIN_BAHT, MIN_TRANSFER_BAHT, QR_MINIMUMS, QR_PRESETS, type MemberCurrency, type QrMinimumCode } from './constants';

/**
 * The money rules' figures per member currency (BAHT or LAK), in major units (issue 33: every
 * amount in its own currency, kip at about 600 to the baht rounded to figures a Lao player
 * expects). The server's figures (configurable, docs/currency.md) are answered by the lookups;
 * these are the defaults. A module of its own, so that only the screens that use them load them.
 */

/** The smallest transfer between the wallet and a game: ฿1, ₭1,000. */
export const MIN_TRANSFER: Record<MemberCurrency, number> = { BAHT: MIN_TRANSFER_BAHT, LAK: 1_000 };

/** The smallest e-wallet gift voucher: ฿2, ₭1,000. */
export const EWALLET_MIN: Record<MemberCurrency, number> = { BAHT: EWALLET_MIN_BAHT, LAK: 1_000 };

const LAK_QR_PRESETS = [50_000, 100_000, 200_000, 500_000, 1_000_000] as const;
/** QR minimums per member currency: the baht ones of spec section 9; kip ₭50,000 (WW, PAYONEX), ₭5,000 (PAYTIMZ, ZPAY), ₭1,000 (generic, KBANK). */
export const QR_MINIMUMS_BY_CURRENCY: Record<MemberCurrency, Record<QrMinimumCode, number>> = {
  BAHT: QR_MINIMUMS,
  LAK: { generic: 1_000, KBANK: 1_000, WW: 50_000, PAYONEX: 50_000, PAYTIMZ: 5_000, ZPAY: 5_000 },
};
/** QR preset amounts per member currency: kip ₭50,000 / 100,000 / 200,000 / 500,000 / 1,000,000 at every provider. */
export const QR_PRESETS_BY_CURRENCY: Record<MemberCurrency, Record<QrMinimumCode, readonly number[]>> = {
  BAHT: QR_PRESETS,
  LAK: { generic: LAK_QR_PRESETS, KBANK: LAK_QR_PRESETS, WW: LAK_QR_PRESETS, PAYTIMZ: LAK_QR_PRESETS, PAYONEX: LAK_QR_PRESETS, ZPAY: LAK_QR_PRESETS },
};
