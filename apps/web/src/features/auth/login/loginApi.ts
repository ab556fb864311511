import { useCallback, useState } from 'react';
import { callEndpoint } from '../../../shared/api/client';

/**
 * POST /api/login {username, password} → {token}. The contract (and zod with it) is imported
 * on submit, not with the page, to keep the first load small; for the same reason this is a
 * plain call with its pending state, not a React Query mutation (React Query is not in the guest
 * pages' first download).
 */
export function useLogin() {
  const [isPending, setPending] = useState(false);
  const login = useCallback(async (body: { username: string; password: string }) => {
    setPending(true);
    try {
      const { accountEndpoints } = await import('@mw/contract/account');
      return await callEndpoint(accountEndpoints.login, { body });
    } finally {
      setPending(false);
    }
  }, []);
  return { isPending, login };
}
