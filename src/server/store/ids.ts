import { randomBytes, randomUUID } from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random alphanumeric id (organization ids are 16 characters, role ids 16). */
export function alnumId(length = 16): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  // Rejection sampling keeps every character equally likely.
  for (let i = 0; i < bytes.length && out.length < length; i++) if (bytes[i] < 248) out += ALNUM[bytes[i] % 62];
  return out.length === length ? out : alnumId(length);
}

/** Item, user, group ids: 32 lowercase hex characters, like the real service's. */
export function hexId(): string {
  return randomUUID().replaceAll('-', '');
}
