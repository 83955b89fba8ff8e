/**
 * Trusting a self-signed certificate in Chromium the narrow way: by the SHA-256 of its public key
 * (`--ignore-certificate-errors-spki-list`), so that every other certificate error still fails.
 */
import { createHash, X509Certificate } from 'node:crypto';

/** base64 SHA-256 of the certificate's SubjectPublicKeyInfo, the form Chromium's flag takes. */
export function spkiHash(certPem: string): string {
  const spki = new X509Certificate(certPem).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}
