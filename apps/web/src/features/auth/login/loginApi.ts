import { useMutation } from '@tanstack/react-query';
import { callEndpoint } from '../../../shared/api/client';

/**
 * POST /api/login {username, password} → {token}. The contract (and zod with it) is imported
 * on submit, not with the page, to keep the first load small.
 */
export function useLogin() {
  return useMutation({
    mutationFn: async (body: { username: string; password: string }) => {
      const { accountEndpoints } = await import('@mw/contract/account');
      return callEndpoint(accountEndpoints.login, { body });
    },
  });
}
