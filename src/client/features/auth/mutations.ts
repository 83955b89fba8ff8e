/** Signing in (username and password), switching portals and signing out. Used by the app shell too, so no OAuth code here. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { generateToken, getPortal, getSelf, revokeToken } from '../../api/index.ts';
import { forgetBrowserGraphs } from '../../lib/dependencies/graph.ts';
import { deleteGraphStore } from '../../lib/dependencies/store.ts';
import { clearSession, getSession, setSession, switchPortal, type Session } from '../../lib/session.ts';
import type { SignInValues } from './schemas.ts';

/** Minutes asked for at sign-in; the portal may grant less (its maxTokenExpirationMinutes). */
export const TOKEN_MINUTES = 120;

/** generateToken, then community/self (and the portal's name) with the new token; the session is stored only when both worked. */
export async function signIn(values: SignInValues): Promise<Session> {
  const { token, expires } = await generateToken({
    portalUrl: values.portalUrl,
    username: values.username,
    password: values.password,
    expiration: TOKEN_MINUTES,
  });
  const [user, portal] = await Promise.all([
    getSelf({ portalUrl: values.portalUrl, token }),
    getPortal({ portalUrl: values.portalUrl, token }).catch(() => null),
  ]);
  return { portalUrl: values.portalUrl, token, expires, user, portalName: portal?.name || undefined };
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: (session) => {
      // Nothing read as someone else, on another portal or with an old token may show through.
      queryClient.clear();
      setSession(session);
    },
  });
}

/**
 * Acts on another portal signed in to in this tab. Everything read from the previous portal is
 * dropped first thing after the switch (React Query's cache), so none of it shows on the other.
 */
export function useSwitchPortal() {
  const queryClient = useQueryClient();
  return (portalUrl: string): boolean => {
    if (!switchPortal(portalUrl)) return false;
    queryClient.clear();
    return true;
  };
}

/**
 * Sign-out of the active portal: revokes the refresh token (which ends the access tokens issued
 * from it) and the access token on the portal, with the app's client ID for OAuth sessions — a
 * failure there does not keep anyone signed in — then forgets that portal's session. Sessions
 * with other portals in this tab stay.
 */
export async function revokeSession(session: Session): Promise<void> {
  const options = { portalUrl: session.portalUrl, clientId: session.clientId };
  const tokens = [session.refreshToken, session.token].filter((t): t is string => !!t);
  for (const token of tokens) {
    try {
      await revokeToken(token, options);
    } catch {
      /* the token is forgotten here either way */
    }
  }
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const session = getSession();
      if (!session) return;
      await revokeSession(session);
      // Not awaited: a build still reading closes its connection first (store.ts), then it goes.
      void deleteGraphStore(session.portalUrl, session.user.username);
    },
    onSettled: () => {
      forgetBrowserGraphs();
      clearSession();
      queryClient.clear();
    },
  });
}
