/** Signing in and out. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { generateToken, getSelf, revokeToken } from '../../api/index.ts';
import { clearSession, getSession, setSession, type Session } from '../../lib/session.ts';
import type { SignInValues } from './schemas.ts';

/** Minutes asked for at sign-in; the portal may grant less (its maxTokenExpirationMinutes). */
export const TOKEN_MINUTES = 120;

/** generateToken, then community/self with the new token; the session is stored only when both worked. */
export async function signIn(values: SignInValues): Promise<Session> {
  const { token, expires } = await generateToken({ portalUrl: values.portalUrl, username: values.username, password: values.password, expiration: TOKEN_MINUTES });
  const user = await getSelf({ portalUrl: values.portalUrl, token });
  return { portalUrl: values.portalUrl, token, expires, user };
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: (session) => {
      // Nothing read as someone else (or with an old token) may show through.
      queryClient.clear();
      setSession(session);
    },
  });
}

/** Revokes the token on the portal (a failure there does not keep anyone signed in), then forgets the session. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const session = getSession();
      if (!session) return;
      try {
        await revokeToken(session.token, { portalUrl: session.portalUrl });
      } catch {
        /* the token is forgotten here either way */
      }
    },
    onSettled: () => {
      clearSession();
      queryClient.clear();
    },
  });
}
