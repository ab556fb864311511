import type { ReactNode } from 'react';
import { Navigate } from '../../shared/router';
import { useToken } from '../../shared/auth/token';

/** Member routes: without a stored token the member goes to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const token = useToken();
  if (!token) return <Navigate to="/login" replace />;
  return children;
}
