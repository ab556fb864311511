/**
 * The e-wallet (TrueMoney Wallet) as deposits need it: gift vouchers ("angpao" links) verified
 * and redeemed into our wallet account, and — for AUTO mode — transfers into our wallet account
 * reported by a signed webhook (POST /api/webhooks/ewallet/{provider}, see payments/signing.ts)
 * carrying `{ transferId, fromPhone, toPhone, amount, currency, at }`.
 */

/** A gift voucher as the e-wallet describes it. */
export interface Voucher {
  hash: string;
  /** Minor units. */
  amount: number;
  /** AVAILABLE, or REDEEMED (emptied), or EXPIRED. */
  status: 'AVAILABLE' | 'REDEEMED' | 'EXPIRED';
  /** The phone that redeemed it, when redeemed. */
  redeemedBy: string | null;
  /** Made by the wallet that asks (which cannot redeem it: CANNOT_GET_OWN_VOUCHER). */
  ownVoucher: boolean;
  expiresAt: Date;
}

/** The e-wallet's definite answers that are not success (its own codes). */
export type VoucherRefusal = 'VOUCHER_NOT_FOUND' | 'VOUCHER_EXPIRED' | 'VOUCHER_OUT_OF_STOCK' | 'CANNOT_GET_OWN_VOUCHER' | 'TARGET_USER_REDEEMED';

/** A definite refusal from the e-wallet (the service works; the voucher cannot be had). */
export class VoucherRefused extends Error {
  constructor(readonly code: VoucherRefusal) {
    super(`voucher refused: ${code}`);
    this.name = 'VoucherRefused';
  }
}

/** The e-wallet could not answer (down, INTERNAL_ERROR, or a network failure): the outcome is unknown. */
export class EWalletUnavailable extends Error {
  constructor(message = 'e-wallet unavailable') {
    super(message);
    this.name = 'EWalletUnavailable';
  }
}

export interface EWallet {
  /** The voucher as seen by `mobile` (the wallet that would redeem it). Throws VoucherRefused (VOUCHER_NOT_FOUND) or EWalletUnavailable. */
  verify(hash: string, mobile: string, signal?: AbortSignal): Promise<Voucher>;
  /** Redeems the whole voucher into `mobile`'s wallet; answers the amount (minor units). Throws VoucherRefused or EWalletUnavailable. */
  redeem(hash: string, mobile: string, signal?: AbortSignal): Promise<{ amount: number }>;
  /** Vouchers redeemed in [from, to), with the wallet that redeemed each (reconciliation; optional). */
  redeemedVouchers?(from: Date, to: Date): Promise<Array<{ hash: string; amount: number; redeemedBy: string; redeemedAt: Date }>>;
  /** Transfers between wallets made in [from, to) (reconciliation; optional). */
  transfers?(from: Date, to: Date): Promise<Array<{ transferId: string; fromPhone: string; toPhone: string; amount: number; at: Date }>>;
}

/**
 * The voucher hash of a gift link as members paste it: `https://gift.truemoney.com/campaign/?v=<hash>`
 * (also without the slash before `?`, with `www.`, or with other query parameters after it);
 * null for anything else (a control character included). The hash is the e-wallet's: 10-64
 * letters and digits.
 */
export function voucherHash(link: string): string | null {
  // Surrounding white space of a paste is dropped; a control character anywhere else is no link
  // (a URL parser would quietly strip some of them and read another link).
  const text = link.trim();
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\u0000-\u001F\u007F-\u009F]/.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || !/^(www\.)?gift\.truemoney\.com$/.test(url.hostname) || !/^\/campaign\/?$/.test(url.pathname)) return null;
  if (url.username || url.password || url.port) return null;
  const hash = url.searchParams.get('v') ?? '';
  return /^[A-Za-z0-9]{10,64}$/.test(hash) ? hash : null;
}
