/**
 * /oauth-callback: where the portal sends the browser back after its sign-in page. Completes the
 * sign-in (state check, code exchange, community/self), stores the session and opens the page the
 * member came from; on any failure, the sign-in page with the portal's reason — never a blank page.
 */
import { Center } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { describeError } from '../../api/index.ts';
import { LoadingState } from '../../components/states.tsx';
import { completeOAuthSignIn, OAuthSignInError, type CompletedSignIn } from '../../lib/oauth.ts';
import { signInPath } from '../../lib/returnTo.ts';
import { clearSignInNotice, setSession } from '../../lib/session.ts';
import type { SignInLocationState } from './SignInPage.tsx';

/**
 * One completion per callback address: a code is good once, and React runs effects twice in
 * development (StrictMode), so the second run waits for the first one's result.
 */
const completions = new Map<string, Promise<CompletedSignIn>>();

function completeOnce(search: string): Promise<CompletedSignIn> {
  let running = completions.get(search);
  if (!running) {
    running = completeOAuthSignIn(search);
    completions.set(search, running);
    // Forgotten soon after: the same address later (a reload) must be refused, not replayed.
    void running.catch(() => undefined).finally(() => setTimeout(() => completions.delete(search), 1_000));
  }
  return running;
}

export default function OAuthCallbackPage() {
  useDocumentTitle('Signing in · Portal Admin Console');
  const { search } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(() => {
    let live = true;
    completeOnce(search).then(
      ({ session, returnTo }) => {
        if (!live) return;
        queryClient.clear();
        setSession(session);
        clearSignInNotice();
        void navigate(returnTo, { replace: true });
      },
      (err: unknown) => {
        if (!live) return;
        const failure = err instanceof OAuthSignInError ? err : new OAuthSignInError('Sign-in failed', describeError(err), '/overview');
        const state: SignInLocationState = { oauthError: { title: failure.title, message: failure.message } };
        // The overview is where sign-in goes anyway: no need to say so in the address.
        void navigate(failure.returnTo === '/overview' ? '/sign-in' : signInPath(failure.returnTo), { replace: true, state });
      },
    );
    return () => {
      live = false;
    };
  }, [search, navigate, queryClient]);

  return (
    <Center mih="100vh" component="main">
      <LoadingState label="Completing sign-in…" minHeight={200} />
    </Center>
  );
}
