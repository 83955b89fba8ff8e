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
  setSession,
  signInNotice,
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
    const key = Object.keys(sessionStorage).find((k) => k.endsWith('.session'))!;
    sessionStorage.setItem(key, '{not json');
    expect(loadSession().session).toBeNull();
  });

  it('expiring tells the sign-in page why and notifies subscribers', () => {
    setSession(session());
    const seen: (Session | null)[] = [];
    const stop = subscribeSession(() => seen.push(getSession()));
    expireSession();
    stop();
    expect(getSessionState()).toEqual({ session: null, ended: 'expired' });
    expect(seen).toEqual([null]);
    expect(signInNotice()).toMatch(/expired or is no longer valid/);
    expect(readStoredSession()).toBeNull();
  });

  it('signing out forgets the session without a notice', () => {
    setSession(session());
    clearSession();
    expect(getSessionState()).toEqual({ session: null, ended: 'signedOut' });
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
