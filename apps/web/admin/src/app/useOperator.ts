import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { call } from '../shared/client';
import { getToken, onSessionChange, type Operator } from '../shared/session';

/** The token of this tab's session, following sign-in and sign-out. */
export function useToken(): string | null {
  const [token, setState] = useState(getToken);
  useEffect(() => onSessionChange(() => setState(getToken())), []);
  return token;
}

/** Who is signed in (GET /api/admin/me): the role decides what the screens show. */
export function useOperator() {
  const token = useToken();
  return useQuery({
    queryKey: ['admin', 'me', token],
    queryFn: (): Promise<Operator> => call('adminMe'),
    enabled: token !== null,
    staleTime: 60_000,
    retry: false,
  });
}
