import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startService, type TestService } from '../../../../test/support/service.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

describe('generateToken', () => {
  it('answers {token, expires, ssl} for the right password', async () => {
    const res = await svc.app.inject({ method: 'POST', url: '/sharing/rest/generateToken', payload: { username: 'admin', password: DEMO_PASSWORD, f: 'json', expiration: '30' } });
    const body = res.json();
    expect(typeof body.token).toBe('string');
    expect(body.ssl).toBe(false);
    expect(body.expires - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(body.expires - Date.now()).toBeLessThanOrEqual(30 * 60_000);
  });

  it('refuses a wrong password with code 400 "Unable to generate token."', async () => {
    const res = await svc.app.inject({ method: 'POST', url: '/sharing/rest/generateToken', payload: { username: 'user1', password: 'nope-nope-1', f: 'json' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ error: { code: 400, message: 'Unable to generate token.', details: ['Invalid username or password.'] } });
  });
});
