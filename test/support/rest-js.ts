/** Helpers for the conformance suite, which drives the service with Esri's own client. */
import type { ArcGISRequestError } from '@esri/arcgis-rest-request';

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
