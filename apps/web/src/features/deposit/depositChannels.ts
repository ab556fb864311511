import type { z } from 'zod';
import type { MemberCurrency, QrMinimumCode } from '@mw/contract/constants';
import { QR_MINIMUMS_BY_CURRENCY, QR_PRESETS_BY_CURRENCY } from '@mw/contract/currency-figures';
import type { depositLookupSchema } from '@mw/contract/lookups';
import { config } from '../../shared/config';

export type DepositLookup = z.infer<typeof depositLookupSchema>;
export type DepositBank = DepositLookup['banks'][number];
export type DepositWallet = DepositLookup['wallets'][number];

/** How a bank account is deposited to: credited automatically, checked by staff, or a plain transfer. */
export type AccountMode = 'AUTO' | 'MANUAL' | 'NONE';

export type BankView = { kind: 'account'; key: string; bank: DepositBank; mode: AccountMode } | { kind: 'bcel'; key: string; bank: DepositBank };

export interface QrChannel {
  key: string;
  /** What the QR calls take as :bankCode (WW, PAYTIMZ, PAYONEX, ZPAY, or KBANK for its QR channel). */
  code: string;
  name: { nameTH: string; nameEN: string; nameLA: string };
  /** A bank's QR channel (KBANK in SMS mode), as opposed to a payment provider. */
  bank: boolean;
  minimum: number;
  presets: readonly number[];
}

export type WalletView = { kind: 'ewalletAuto'; key: string; wallet: DepositWallet } | { kind: 'gift'; key: string; wallet: DepositWallet };

export interface DepositViews {
  /** isManual: every deposit is checked by staff, so only plain account views are offered. */
  manual: boolean;
  bank: BankView[];
  qr: QrChannel[];
  ewallet: WalletView[];
}

const isQrCode = (code: string): code is QrMinimumCode => Object.prototype.hasOwnProperty.call(QR_MINIMUMS_BY_CURRENCY.BAHT, code);
const memberCurrencyOf = (currency: string): MemberCurrency => (currency === 'LAK' ? 'LAK' : 'BAHT');

/**
 * The default QR minimum of a provider in the member's currency, when the lookup names none. Baht
 * (spec section 5): WW and PAYONEX 100, PAYTIMZ and ZPAY 10 (build settings may raise them), generic
 * and KBANK 1; kip: ₭50,000, ₭5,000 and ₭1,000.
 */
export function qrMinimum(code: string, currency: string = 'BAHT'): number {
  const member = memberCurrencyOf(currency);
  if (member === 'BAHT' && code === 'PAYTIMZ') return config.paytimzMin;
  if (member === 'BAHT' && code === 'ZPAY') return config.zpayMin;
  return QR_MINIMUMS_BY_CURRENCY[member][isQrCode(code) ? code : 'generic'];
}

/** The default preset amounts of a provider in the member's currency (spec section 9 for baht), without those below its minimum. */
export function qrPresets(code: string, currency: string = 'BAHT'): readonly number[] {
  const minimum = qrMinimum(code, currency);
  return QR_PRESETS_BY_CURRENCY[memberCurrencyOf(currency)][isQrCode(code) ? code : 'generic'].filter((amount) => amount >= minimum);
}

function accountMode(mode: string): AccountMode {
  return mode === 'AUTO' || mode === 'MANUAL' ? mode : 'NONE';
}

/**
 * The deposit modal's views by bank code and mode (spec section 2): a member sees the channels
 * of the member's currency only (LAK members the LAK ones, everyone else no LAK one). BCEL is
 * its own view; KBANK in SMS mode and the PAYMENT providers are QR deposits; other banks are
 * account views. With isManual every bank is a plain account view and QR and e-wallets are off.
 * An AUTO e-wallet shows its number; any other e-wallet mode is the gift-link form (baht members only).
 */
export function depositViews(lookup: DepositLookup, memberCurrency: string): DepositViews {
  const lak = memberCurrency === 'LAK';
  const banks = lookup.banks.filter((bank) => (bank.currency === 'LAK') === lak);
  const key = (bank: DepositBank) => `${bank.bankCode}-${bank.mode}-${bank.bankAccountNo}`;
  const bankView = (bank: DepositBank, mode: AccountMode): BankView =>
    bank.bankCode === 'BCEL' ? { kind: 'bcel', key: key(bank), bank } : { kind: 'account', key: key(bank), bank, mode };

  if (lookup.isManual) {
    return { manual: true, bank: banks.filter((bank) => bank.bankType === 'BANK').map((bank) => bankView(bank, 'MANUAL')), qr: [], ewallet: [] };
  }
  const views: DepositViews = { manual: false, bank: [], qr: [], ewallet: [] };
  for (const bank of banks) {
    if (bank.bankType === 'PAYMENT' || bank.mode === 'SMS') {
      // The server's figures in the member's currency (GET /api/lookup/deposit), else the defaults.
      const minimum = bank.minimum ?? qrMinimum(bank.bankCode, memberCurrency);
      const presets = bank.presets ?? qrPresets(bank.bankCode, memberCurrency);
      views.qr.push({ key: key(bank), code: bank.bankCode, name: bank.bank, bank: bank.bankType === 'BANK', minimum, presets });
    } else {
      views.bank.push(bankView(bank, accountMode(bank.mode)));
    }
  }
  // E-wallets hold baht: a LAK member has none to deposit from.
  if (lak) return views;
  lookup.wallets.forEach((wallet, index) => {
    const walletKey = `${wallet.mode}-${index}`;
    // An AUTO e-wallet without a number to send to cannot be shown.
    if (wallet.mode !== 'AUTO') views.ewallet.push({ kind: 'gift', key: walletKey, wallet });
    else if (wallet.walletAccountNo) views.ewallet.push({ kind: 'ewalletAuto', key: walletKey, wallet });
  });
  return views;
}
