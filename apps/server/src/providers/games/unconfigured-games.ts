import { ProviderError, type GameProvider } from './game-provider';

/**
 * GAME_PROVIDER=none: no game provider is connected (a production deployment before its provider
 * contracts are configured). Every call fails as unreachable — nothing happened at a provider —
 * so activation answers GAME_ACTIVATION_FAIL and a transfer to a game is refused with its money
 * back; nothing is ever in doubt.
 */
export function unconfiguredGameProvider(code: string): GameProvider {
  const refuse = (): Promise<never> => Promise.reject(new ProviderError('unreachable', `no game provider is configured for ${code}`));
  return {
    code,
    openAccount: refuse,
    balance: refuse,
    transfer: refuse,
    resetPassword: refuse,
    launch: refuse,
    lookupTransfer: refuse,
    rounds: () => Promise.resolve([]),
  };
}
