import { useEffect } from 'react';
import { useNavigate } from '../../shared/router';
import { runSessionEndCleanups } from '../../shared/api/sessionCleanup';
import { onSessionEvent } from '../../shared/api/sessionEvents';

/** Turns the API client's session events into navigation: expired → /login, gone → /terminated. */
export function SessionRedirects() {
  const navigate = useNavigate();
  useEffect(
    () =>
      onSessionEvent((event) => {
        if (event === 'gone') {
          navigate('/terminated', { replace: true });
        } else {
          // The member's queries go (every query client's but the lookups: sessionCleanup.ts).
          runSessionEndCleanups();
          navigate('/login', { replace: true });
        }
      }),
    [navigate],
  );
  return null;
}
