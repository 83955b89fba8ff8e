/**
 * Password hashing with scrypt from node:crypto (OWASP: N=2^17, r=8, p=1), stored in PHC string
 * form so parameters can be raised later without invalidating existing hashes.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, keylen: number, opts: ScryptOptions) => Promise<Buffer>;

const KEY_LENGTH = 32;
export const DEFAULT_LOG_N = 17;

function options(logN: number, r: number, p: number): ScryptOptions {
  // maxmem must exceed 128 * N * r bytes, or node refuses.
  return { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r };
}

export async function hashPassword(password: string, logN = DEFAULT_LOG_N): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options(logN, 8, 1));
  return `$scrypt$ln=${logN},r=8,p=1$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([\w-]+)\$([\w-]+)$/.exec(stored);
  if (!m) return false;
  const [, ln, r, p, salt, hash] = m;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password.normalize('NFKC'), Buffer.from(salt, 'base64url'), expected.length, options(+ln, +r, +p));
  return timingSafeEqual(actual, expected);
}

/**
 * A hash to verify against when the username does not exist, so that answering "wrong username"
 * takes as long as "wrong password" and does not reveal which accounts exist.
 */
let decoy: Promise<string> | undefined;
export function decoyHash(logN: number): Promise<string> {
  decoy ??= hashPassword(randomBytes(12).toString('hex'), logN);
  return decoy;
}
