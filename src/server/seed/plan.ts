/**
 * Who a first start creates: the organizations and their members (with DEMO_DATA, the demo
 * organization and a partner). Apart from bootstrap.ts so that `npm start`'s build check can count
 * the accounts without loading the service.
 */
import { BUILT_IN_ROLES } from '../../shared/privileges.ts';
import type { Config } from '../config.ts';

export interface OrgPlan {
  name: string;
  urlKey: string;
  members: { username: string; role: string; first: string; last: string }[];
}

export function plan(config: Config): OrgPlan[] {
  const admin = config.adminUsername;
  if (!config.demoData) {
    return [{ name: 'Local Portal Organization', urlKey: 'local', members: [{ username: admin, role: 'org_admin', first: 'Portal', last: 'Administrator' }] }];
  }
  return [
    {
      name: 'Demo Organization',
      urlKey: 'demo',
      members: [
        { username: admin, role: 'org_admin', first: 'Portal', last: 'Administrator' },
        { username: 'publisher1', role: 'org_publisher', first: 'Pat', last: 'Publisher' },
        { username: 'user1', role: 'org_user', first: 'Uma', last: 'User' },
        { username: 'viewer1', role: BUILT_IN_ROLES[0].id, first: 'Vic', last: 'Viewer' },
      ],
    },
    {
      name: 'Partner Organization',
      urlKey: 'partner',
      members: [{ username: 'partner_admin', role: 'org_admin', first: 'Parker', last: 'Partner' }],
    },
  ];
}

/** How many accounts a first start creates (one password hash each). */
export const seedAccountCount = (config: Config) => plan(config).reduce((n, p) => n + p.members.length, 0);
