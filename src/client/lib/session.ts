/**
 * The sessions of this tab: one per portal signed in to (keyed by its …/sharing/rest URL), and
 * which of them the console is acting on (the active one — what getSession()/useSession() return).
 * Each holds the token and its expiry, the signed-in member (community/self), the portal's name,
 * and for OAuth sign-ins the app's client ID and the refresh token.
 *
 * Kept in sessionStorage (this tab only, gone when the tab closes) — never in localStorage.
 * The store points the API module at the active portal and token whenever they change, refreshes
 * an OAuth access token shortly before it expires, and is the API module's refresher when the
 * portal refuses a token (498): one refresh per portal at a time, however many requests ask.
 */
import { useSyncExternalStore } from 'react';
import {
  ApiError,
  configureApi,
  defaultPortalUrl,
  NETWORK_ERROR,
  normalizePortalUrl,
  refreshAccessToken,
  setTokenRefresher,
  type PortalUser,
} from '../api/index.ts';

export interface Session {
  /** …/sharing/rest of the portal signed in to. */
  portalUrl: string;
  token: string;
  /** Epoch ms. */
  expires: number;
  user: PortalUser;
  /** The portal's name (portals/self) for the header; absent when it could not be read. */
  portalName?: string;
  /** OAuth sign-ins: the registered app the tokens were issued to. */
  clientId?: string;
  /** OAuth sign-ins: gets a new access token (oauth2/token grant_type=refresh_token). */
  refreshToken?: string;
  /** Epoch ms; absent when the portal did not say. */
  refreshTokenExpires?: number;
}

/** Why there is no active session: never signed in, signed out, or the portal stopped accepting the token. */
export type SessionEnd = 'none' | 'signedOut' | 'expired';

export interface SessionState {
  /** The session of the portal the console is acting on. */
  session: Session | null;
  /** Every portal signed in to in this tab, the active one included. */
  sessions: readonly Session[];
  ended: SessionEnd;
}

const SESSIONS_KEY = 'portal-admin-console.sessions';
const ACTIVE_KEY = 'portal-admin-console.activePortal';
/** One session per tab, before several portals: read once, then written in the new form. */
const LEGACY_SESSION_KEY = 'portal-admin-console.session';
const NOTICE_KEY = 'portal-admin-console.signInNotice';
const PORTAL_KEY = 'portal-admin-console.portalUrl';

/** An OAuth access token is refreshed this long before it expires. */
export const REFRESH_LEAD_MS = 60_000;
/** A refresh that could not reach the portal is tried again after this long. */
const REFRESH_RETRY_MS = 15_000;

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
    Array.isArray(s.user.privileges) &&
    (s.refreshToken === undefined || (typeof s.refreshToken === 'string' && typeof s.clientId === 'string'))
  );
}

/** The session can get a new access token by itself. */
export function canRefresh(s: Session, now = Date.now()): boolean {
  return !!s.refreshToken && !!s.clientId && (s.refreshTokenExpires === undefined || s.refreshTokenExpires > now);
}

/** Still worth keeping: its token works, or a new one can be had. */
function usable(s: Session, now: number): boolean {
  return s.expires > now || canRefresh(s, now);
}

type SessionMap = Record<string, Session>;

function readStoredMap(now: number): SessionMap {
  const s = storage();
  const out: SessionMap = {};
  const add = (value: unknown) => {
    if (isSession(value) && usable(value, now)) out[normalizePortalUrl(value.portalUrl)] = { ...value, portalUrl: normalizePortalUrl(value.portalUrl) };
  };
  try {
    const parsed: unknown = JSON.parse(s?.getItem(SESSIONS_KEY) ?? '{}');
    if (parsed && typeof parsed === 'object') Object.values(parsed).forEach(add);
  } catch {
    /* unreadable: nothing kept */
  }
  try {
    const legacy = s?.getItem(LEGACY_SESSION_KEY);
    if (legacy) add(JSON.parse(legacy));
  } catch {
    /* unreadable */
  }
  return out;
}

function storedActive(map: SessionMap): string | null {
  const s = storage();
  const active = s?.getItem(ACTIVE_KEY) ?? (s?.getItem(LEGACY_SESSION_KEY) ? Object.keys(map)[0] : null);
  return active && map[active] ? active : null;
}

/** The stored active session, or null when there is none, it is unreadable, or it can no longer be used. */
export function readStoredSession(now = Date.now()): Session | null {
  const map = readStoredMap(now);
  const active = storedActive(map);
  return active ? map[active] : null;
}

let sessions: SessionMap = {};
let activePortal: string | null = null;
let state: SessionState = { session: null, sessions: [], ended: 'none' };
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setTimeout> | undefined;
const refreshing = new Map<string, Promise<string | null>>();

function persist(): void {
  const s = storage();
  if (!s) return;
  s.removeItem(LEGACY_SESSION_KEY);
  if (Object.keys(sessions).length) s.setItem(SESSIONS_KEY, JSON.stringify(sessions));
  else s.removeItem(SESSIONS_KEY);
  if (activePortal) s.setItem(ACTIVE_KEY, activePortal);
  else s.removeItem(ACTIVE_KEY);
}

function commit(ended: SessionEnd): void {
  persist();
  const session = activePortal ? (sessions[activePortal] ?? null) : null;
  state = { session, sessions: Object.values(sessions), ended };
  configureApi(session ? { portalUrl: session.portalUrl, token: session.token } : { portalUrl: lastPortalUrl() });
  schedule(session);
  for (const listener of [...listeners]) listener();
}

/**
 * One timer, for the active session: an OAuth token is refreshed REFRESH_LEAD_MS before it runs
 * out; a token without a refresh token ends the session when it runs out (as it always did).
 * Other portals' sessions are refreshed when they become active again.
 */
function schedule(session: Session | null, retryIn?: number): void {
  if (timer) clearTimeout(timer);
  timer = undefined;
  if (!session) return;
  const refreshable = canRefresh(session);
  const due = refreshable ? session.expires - REFRESH_LEAD_MS : session.expires;
  // setTimeout takes at most 2^31-1 ms; a longer wait is checked again when the timer fires.
  const wait = Math.min(Math.max(retryIn ?? due - Date.now(), 0), 2 ** 31 - 1);
  const token = session.token;
  timer = setTimeout(() => {
    const current = state.session;
    if (!current || current.token !== token || current.portalUrl !== session.portalUrl) return;
    const now = Date.now();
    if (canRefresh(current, now) && current.expires - REFRESH_LEAD_MS <= now) {
      void refreshSessionToken(current.portalUrl).then((next) => {
        // The portal could not be reached: try again shortly (the session ends if it says no).
        if (next === null && state.session?.token === token) schedule(state.session, REFRESH_RETRY_MS);
      });
    } else if (!canRefresh(current, now) && current.expires <= now) expireSession();
    else schedule(current);
  }, wait);
}

/** Loads the tab's stored sessions (at start, and in tests after changing sessionStorage). */
export function loadSession(): SessionState {
  refreshing.clear();
  sessions = readStoredMap(Date.now());
  activePortal = storedActive(sessions);
  commit('none');
  return state;
}

export function getSessionState(): SessionState {
  return state;
}

/** The active portal's session. */
export function getSession(): Session | null {
  return state.session;
}

/** Stores a new session (after sign-in), makes its portal the active one and remembers it for the next sign-in. */
export function setSession(session: Session): void {
  const clean = { ...session, portalUrl: normalizePortalUrl(session.portalUrl) };
  sessions = { ...sessions, [clean.portalUrl]: clean };
  activePortal = clean.portalUrl;
  const s = storage();
  s?.setItem(PORTAL_KEY, clean.portalUrl);
  s?.removeItem(NOTICE_KEY);
  commit('none');
}

/**
 * Acts on another portal signed in to in this tab. False when there is no usable session for it.
 * The caller clears what was read from the previous portal (React Query's cache).
 */
export function switchPortal(portalUrl: string): boolean {
  const key = normalizePortalUrl(portalUrl);
  const target = sessions[key];
  if (!target || !usable(target, Date.now())) {
    if (target) dropSession(key);
    return false;
  }
  activePortal = key;
  storage()?.setItem(PORTAL_KEY, key);
  commit('none');
  return true;
}

/** Replaces the signed-in member's record (after community/self was read again) of that portal (default: the active one). */
export function updateSessionUser(user: PortalUser, portalUrl?: string): void {
  const key = portalUrl ? normalizePortalUrl(portalUrl) : activePortal;
  const current = key ? sessions[key] : undefined;
  if (!current || current.user.username !== user.username) return;
  sessions = { ...sessions, [current.portalUrl]: { ...current, user } };
  commit(state.ended);
}

function dropSession(key: string): void {
  const { [key]: _gone, ...rest } = sessions;
  sessions = rest;
  refreshing.delete(key);
  commit(state.ended);
}

/** Signing out of the active portal: forget its session (other portals' stay). */
export function clearSession(): void {
  if (activePortal) {
    const { [activePortal]: _gone, ...rest } = sessions;
    sessions = rest;
    refreshing.delete(activePortal);
  }
  activePortal = null;
  // A refresh refused while signing out (its refresh token was revoked first) is no "expired" notice.
  storage()?.removeItem(NOTICE_KEY);
  commit('signedOut');
}

/**
 * The portal refused the token (498/499) or it ran out: forget that portal's session and, when it
 * was the active one, tell the sign-in page why. `portalUrl` names the portal the refused request
 * went to (default: the active one) — an answer arriving late from a portal switched away from
 * must not end the session of the one switched to.
 */
export function expireSession(message = EXPIRED_MESSAGE, portalUrl?: string): void {
  const key = portalUrl ? normalizePortalUrl(portalUrl) : activePortal;
  if (key && key !== activePortal) {
    if (sessions[key]) dropSession(key);
    return;
  }
  if (!state.session && state.ended === 'expired') return;
  if (activePortal) {
    const { [activePortal]: _gone, ...rest } = sessions;
    sessions = rest;
    refreshing.delete(activePortal);
  }
  activePortal = null;
  storage()?.setItem(NOTICE_KEY, message);
  commit('expired');
}

/** The portal (…/sharing/rest) of a session whose REST or admin API this URL is under, if any. */
export function sessionPortalOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  return Object.keys(sessions).find((p) => url.startsWith(`${p}/`) || url.startsWith(`${p.replace(/\/sharing\/rest$/i, '/portaladmin')}/`));
}

/**
 * A new access token for the portal's session, from its refresh token. Resolves with the token to
 * use — the current one when it already changed since `refusedToken` was sent — or null when the
 * session cannot be refreshed. Concurrent calls share one request to the portal. A portal that
 * refuses the refresh token ends the session; one that cannot be reached leaves it as it is.
 */
export function refreshSessionToken(portalUrl: string, refusedToken?: string): Promise<string | null> {
  const key = normalizePortalUrl(portalUrl);
  const running = refreshing.get(key);
  if (running) return running;
  const current = sessions[key];
  if (!current) return Promise.resolve(null);
  if (refusedToken && current.token !== refusedToken) return Promise.resolve(current.token);
  if (!canRefresh(current)) return Promise.resolve(null);
  const pending = refreshAccessToken({ portalUrl: key, clientId: current.clientId!, refreshToken: current.refreshToken! })
    .then(
      (answer) => {
        const still = sessions[key];
        // Signed out (or signed in again) while the refresh was under way: its answer is not ours.
        if (!still || still.refreshToken !== current.refreshToken) return null;
        const now = Date.now();
        const next: Session = {
          ...still,
          token: answer.access_token,
          expires: now + answer.expires_in * 1000,
          ...(answer.refresh_token
            ? {
                refreshToken: answer.refresh_token,
                refreshTokenExpires: answer.refresh_token_expires_in ? now + answer.refresh_token_expires_in * 1000 : undefined,
              }
            : {}),
        };
        sessions = { ...sessions, [key]: next };
        commit(state.ended);
        return next.token;
      },
      (err: unknown) => {
        if (err instanceof ApiError && err.code === NETWORK_ERROR) return null;
        expireSession(EXPIRED_MESSAGE, key);
        return null;
      },
    )
    .finally(() => {
      if (refreshing.get(key) === pending) refreshing.delete(key);
    });
  refreshing.set(key, pending);
  return pending;
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

setTokenRefresher(refreshSessionToken);
loadSession();
