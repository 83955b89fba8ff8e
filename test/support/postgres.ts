/**
 * For the PostgreSQL run: each test service gets its own schema in the database named by
 * DATABASE_URL, dropped afterwards, so suites can run in parallel on one server.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export async function freshPostgresSchema(databaseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}
