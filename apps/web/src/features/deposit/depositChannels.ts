import type { z } from 'zod';
import { QR_MINIMUMS, QR_PRESETS } from '@mw/contract/constants';
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

type QrCode = keyof typeof QR_MINIMUMS;
const isQrCode = (code: string): code is QrCode => Object.prototype.hasOwnProperty.call(QR_MINIMUMS, code);

/** Spec section 5: WW and PAYONEX 100, PAYTIMZ and ZPAY 10 (build settings may raise them), generic and KBANK 1. */
export function qrMinimum(code: string): number {
  if (code === 'PAYTIMZ') return config.paytimzMin;
  if (code === 'ZPAY') return config.zpayMin;
  return isQrCode(code) ? QR_MINIMUMS[code] : QR_MINIMUMS.generic;
}

/** Spec section 9's preset amounts of a provider, without those below its minimum. */
export function qrPresets(code: string): readonly number[] {
  const minimum = qrMinimum(code);
  const presets: readonly number[] = isQrCode(code) ? QR_PRESETS[code] : QR_PRESETS.generic;
  return presets.filter((amount) => amount >= minimum);
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
      views.qr.push({ key: key(bank), code: bank.bankCode, name: bank.bank, bank: bank.bankType === 'BANK', minimum: qrMinimum(bank.bankCode), presets: qrPresets(bank.bankCode) });
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
