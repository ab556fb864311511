import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useNavigate } from '../../../shared/router';
import { callEndpoint } from '../../../shared/api/client';
import { clearToken } from '../../../shared/auth/token';

/** POST /api/logout (revokes the session), then forget the token and go to /login, whatever the answer. */
export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const logout = useCallback(async () => {
    setPending(true);
    try {
      // The account contract (and zod) loads here, not with every member page.
      const { accountEndpoints } = await import('@mw/contract/account');
      await callEndpoint(accountEndpoints.logout);
    } catch {
      // The token is dropped locally in any case; a failed revoke only leaves it to expire.
    } finally {
      clearToken();
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'lookup' });
      setPending(false);
      navigate('/login', { replace: true });
    }
  }, [navigate, queryClient]);
  return { logout, pending };
}
