/**
 * The session: which portal, the token and its expiry, and the signed-in member (community/self).
 * Kept in sessionStorage (this tab only, gone when the tab closes) — never in localStorage.
 * The store points the API module at the session's portal and token whenever it changes.
 */
import { useSyncExternalStore } from 'react';
import { configureApi, defaultPortalUrl, normalizePortalUrl, type PortalUser } from '../api/index.ts';

export interface Session {
  /** …/sharing/rest of the portal signed in to. */
  portalUrl: string;
  token: string;
  /** Epoch ms. */
  expires: number;
  user: PortalUser;
}

/** Why there is no session: never signed in, signed out, or the portal stopped accepting the token. */
export type SessionEnd = 'none' | 'signedOut' | 'expired';

export interface SessionState {
  session: Session | null;
  ended: SessionEnd;
}

const SESSION_KEY = 'portal-admin-console.session';
const NOTICE_KEY = 'portal-admin-console.signInNotice';
const PORTAL_KEY = 'portal-admin-console.portalUrl';

export const EXPIRED_MESSAGE = 'Your session has expired or is no longer valid. Sign in again to continue where you were.';

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

function isSession(value: unknown): value is Session {
  if (!value || typeof value !== 'object') return false;
  const s = value as Partial<Session>;
  return (
    typeof s.portalUrl === 'string' &&
    typeof s.token === 'string' &&
    s.token.length > 0 &&
    typeof s.expires === 'number' &&
    !!s.user &&
    typeof s.user === 'object' &&
    typeof s.user.username === 'string' &&
    Array.isArray(s.user.privileges)
  );
}

/** The stored session, or null when there is none, it is unreadable, or its token has expired. */
export function readStoredSession(now = Date.now()): Session | null {
  const raw = storage()?.getItem(SESSION_KEY);
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!isSession(parsed) || parsed.expires <= now) return null;
    return parsed;
  } catch {
    return null;
  }
}

let state: SessionState = { session: null, ended: 'none' };
const listeners = new Set<() => void>();
let expiryTimer: ReturnType<typeof setTimeout> | undefined;

function apply(next: SessionState): void {
  state = next;
  configureApi(next.session ? { portalUrl: next.session.portalUrl, token: next.session.token } : { portalUrl: lastPortalUrl() });
  if (expiryTimer) clearTimeout(expiryTimer);
  expiryTimer = undefined;
  if (next.session) {
    // setTimeout takes at most 2^31-1 ms; a longer token is checked again when the timer fires.
    const wait = Math.min(Math.max(next.session.expires - Date.now(), 0), 2 ** 31 - 1);
    const token = next.session.token;
    expiryTimer = setTimeout(() => {
      if (state.session?.token === token && state.session.expires <= Date.now()) expireSession();
      else if (state.session?.token === token) apply(state);
    }, wait);
  }
  for (const listener of [...listeners]) listener();
}

/** Loads the tab's stored session (at start, and in tests after changing sessionStorage). */
export function loadSession(): SessionState {
  const session = readStoredSession();
  if (!session) storage()?.removeItem(SESSION_KEY);
  apply({ session, ended: 'none' });
  return state;
}

export function getSessionState(): SessionState {
  return state;
}

export function getSession(): Session | null {
  return state.session;
}

/** Stores a new session (after sign-in) and remembers its portal for the next sign-in in this tab. */
export function setSession(session: Session): void {
  const s = storage();
  const clean = { ...session, portalUrl: normalizePortalUrl(session.portalUrl) };
  s?.setItem(SESSION_KEY, JSON.stringify(clean));
  s?.setItem(PORTAL_KEY, clean.portalUrl);
  s?.removeItem(NOTICE_KEY);
  apply({ session: clean, ended: 'none' });
}

/** Replaces the signed-in member's record (after community/self was read again). */
export function updateSessionUser(user: PortalUser): void {
  const current = state.session;
  if (!current || current.user.username !== user.username) return;
  setSession({ ...current, user });
}

/** Signing out: forget the session. */
export function clearSession(): void {
  storage()?.removeItem(SESSION_KEY);
  apply({ session: null, ended: 'signedOut' });
}

/** The portal refused the token (498/499) or it ran out: forget it and tell the sign-in page why. */
export function expireSession(message = EXPIRED_MESSAGE): void {
  if (!state.session && state.ended === 'expired') return;
  const s = storage();
  s?.removeItem(SESSION_KEY);
  s?.setItem(NOTICE_KEY, message);
  apply({ session: null, ended: 'expired' });
}

/** The message for the sign-in page, if the last session ended by itself. */
export function signInNotice(): string | null {
  return storage()?.getItem(NOTICE_KEY) ?? null;
}

export function clearSignInNotice(): void {
  storage()?.removeItem(NOTICE_KEY);
}

/** Remembers the portal to offer at the next sign-in in this tab. */
export function rememberPortalUrl(url: string): void {
  storage()?.setItem(PORTAL_KEY, normalizePortalUrl(url));
  if (!state.session) configureApi({ portalUrl: normalizePortalUrl(url) });
}

/** The portal URL used last in this tab, else this server's. */
export function lastPortalUrl(): string {
  return storage()?.getItem(PORTAL_KEY) ?? defaultPortalUrl();
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSessionState(): SessionState {
  return useSyncExternalStore(subscribeSession, getSessionState, getSessionState);
}

export function useSession(): Session | null {
  return useSessionState().session;
}

/** The signed-in member; only for components rendered inside the signed-in part of the app. */
export function useCurrentUser(): PortalUser {
  const session = useSession();
  if (!session) throw new Error('useCurrentUser() needs a session');
  return session.user;
}

loadSession();
