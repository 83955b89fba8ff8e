import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentConnection } from '../api/index.ts';
import type { PortalUser } from '../api/index.ts';
import {
  clearSession,
  expireSession,
  getSession,
  getSessionState,
  lastPortalUrl,
  loadSession,
  readStoredSession,
  sessionPortalOf,
  setSession,
  signInNotice,
  switchPortal,
  subscribeSession,
  updateSessionUser,
  type Session,
} from './session.ts';

const user = { username: 'user1', fullName: 'Uma User', role: 'org_user', privileges: ['portal:user:viewOrgUsers'], orgId: 'ORG' } as PortalUser;
const session = (over: Partial<Session> = {}): Session => ({
  portalUrl: 'https://portal.example/arcgis/sharing/rest/',
  token: 'tok-123',
  expires: Date.now() + 60 * 60_000,
  user,
  ...over,
});

afterEach(() => {
  vi.useRealTimers();
  clearSession();
});

describe('session store', () => {
  it('keeps the session in sessionStorage, never in localStorage', () => {
    setSession(session());
    const keys = Object.keys(sessionStorage);
    expect(keys.some((k) => sessionStorage.getItem(k)!.includes('tok-123'))).toBe(true);
    expect(localStorage.length).toBe(0);
    for (const k of Object.keys(localStorage)) expect(localStorage.getItem(k)).not.toContain('tok-123');
  });

  it('points the API module at the session portal and token, normalised', () => {
    setSession(session());
    expect(currentConnection()).toEqual({ portalUrl: 'https://portal.example/arcgis/sharing/rest', token: 'tok-123' });
    clearSession();
    expect(currentConnection().token).toBeUndefined();
    // The portal is remembered for the next sign-in in this tab.
    expect(lastPortalUrl()).toBe('https://portal.example/arcgis/sharing/rest');
  });

  it('survives a reload of the tab (read back from sessionStorage)', () => {
    setSession(session());
    const state = loadSession();
    expect(state.session?.token).toBe('tok-123');
    expect(state.session?.user.username).toBe('user1');
  });

  it('drops a stored session whose token has expired, and unreadable ones', () => {
    setSession(session({ expires: Date.now() + 1000 }));
    expect(readStoredSession(Date.now() + 2000)).toBeNull();
    const key = Object.keys(sessionStorage).find((k) => k.endsWith('.sessions'))!;
    sessionStorage.setItem(key, '{not json');
    expect(loadSession().session).toBeNull();
  });

  it('expiring tells the sign-in page why and notifies subscribers', () => {
    setSession(session());
    const seen: (Session | null)[] = [];
    const stop = subscribeSession(() => seen.push(getSession()));
    expireSession();
    stop();
    expect(getSessionState()).toEqual({ session: null, sessions: [], ended: 'expired' });
    expect(seen).toEqual([null]);
    expect(signInNotice()).toMatch(/expired or is no longer valid/);
    expect(readStoredSession()).toBeNull();
  });

  it('signing out forgets the session without a notice', () => {
    setSession(session());
    clearSession();
    expect(getSessionState()).toEqual({ session: null, sessions: [], ended: 'signedOut' });
    expect(signInNotice()).toBeNull();
  });

  it('ends the session by itself when the token runs out', () => {
    vi.useFakeTimers();
    setSession(session({ expires: Date.now() + 5_000 }));
    vi.advanceTimersByTime(4_000);
    expect(getSession()).not.toBeNull();
    vi.advanceTimersByTime(2_000);
    expect(getSessionState().ended).toBe('expired');
  });

  it('updates the member record only for the same member', () => {
    setSession(session());
    updateSessionUser({ ...user, role: 'org_publisher' });
    expect(getSession()?.user.role).toBe('org_publisher');
    updateSessionUser({ ...user, username: 'someone_else', role: 'org_admin' });
    expect(getSession()?.user.username).toBe('user1');
  });
});

describe('several portals in one tab', () => {
  const other = (over: Partial<Session> = {}) =>
    session({
      portalUrl: 'https://other.example/portal/sharing/rest',
      token: 'tok-other',
      portalName: 'Other Org',
      user: { ...user, username: 'ada' },
      ...over,
    });

  it('keeps one session per portal; the last one signed in to is the active one', () => {
    setSession(session());
    setSession(other());
    expect(getSession()?.portalUrl).toBe('https://other.example/portal/sharing/rest');
    expect(
      getSessionState()
        .sessions.map((s) => s.portalUrl)
        .sort(),
    ).toEqual(['https://other.example/portal/sharing/rest', 'https://portal.example/arcgis/sharing/rest']);
    expect(currentConnection()).toEqual({ portalUrl: 'https://other.example/portal/sharing/rest', token: 'tok-other' });
    // Signing in again to the same portal replaces its session.
    setSession(other({ token: 'tok-other-2' }));
    expect(getSessionState().sessions).toHaveLength(2);
    expect(getSession()?.token).toBe('tok-other-2');
    // Both survive a reload, the active one stays active.
    const reloaded = loadSession();
    expect(reloaded.sessions).toHaveLength(2);
    expect(reloaded.session?.token).toBe('tok-other-2');
  });

  it('switching points the API module at the other portal; unknown portals are refused', () => {
    setSession(session());
    setSession(other());
    expect(switchPortal('https://portal.example/arcgis/sharing/rest/')).toBe(true);
    expect(getSession()?.user.username).toBe('user1');
    expect(currentConnection()).toEqual({ portalUrl: 'https://portal.example/arcgis/sharing/rest', token: 'tok-123' });
    expect(switchPortal('https://nowhere.example/sharing/rest')).toBe(false);
    expect(getSession()?.token).toBe('tok-123');
  });

  it('does not switch to a session that can no longer be used (token expired, no refresh token)', () => {
    vi.useFakeTimers();
    setSession(other({ expires: Date.now() + 10_000 }));
    setSession(session());
    vi.advanceTimersByTime(20_000);
    expect(switchPortal('https://other.example/portal/sharing/rest')).toBe(false);
    expect(getSession()?.token).toBe('tok-123');
    expect(getSessionState().sessions).toHaveLength(1);
  });

  it('signing out ends only the active portal’s session', () => {
    setSession(session());
    setSession(other());
    clearSession();
    expect(getSessionState().session).toBeNull();
    expect(getSessionState().ended).toBe('signedOut');
    expect(getSessionState().sessions.map((s) => s.token)).toEqual(['tok-123']);
    expect(Object.values(sessionStorage).join()).not.toContain('tok-other');
  });

  it('a refused token from a portal switched away from ends that portal’s session, not the active one', () => {
    setSession(session());
    setSession(other());
    expireSession(undefined, 'https://portal.example/arcgis/sharing/rest');
    expect(getSessionState().ended).toBe('none');
    expect(getSession()?.token).toBe('tok-other');
    expect(getSessionState().sessions).toHaveLength(1);
    expect(signInNotice()).toBeNull();
  });

  it('names the session a request URL belongs to (REST and admin API)', () => {
    setSession(session());
    setSession(other());
    expect(sessionPortalOf('https://portal.example/arcgis/sharing/rest/community/self')).toBe('https://portal.example/arcgis/sharing/rest');
    expect(sessionPortalOf('https://other.example/portal/portaladmin/security/users/createUser')).toBe('https://other.example/portal/sharing/rest');
    expect(sessionPortalOf('https://portal.example/arcgis/sharing/restless/x')).toBeUndefined();
    expect(sessionPortalOf(undefined)).toBeUndefined();
  });

  it('keeps an OAuth session whose access token ran out while its refresh token is good', () => {
    const now = Date.now();
    setSession(other({ expires: now - 1_000, clientId: 'consoleApp1', refreshToken: 'rt-1', refreshTokenExpires: now + 3_600_000 }));
    setSession(session({ expires: now - 1_000 }));
    expect(readStoredSession()).toBeNull();
    const state = loadSession();
    expect(state.sessions.map((s) => s.token)).toEqual(['tok-other']);
    // Its refresh token ran out too: nothing left to use.
    expect(readStoredSession(now + 3_700_000)).toBeNull();
  });

  it('reads a session stored by the one-portal console (before several portals)', () => {
    sessionStorage.setItem('portal-admin-console.session', JSON.stringify(session()));
    const state = loadSession();
    expect(state.session?.token).toBe('tok-123');
    expect(sessionStorage.getItem('portal-admin-console.session')).toBeNull();
    expect(sessionStorage.getItem('portal-admin-console.sessions')).toContain('tok-123');
  });
});
