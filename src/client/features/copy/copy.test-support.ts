/** The copy tests' connections: a member of the test service's portal, signed in, as the copy modules take it. */
import type { ClientTestService } from '../../test/service.ts';
import type { PortalConnection } from './portal.ts';

export async function connectAs(svc: ClientTestService, username: string, orgId: string): Promise<PortalConnection> {
  return { portalUrl: svc.restUrl, token: (await svc.tokenFor(username)).token, username, orgId, label: username };
}
