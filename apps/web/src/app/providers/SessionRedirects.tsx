import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { onSessionEvent } from '../../shared/api/sessionEvents';

/** Turns the API client's session events into navigation: expired → /login, gone → /terminated. */
export function SessionRedirects() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onSessionEvent((event) => {
        if (event === 'gone') {
          navigate('/terminated', { replace: true });
        } else {
          queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'lookup' });
          navigate('/login', { replace: true });
        }
      }),
    [navigate, queryClient],
  );
  return null;
}
