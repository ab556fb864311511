import type { GameAccount, GameCategory, WalletResponse } from '@mw/contract/wallet';
import type { ResponseParser } from './client';

/**
 * The three answers the home dashboard loads on entry — GET /api/wallet, GET
 * /api/wallet/refresh/slot and GET /api/spinwheel/active — checked with zod-free parsers
 * equivalent to the contract's walletResponseSchema, refreshSlotsResponseSchema and the spinActive
 * response (as lookups.ts does for the boot lookups). Evaluating zod and building the contract's
 * schemas is one of the longest tasks of the dashboard's start on a phone; with these parsers the
 * dashboard and the member layout need no zod at all, and it loads with the first modal.
 * test/walletParsers.test.ts keeps them in step with the contract.
 */
export const WALLET_PATH = '/api/wallet';
export const WALLET_REFRESH_SLOT_PATH = '/api/wallet/refresh/slot';
export const SPIN_ACTIVE_PATH = '/api/spinwheel/active';

export interface RefreshSlotsAnswer {
  slots: GameAccount[];
  updatedAt: string;
}

/** Thrown inside a parser when a value does not fit; turned into `success: false`. */
class Mismatch extends Error {}

function record(value: unknown): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new Mismatch();
}

function string(value: unknown): string {
  if (typeof value === 'string') return value;
  throw new Mismatch();
}

function nullableString(value: unknown): string | null {
  return value === null ? null : string(value);
}

/** z.number(): finite numbers only. */
function number(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  throw new Mismatch();
}

/** z.number().int(): safe integers. */
function integer(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  throw new Mismatch();
}

function boolean(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  throw new Mismatch();
}

function category(value: unknown): GameCategory {
  if (value === 'slot' || value === 'sport' || value === 'lotto') return value;
  throw new Mismatch();
}

function array<T>(value: unknown, item: (value: unknown) => T): T[] {
  if (!Array.isArray(value)) throw new Mismatch();
  return value.map(item);
}

function gameAccount(value: unknown): GameAccount {
  const game = record(value);
  return {
    code: string(game.code),
    name: string(game.name),
    logo: string(game.logo),
    background: string(game.background),
    category: category(game.category),
    isActive: boolean(game.isActive),
    amount: number(game.amount),
    ftWalletSlot: number(game.ftWalletSlot),
    web: nullableString(game.web),
    android: nullableString(game.android),
    ios: nullableString(game.ios),
  };
}

function walletResponse(value: unknown): WalletResponse {
  const answer = record(value);
  const profile = record(answer.profile);
  const bankAccount = record(answer.bankAccount);
  const bank = bankAccount.bank === null ? null : record(bankAccount.bank);
  const invite = record(answer.invite);
  return {
    profile: {
      name: string(profile.name),
      _id: string(profile._id),
      createdAt: string(profile.createdAt),
      username: string(profile.username),
      coin: integer(profile.coin),
      ...(profile.currency === 'LAK' || profile.currency === 'BAHT' ? { currency: profile.currency } : {}),
    },
    bankAccount: {
      bankCode: string(bankAccount.bankCode),
      bankAccountName: string(bankAccount.bankAccountName),
      bankAccountNo: string(bankAccount.bankAccountNo),
      bank: bank && { nameTH: string(bank.nameTH), nameEN: string(bank.nameEN), nameLA: string(bank.nameLA) },
    },
    wallet: { amount: number(record(answer.wallet).amount) },
    invite: { amount: number(invite.amount), success: number(invite.success), fail: number(invite.fail) },
    slots: array(answer.slots, gameAccount),
  };
}

function refreshSlots(value: unknown): RefreshSlotsAnswer {
  const answer = record(value);
  return { slots: array(answer.slots, gameAccount), updatedAt: string(answer.updatedAt) };
}

function spinActive(value: unknown): { active: boolean } {
  return { active: boolean(record(value).active) };
}

function parser<T>(parse: (value: unknown) => T): ResponseParser<T> {
  return {
    safeParse(value) {
      try {
        return { success: true, data: parse(value) };
      } catch (error) {
        if (error instanceof Mismatch) return { success: false };
        throw error;
      }
    },
  };
}

export const walletResponseParser = parser(walletResponse);
export const refreshSlotsParser = parser(refreshSlots);
export const spinActiveParser = parser(spinActive);
