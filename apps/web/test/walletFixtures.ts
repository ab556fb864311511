import type { GameAccount, WalletResponse } from '@mw/contract/wallet';
import { ok } from './helpers';

export function game(code: string, patch: Partial<GameAccount> = {}): GameAccount {
  return {
    code,
    name: `${code} Games`,
    logo: `/media/games/${code}/logo.svg`,
    background: `/media/games/${code}/background.svg`,
    category: 'slot',
    isActive: false,
    amount: 0,
    ftWalletSlot: 1,
    web: `/sandbox/games/${code}/lobby`,
    android: null,
    ios: null,
    ...patch,
  };
}

export function walletAnswer(patch: Partial<WalletResponse> = {}): WalletResponse {
  return {
    profile: { name: 'Somchai', _id: '64f000000000000000000001', createdAt: '2024-03-05T07:08:09.000Z', username: '0812345678', coin: 7 },
    bankAccount: { bankCode: 'KBANK', bankAccountName: 'SOMCHAI JAIDEE', bankAccountNo: '1234567890', bank: { nameTH: 'กสิกรไทย', nameEN: 'Kasikornbank', nameLA: 'ກະສິກອນໄທ' } },
    wallet: { amount: 400 },
    invite: { amount: 12.5, success: 10, fail: 5 },
    slots: [
      game('PG', { isActive: true, amount: 200.1 }),
      game('JOKER2', { isActive: true, amount: 0.2, ftWalletSlot: 10 }),
      game('SLOTXO'),
      game('UFABET', { category: 'sport', isActive: true, amount: 50, web: '/sandbox/games/UFABET/lobby' }),
      game('HUAYHD', { category: 'lotto' }),
    ],
    ...patch,
  };
}

/** The calls the home page makes on entry, answered as a sandbox server would. */
export function homeRoutes(wallet: WalletResponse = walletAnswer()) {
  return {
    'GET /api/wallet': ok(wallet),
    'GET /api/wallet/refresh/slot': ok({ slots: wallet.slots, updatedAt: '2026-01-02T03:04:05.000Z' }),
    'GET /api/spinwheel/active': { status: 501, body: { message: 'NOT_IMPLEMENTED' } },
  };
}

/** A logged-in member who already accepted the agreement. */
export function loginMember(): void {
  localStorage.setItem('token', 'member-token');
  localStorage.setItem('remember-agreement', 'true');
}
