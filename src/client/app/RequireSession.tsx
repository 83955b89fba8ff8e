import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { signInPath } from '../lib/returnTo.ts';
import { useSessionState } from '../lib/session.ts';

/**
 * The signed-in part of the console. Without a session the member goes to sign-in; when the session
 * ended by itself (expired or refused token) they come back here afterwards.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const { session, ended } = useSessionState();
  const location = useLocation();
  if (!session) {
    const here = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={ended === 'signedOut' ? '/sign-in' : signInPath(here)} replace />;
  }
  return <>{children}</>;
}
