/** "Return to where you were": the place to go back to after sign-in, carried in `?returnTo=`. */

/** Only paths inside this console; anything else (other sites, `//host`, the sign-in pages) is dropped. */
export function safeReturnTo(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (value === '/sign-in' || value.startsWith('/sign-in?') || value.startsWith('/sign-in/')) return null;
  // The OAuth callback is a step of signing in, never a place to come back to.
  if (value === '/oauth-callback' || value.startsWith('/oauth-callback?') || value.startsWith('/oauth-callback/')) return null;
  return value;
}

export function signInPath(returnTo?: string | null): string {
  const safe = safeReturnTo(returnTo);
  return safe && safe !== '/' ? `/sign-in?returnTo=${encodeURIComponent(safe)}` : '/sign-in';
}
