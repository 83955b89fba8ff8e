import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../core/passwords.ts';
import { buildDemoHashes, demoHashesStaleReason, readDemoHashes } from './demoHashes.ts';

// A low cost keeps the test fast; the file records it and is only used for that cost.
const LOG_N = 10;
const file = () => path.join(mkdtempSync(path.join(tmpdir(), 'demo-hashes-')), 'hashes.json');

describe('demo password hashes computed at build time', () => {
  it('gives one verifying hash per account, each with its own salt', async () => {
    const f = file();
    expect(await demoHashesStaleReason('Secret.1', LOG_N, 3, f)).toMatch(/no current/);
    await buildDemoHashes('Secret.1', LOG_N, 3, f);
    expect(await demoHashesStaleReason('Secret.1', LOG_N, 3, f)).toBeUndefined();
    const hashes = await readDemoHashes('Secret.1', LOG_N, 2, f);
    expect(hashes).toHaveLength(2);
    expect(new Set(hashes).size).toBe(2);
    for (const h of hashes!) {
      expect(await verifyPassword('Secret.1', h)).toBe(true);
      expect(await verifyPassword('Secret.2', h)).toBe(false);
    }
  });

  it('is not used for another password, another cost, more accounts, or a damaged file', async () => {
    const f = file();
    await buildDemoHashes('Secret.1', LOG_N, 3, f);
    expect(await readDemoHashes('Secret.2', LOG_N, 3, f)).toBeUndefined();
    expect(await readDemoHashes('Secret.1', LOG_N + 1, 3, f)).toBeUndefined();
    expect(await readDemoHashes('Secret.1', LOG_N, 4, f)).toBeUndefined();
    expect(await readDemoHashes('Secret.1', LOG_N, 3, path.join(path.dirname(f), 'missing.json'))).toBeUndefined();
    writeFileSync(f, '{"passwordSha256": ');
    expect(await readDemoHashes('Secret.1', LOG_N, 3, f)).toBeUndefined();
    expect(await demoHashesStaleReason('Secret.1', LOG_N, 3, f)).toMatch(/no current/);
  });
});
