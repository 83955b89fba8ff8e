/** Helpers for the conformance suite, which drives the service with Esri's own client. */
import { ArcGISIdentityManager, type ArcGISRequestError } from '@esri/arcgis-rest-request';
import { DEMO_PASSWORD } from './service.ts';

/** The portal's error envelope as rest-js keeps it on a rejection. */
export type PortalRequestError = ArcGISRequestError & {
  response: { error: { code: number; messageCode?: string; details: any[]; fieldErrors?: Record<string, string> } };
};

/** The error a call rejects with; fails the test if the call succeeds. */
export async function rejection(p: Promise<unknown>): Promise<PortalRequestError> {
  try {
    await p;
  } catch (err) {
    return err as PortalRequestError;
  }
  throw new Error('expected the call to fail');
}

/** Demo accounts signed in with rest-js's identity manager, at once, in the order named. */
export function signInDemo(portal: string, ...usernames: string[]): Promise<ArcGISIdentityManager[]> {
  return Promise.all(usernames.map((username) => ArcGISIdentityManager.signIn({ username, password: DEMO_PASSWORD, portal })));
}
