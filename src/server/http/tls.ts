/**
 * HTTPS for the local portal. The Maps SDK 5.x rewrites every portal URL to https:, so a portal
 * for SDK apps must speak TLS: with a certificate and key from files (TLS_CERT, TLS_KEY), or for
 * development with a generated one (TLS=self-signed) for localhost, 127.0.0.1 and ::1.
 *
 * The generated certificate is issued by a one-off certificate authority whose private key is
 * thrown away as soon as it has signed: the file users trust (ca.crt) is a CA certificate, which
 * every trust store accepts as one (Chromium's NSS "C,,", macOS, Windows' Root store, Node's
 * NODE_EXTRA_CA_CERTS), while the server's certificate is an ordinary leaf, which browsers require
 * (Firefox refuses a CA certificate used as a server's). With no key kept, trusting that CA
 * lets nobody who later reads the data folder mint certificates for other sites.
 */
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ConfigError, type Config } from '../config.ts';

/** What the server listens with: PEM text for Fastify's `https` option. */
export interface TlsCredentials {
  key: string;
  /** The server's certificate, followed by its issuer's for a generated one. */
  cert: string;
  notAfter: Date;
  /** A generated certificate: where its files are, and the certificate authority to trust. */
  selfSigned?: SelfSignedFiles;
}

export interface SelfSignedFiles {
  dir: string;
  /** The file to trust (a CA certificate, PEM). */
  caFile: string;
  caCert: string;
  certFile: string;
  keyFile: string;
  /** Made on this start (else reused from an earlier one). */
  generated: boolean;
}

/** The names a generated certificate covers. */
export const SELF_SIGNED_DNS = ['localhost'];
export const SELF_SIGNED_IPS = ['127.0.0.1', '::1'];
const VALID_DAYS = 365;
/** A generated certificate this close to its end is replaced at start, so it does not expire while running. */
const RENEW_BEFORE_MS = 7 * 24 * 3_600_000;

/** The credentials configuration asks for, or undefined for plain HTTP. Bad files are a ConfigError. */
export async function loadTls(config: Config, now = new Date()): Promise<TlsCredentials | undefined> {
  if (!config.tls) return undefined;
  if (config.tls.source === 'files') return readCertificateFiles(config.tls.certFile, config.tls.keyFile);
  return selfSignedCertificate(await selfSignedDir(config), now);
}

/** DATA_DIR/tls; for an in-memory database a fresh temporary folder (nothing else of it outlives the process either). */
export async function selfSignedDir(config: Pick<Config, 'dataDir'>): Promise<string> {
  if (config.dataDir === ':memory:') return mkdtemp(path.join(tmpdir(), 'portal-tls-'));
  return path.resolve(config.dataDir, 'tls');
}

async function readNamed(file: string, envName: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`${envName}=${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** TLS_CERT and TLS_KEY: both PEM, readable, and the key the certificate's. */
export async function readCertificateFiles(certFile: string, keyFile: string): Promise<TlsCredentials> {
  const [cert, key] = await Promise.all([readNamed(certFile, 'TLS_CERT'), readNamed(keyFile, 'TLS_KEY')]);
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch {
    throw new ConfigError(`TLS_CERT=${certFile}: is not a PEM certificate`);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(key);
  } catch (err) {
    const encrypted = /passphrase/i.test((err as Error).message);
    throw new ConfigError(`TLS_KEY=${keyFile}: ${encrypted ? 'is encrypted; give the key without a passphrase' : 'is not a PEM private key'}`);
  }
  if (!x509.checkPrivateKey(privateKey)) {
    throw new ConfigError(`TLS_KEY=${keyFile} is not the key of the certificate TLS_CERT=${certFile}`);
  }
  return { key, cert, notAfter: new Date(x509.validTo) };
}

/** Whether a generated certificate on disk can serve again: its key, its issuer, its names, its dates. */
function reusable(files: { cert: string; key: string; caCert: string }, now: Date): boolean {
  try {
    const leaf = new X509Certificate(files.cert);
    const ca = new X509Certificate(files.caCert);
    if (!leaf.checkPrivateKey(createPrivateKey(files.key)) || !leaf.checkIssued(ca) || !leaf.verify(ca.publicKey)) return false;
    if (!SELF_SIGNED_DNS.every((name) => leaf.checkHost(name)) || !SELF_SIGNED_IPS.every((ip) => leaf.checkIP(ip))) return false;
    return new Date(leaf.validFrom) <= now && new Date(leaf.validTo).getTime() - now.getTime() > RENEW_BEFORE_MS;
  } catch {
    return false;
  }
}

/**
 * The generated certificate in `dir` (ca.crt, localhost.crt, localhost.key), made when absent,
 * damaged, not covering the local names, or near its end; otherwise reused as it is.
 */
export async function selfSignedCertificate(dir: string, now = new Date()): Promise<TlsCredentials> {
  const files = { dir, caFile: path.join(dir, 'ca.crt'), certFile: path.join(dir, 'localhost.crt'), keyFile: path.join(dir, 'localhost.key') };
  const existing = await Promise.all([files.certFile, files.keyFile, files.caFile].map((f) => readFile(f, 'utf8').catch(() => undefined)));
  const [cert, key, caCert] = existing;
  if (cert && key && caCert && reusable({ cert, key, caCert }, now)) {
    return { key, cert, notAfter: new Date(new X509Certificate(cert).validTo), selfSigned: { ...files, caCert, generated: false } };
  }
  const made = await generateCertificate(now);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // Written beside, then renamed: a start interrupted half-way leaves the old set or a whole new one.
  await writeAtomically(files.keyFile, made.key, 0o600);
  await writeAtomically(files.certFile, made.cert, 0o644);
  await writeAtomically(files.caFile, made.caCert, 0o644);
  return { key: made.key, cert: made.cert, notAfter: made.notAfter, selfSigned: { ...files, caCert: made.caCert, generated: true } };
}

async function writeAtomically(file: string, text: string, mode: number): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, text, { mode });
  await chmod(temp, mode); // the umask may have narrowed or the file existed
  await rename(temp, file);
}

async function generateCertificate(now: Date): Promise<{ key: string; cert: string; caCert: string; notAfter: Date }> {
  // Imported only here: its X.509 library costs every start time and memory, and most never generate.
  const { generate } = await import('selfsigned');
  const notAfter = new Date(now.getTime() + VALID_DAYS * 24 * 3_600_000);
  const dates = { notBeforeDate: new Date(now.getTime() - 60_000), notAfterDate: notAfter };
  const stamp = now.toISOString().slice(0, 10);
  const ca = await generate([{ name: 'commonName', value: `Local Portal development CA ${stamp}` }], {
    ...dates,
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [
      // pathLenConstraint 0: it can sign server certificates only, never another authority.
      { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const leaf = await generate([{ name: 'commonName', value: 'localhost' }], {
    ...dates,
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [...SELF_SIGNED_DNS.map((value) => ({ type: 2 as const, value })), ...SELF_SIGNED_IPS.map((ip) => ({ type: 7 as const, ip }))],
      },
    ],
  });
  // ca.private goes out of scope here and is never written anywhere.
  return { key: leaf.private, cert: `${leaf.cert.trim()}\n${ca.cert.trim()}\n`, caCert: ca.cert, notAfter };
}

/** How to make browsers, the system and Node trust a generated certificate (printed at start; docs/configuration.md). */
export function trustInstructions(caFile: string): string[] {
  return [
    `The certificate authority to trust: ${caFile}`,
    `  Chromium/Chrome (Linux): certutil -d sql:$HOME/.pki/nssdb -A -t "C,," -n local-portal -i ${caFile}`,
    `  Debian/Ubuntu system:    sudo cp ${caFile} /usr/local/share/ca-certificates/local-portal.crt && sudo update-ca-certificates`,
    `  macOS:                   sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain ${caFile}`,
    `  Windows:                 certutil -addstore Root ${caFile}`,
    `  Node.js clients:         NODE_EXTRA_CA_CERTS=${caFile}`,
  ];
}

/**
 * Whether the portal is reached over HTTPS only: it listens with TLS, or its public address is
 * https: (TLS ends at a proxy in front of it). ArcGIS says so with `allSSL: true` on portals/self
 * and `ssl: true` on generateToken and oauth2/token ("the token must always be passed back via
 * HTTPS"), and browsers are told to keep to HTTPS with Strict-Transport-Security.
 */
export function httpsOnly(config: Pick<Config, 'tls' | 'publicUrl'>): boolean {
  return config.tls !== undefined || (config.publicUrl?.startsWith('https:') ?? false);
}

/** One year (RFC 6797): long enough to be preloaded, the value browsers' preload lists require at least. */
export const HSTS_MAX_AGE_SECONDS = 365 * 24 * 3600;

/**
 * Strict-Transport-Security on every answer of an HTTPS-only portal. No includeSubDomains: the
 * portal's host name may share its domain with sites this configuration knows nothing about.
 * Plain HTTP never gets it (RFC 6797 §7.2: a browser ignores it there anyway).
 */
export function installStrictTransportSecurity(app: FastifyInstance, config: Pick<Config, 'tls' | 'publicUrl'>, listensWithTls: boolean): void {
  if (!listensWithTls && !httpsOnly(config)) return;
  const value = `max-age=${HSTS_MAX_AGE_SECONDS}`;
  // The callback form, as every per-request hook (http/cors.ts says why).
  app.addHook('onRequest', (_req, reply, done) => {
    reply.header('Strict-Transport-Security', value);
    done();
  });
}
