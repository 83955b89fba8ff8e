import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bufferPoolFor } from './pglite.ts';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

/** A data directory whose base/ holds files of these sizes (sparse: nothing is written). */
async function pgdataWith(sizes: number[]): Promise<string> {
  const pgdata = await mkdtemp(path.join(tmpdir(), 'pool-'));
  dirs.push(pgdata);
  await mkdir(path.join(pgdata, 'base', '5'), { recursive: true });
  for (const [i, size] of sizes.entries()) {
    const file = path.join(pgdata, 'base', '5', String(16_384 + i));
    await writeFile(file, '');
    await truncate(file, size);
  }
  return pgdata;
}

const MB = 2 ** 20;

describe("the embedded database's buffer pool", () => {
  it('is 4 MB in memory, for a new database and for a small one', async () => {
    expect(await bufferPoolFor(undefined)).toBe(4);
    expect(await bufferPoolFor(path.join(tmpdir(), 'no-such-pgdata'))).toBe(4);
    expect(await bufferPoolFor(await pgdataWith([11 * MB, 8 * MB]))).toBe(4);
  });

  it('grows with the files past 256 MB, a sixty-fourth of them, at most 32 MB', async () => {
    expect(await bufferPoolFor(await pgdataWith([400 * MB, 207 * MB]))).toBe(10);
    expect(await bufferPoolFor(await pgdataWith([1024 * MB, 1024 * MB, 1024 * MB]))).toBe(32);
  });
});
