import { useMutation, useQuery } from '@tanstack/react-query';
import { walletEndpoints, type GameLogin } from '@mw/contract/wallet';
import { callEndpoint } from '../../shared/api/client';
import { retryMoneyCall } from '../../shared/api/useIdempotencyKey';

export const gameLoginQueryKey = (code: string) => ['game-login', code] as const;

/** GET /api/wallet/account/{code}: username, password and, for one provider, the launch event. */
export function fetchGameLogin(code: string, signal?: AbortSignal): Promise<GameLogin> {
  return callEndpoint(walletEndpoints.walletAccount, { params: { code }, signal });
}

export function useGameLogin(code: string, enabled: boolean) {
  return useQuery({
    queryKey: gameLoginQueryKey(code),
    queryFn: ({ signal }) => fetchGameLogin(code, signal),
    enabled,
    staleTime: 60_000,
    // Spec section 8: a failed load only hides the loader; the modal offers a retry.
    meta: { silent: true },
  });
}

/** GET /api/wallet/activate/{code} → the game account, now active. */
export function useActivateGame(code: string) {
  return useMutation({ mutationFn: () => callEndpoint(walletEndpoints.walletActivate, { params: { code } }) });
}

/** GET /api/wallet/resetpassword/{code} → the new credentials. */
export function useResetGamePassword(code: string) {
  return useMutation({ mutationFn: () => callEndpoint(walletEndpoints.walletResetPassword, { params: { code } }) });
}

/** POST /api/wallet/transferAll {to}: the whole wallet into this game (play and transfer buttons). */
export function useTransferAllToGame(code: string) {
  return useMutation({
    mutationFn: (key: string) => callEndpoint(walletEndpoints.walletTransferAll, { body: { to: code }, idempotencyKey: key }),
    retry: retryMoneyCall,
  });
}
