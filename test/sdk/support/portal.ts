/**
 * The real local portal (test/support/service.ts) for the SDK suite, over HTTPS with the service's
 * own development certificate (`tls: 'self-signed'`): the 5.x SDK rewrites every portal URL to
 * https: (Portal._normalizeSSL), so plain HTTP cannot be tested.
 */
import { connect } from 'node:tls';
import { startService, type TestService } from '../../support/service.ts';

export interface SdkPortal {
  svc: TestService;
  /** The portal URL an app configures (esriConfig.portalUrl, OAuthInfo.portalUrl): https://127.0.0.1:<port> */
  url: string;
  /** The certificate the portal presents (PEM), verified against the service's CA: the one the browser must trust. */
  certPem: string;
  close(): Promise<void>;
}

/** The server certificate as a client sees it, the connection verified against `ca`. */
function presentedCertificate(url: string, ca: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), ca }, () => {
      const cert = socket.getPeerX509Certificate();
      socket.end();
      if (!cert) reject(new Error(`no certificate from ${url}`));
      else resolve(cert.toString());
    });
    socket.on('error', reject);
  });
}

export async function startSdkPortal(): Promise<SdkPortal> {
  const svc = await startService({ tls: 'self-signed' });
  const restUrl = await svc.listen();
  if (!restUrl.startsWith('https://') || !svc.tls) throw new Error(`the service did not listen with TLS: ${restUrl}`);
  const url = new URL(restUrl).origin;
  return { svc, url, certPem: await presentedCertificate(url, svc.tls.ca), close: () => svc.close() };
}
