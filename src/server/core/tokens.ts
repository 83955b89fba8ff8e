/** Tokens: 256-bit random reference tokens (ASVS 7.2.3); the database keeps only their SHA-256. */
import { hash, randomBytes } from 'node:crypto';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Computed on every authenticated request: the one-shot hash() takes about a third of createHash()'s time. */
export function tokenHash(token: string): string {
  return hash('sha256', token, 'hex');
}
