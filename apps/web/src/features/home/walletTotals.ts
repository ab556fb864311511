import type { GameAccount, GameCategory, WalletResponse } from '@mw/contract/wallet';

const satang = (baht: number) => Math.round(baht * 100);

/** Sum of the active game accounts (in satang, so no float drift). */
function gamesSatang(slots: readonly GameAccount[]): number {
  return slots.filter((game) => game.isActive).reduce((sum, game) => sum + satang(game.amount), 0);
}

/** Total balance of the home header: the wallet plus every active game account. */
export function totalBalance(wallet: Pick<WalletResponse, 'wallet' | 'slots'>): number {
  return (satang(wallet.wallet.amount) + gamesSatang(wallet.slots)) / 100;
}

export function gamesBalance(wallet: Pick<WalletResponse, 'slots'>): number {
  return gamesSatang(wallet.slots) / 100;
}

/** What an active card shows next to the balance: the balance times the game's wallet factor. */
export function gameCredit(game: Pick<GameAccount, 'amount' | 'ftWalletSlot'>): number {
  return Math.round(game.amount * game.ftWalletSlot * 100) / 100;
}

/** The three lists of the home page: slot, sport plus casino, lotto. */
export const GAME_CATEGORIES: readonly GameCategory[] = ['slot', 'sport', 'lotto'];

export function gamesOf(slots: readonly GameAccount[], category: GameCategory): GameAccount[] {
  return slots.filter((game) => game.category === category);
}
