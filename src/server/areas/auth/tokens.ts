/** Tokens: 256-bit random reference tokens (ASVS 7.2.3); the database keeps only their SHA-256. */
import { createHash, randomBytes } from 'node:crypto';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
