/**
 * A PostgreSQL server of the test's own, on a free loopback port in a temporary directory, that the
 * test may stop (as a crash or a failover would: `pg_ctl -m immediate stop`) and start again —
 * never the shared server DATABASE_URL names. Needs the server binaries (initdb, pg_ctl); run as
 * root, they run as the `postgres` user through runuser (initdb refuses root).
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './ports.ts';

const run = promisify(execFile);

export interface ThrowawayPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** Stop at once, without a checkpoint: every connection is cut, as when the server crashes. */
  crash(): Promise<void>;
  start(): Promise<void>;
  remove(): Promise<void>;
}

/** The newest installed server's bin directory (Debian's layout, then PG_BIN), or why there is none. */
function findBin(): { bin: string } | { missing: string } {
  const candidates = [process.env.PG_BIN, ...listDebianBins()].filter((d): d is string => !!d);
  const bin = candidates.find((d) => existsSync(path.join(d, 'initdb')) && existsSync(path.join(d, 'pg_ctl')));
  return bin ? { bin } : { missing: 'no PostgreSQL server binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin or PG_BIN' };
}

function listDebianBins(): string[] {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => path.join(root, v, 'bin'));
}

const asRoot = userInfo().uid === 0;

/** Why a throwaway server cannot be started here, or undefined when it can. */
export function throwawayPostgresUnavailable(): string | undefined {
  const found = findBin();
  if ('missing' in found) return found.missing;
  if (asRoot && !['/usr/sbin/runuser', '/sbin/runuser', '/usr/bin/runuser'].some(existsSync))
    return 'running as root without runuser to start PostgreSQL as postgres';
  return undefined;
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const found = findBin();
  if ('missing' in found) throw new Error(found.missing);
  const tool = (name: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(found.bin, name), ...args]) : run(path.join(found.bin, name), args);
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-pg-'));
  if (asRoot) chownSync(dir, Number((await run('id', ['-u', 'postgres'])).stdout.trim()), Number((await run('id', ['-g', 'postgres'])).stdout.trim()));
  const data = path.join(dir, 'data');
  await tool('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const server: ThrowawayPostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    crash: async () => void (await tool('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])),
    start: async () => void (await tool('pg_ctl', ['-D', data, '-w', '-l', path.join(dir, 'server.log'), '-o', options, 'start'])),
    async remove() {
      await tool('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}
