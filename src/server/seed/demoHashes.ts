/**
 * The demo accounts' password hashes, computed when the checkout is built rather than at each
 * first start. Five scrypt hashes (log N = 17) take two to three seconds of both cores of a small
 * machine: most of a first start on a new data directory. Their password is the published
 * DEMO_PASSWORD, so nothing is learned from a hash computed ahead (each account still has its own
 * salt; installations built from one checkout share them). A file for another password, another
 * cost or too few accounts is not used; scripts/build-if-stale.ts rebuilds it.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { hashPassword } from '../core/passwords.ts';
import { BUILT_FILES } from '../config.ts';

export const DEMO_HASHES_FILE = BUILT_FILES.demoHashesFile;

interface DemoHashes {
  /** SHA-256 of the password the hashes are of (hex): a changed DEMO_PASSWORD makes the file unusable. */
  passwordSha256: string;
  logN: number;
  hashes: string[];
}

const sha256 = (s: string) => createHash('sha256').update(s.normalize('NFKC')).digest('hex');

/** `count` hashes of `password` at cost `logN` from the file, or undefined when it has none for them. */
export async function readDemoHashes(password: string, logN: number, count: number, file = DEMO_HASHES_FILE): Promise<string[] | undefined> {
  let stored: DemoHashes;
  try {
    stored = JSON.parse(await readFile(file, 'utf8')) as DemoHashes;
  } catch {
    return undefined;
  }
  const usable =
    stored.passwordSha256 === sha256(password) &&
    stored.logN === logN &&
    Array.isArray(stored.hashes) &&
    stored.hashes.length >= count &&
    stored.hashes.every((h) => typeof h === 'string' && h.startsWith(`$scrypt$ln=${logN},`));
  return usable ? stored.hashes.slice(0, count) : undefined;
}

/** Why the file must be (re)built for these accounts, or undefined when it is current. */
export async function demoHashesStaleReason(password: string, logN: number, count: number, file = DEMO_HASHES_FILE): Promise<string | undefined> {
  return (await readDemoHashes(password, logN, count, file)) ? undefined : `no current ${path.basename(file)}`;
}

/** Hash the password `count` times (own salt each, in parallel) and write the file whole. */
export async function buildDemoHashes(password: string, logN: number, count: number, file = DEMO_HASHES_FILE): Promise<void> {
  const hashes = await Promise.all(Array.from({ length: count }, () => hashPassword(password, logN)));
  const body: DemoHashes = { passwordSha256: sha256(password), logN, hashes };
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(`${file}.partial`, `${JSON.stringify(body, null, 2)}\n`);
  await rename(`${file}.partial`, file);
}
