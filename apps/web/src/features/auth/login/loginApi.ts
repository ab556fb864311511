import { useCallback, useState } from 'react';
import { loadLaterMessages } from '../../../i18n/i18n';
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
      // The error messages (the texts after the first screen) are there before any answer.
      const [{ accountEndpoints }] = await Promise.all([import('@mw/contract/account'), loadLaterMessages().catch(() => undefined)]);
      return await callEndpoint(accountEndpoints.login, { body });
    } finally {
      setPending(false);
    }
  }, []);
  return { isPending, login };
}
