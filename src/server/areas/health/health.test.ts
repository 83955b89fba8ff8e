/**
 * The health check and the answer of a request the database cannot serve (both databases). The
 * real outage — PostgreSQL stopped under traffic and started again — is store/databaseOutage.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { DatabaseUnavailableError } from '../../store/db.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

const health = () => svc.app.inject({ method: 'GET', url: '/portaladmin/healthCheck?f=json' });

describe('healthCheck', () => {
  it('answers HTTP 200 {"status":"success"} without a token while the database answers', async () => {
    const res = await health();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'success' });
  });

  it('answers HTTP 503 with the error envelope, and requests the 503 envelope, while the database is out of reach', async () => {
    const db = svc.app.portal.db;
    const { query, queryPrepared } = db;
    const down = () => Promise.reject(new DatabaseUnavailableError('The database is unavailable: Connection terminated unexpectedly'));
    Object.assign(db, { query: down, queryPrepared: down });
    try {
      const res = await health();
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ error: { code: 503, message: 'The database is unavailable. Try again shortly.' } });
      const token = await svc.app.inject({ method: 'POST', url: '/sharing/rest/generateToken', payload: { f: 'json', username: 'admin', password: 'x' } });
      expect(token.statusCode).toBe(200);
      expect(token.json()).toMatchObject({ error: { code: 503, message: 'The database is unavailable. Try again shortly.' } });
    } finally {
      Object.assign(db, { query, queryPrepared });
    }
    expect((await health()).statusCode).toBe(200);
  });
});
