/**
 * The sign-in form of oauth2/authorize, carried by the form itself: the checked OAuth parameters,
 * the form's end and the hash of the browser's binding cookie, signed with HMAC-SHA-256 under a key
 * every instance reads from the database (server_keys). Showing the page stores nothing, so no
 * number of anonymous views can fill anything a real sign-in needs.
 *
 * Replay: within its lifetime a form can be posted again from the browser holding its cookie; a
 * successful sign-in spends it (repo.spendSignInForm), so it yields one authorization code at most,
 * and that code is single use, bound to the app, the redirect URI and the PKCE challenge.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../../store/db.ts';
import { findOrInsertServerKey, type SignInFormRow } from './repo.ts';

const KEY_NAME = 'oauth-sign-in-form';
const VERSION = 'f1';
/** What the MAC covers besides the payload: a key used for this purpose only. */
const PURPOSE = 'portal oauth2/authorize sign-in form\u0000';

/** The key per database handle: read (or made) once per process. */
const keys = new WeakMap<object, Promise<Buffer>>();

async function readKey(db: Queryable): Promise<Buffer> {
  const key = await findOrInsertServerKey(db, KEY_NAME, randomBytes(32).toString('base64'), Date.now());
  return Buffer.from(key, 'base64');
}

function formKey(db: Queryable): Promise<Buffer> {
  let key = keys.get(db);
  if (!key) {
    key = readKey(db);
    // A failed read (the database away for a moment) is not kept: the next form tries again.
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}

const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(PURPOSE).update(payload).digest();

/** The form's hidden value: version, payload and MAC, base64url, joined by dots. */
export async function sealForm(db: Queryable, form: SignInFormRow): Promise<string> {
  const payload = Buffer.from(
    JSON.stringify([
      form.client_id,
      form.redirect_uri,
      form.state,
      form.code_challenge,
      form.code_challenge_method,
      form.expiration,
      form.binding_hash,
      form.expires,
    ]),
  ).toString('base64url');
  return `${VERSION}.${payload}.${mac(await formKey(db), payload).toString('base64url')}`;
}

export type OpenedForm = { form: SignInFormRow } | { problem: 'invalid' | 'expired' };

/** The form a posted value carries: `invalid` if it was not made by this portal or was changed, `expired` past its end. */
export async function openForm(db: Queryable, value: string, now: number): Promise<OpenedForm> {
  const parts = value.split('.');
  if (parts.length !== 3 || parts[0] !== VERSION || !/^[A-Za-z0-9_-]+$/.test(parts[1]) || !/^[A-Za-z0-9_-]{43}$/.test(parts[2])) {
    return { problem: 'invalid' };
  }
  const expected = mac(await formKey(db), parts[1]);
  if (!timingSafeEqual(expected, Buffer.from(parts[2], 'base64url'))) return { problem: 'invalid' };
  // Signed by this portal: the payload is what sealForm wrote.
  const [client_id, redirect_uri, state, code_challenge, code_challenge_method, expiration, binding_hash, expires] = JSON.parse(
    Buffer.from(parts[1], 'base64url').toString('utf8'),
  ) as [string, string, string | null, string, 'S256' | 'plain', number | null, string, number];
  if (!(expires > now)) return { problem: 'expired' };
  return { form: { client_id, redirect_uri, state, code_challenge, code_challenge_method, expiration, binding_hash, expires } };
}

/** What a spent form is recorded under: the hash of its whole value. */
export const formId = (value: string) => createHash('sha256').update(value).digest('hex');
