/**
 * The navigation registry: one entry per area of the console. An area is listed here only once it
 * works; `access` hides it from members who may not use it (opening its address then explains why).
 */
import { lazy } from 'react';
import type { PortalUser } from '../api/index.ts';
import {
  IconBuilding,
  IconClock,
  IconFiles,
  IconGraph,
  IconHome,
  IconRefresh,
  IconSettings,
  IconShield,
  IconTrash,
  IconUsers,
  IconUsersGroup,
  IconWebhook,
} from '../components/icons.tsx';
import { activityAccess } from '../features/activity/permissions.ts';
import { settingsAccess } from '../features/settings/permissions.ts';
import { tasksAccess } from '../features/tasks/permissions.ts';
import { webhooksAccess } from '../features/webhooks/permissions.ts';
import { can } from '../lib/can.ts';
import { ALLOWED, holds, requirePrivilege } from '../lib/privileges.ts';
import type { NavEntry } from './navEntry.ts';
import { seesOrgMembers, VIEW_MEMBERS_PRIVILEGES } from '../../shared/contract/users.ts';

const viewMembers = (what: string) => (user: PortalUser) =>
  // Either privilege lets them in; the refusal names the member's one, as requirePrivilege words it.
  seesOrgMembers((p) => holds(user, p)) ? ALLOWED : requirePrivilege(user, VIEW_MEMBERS_PRIVILEGES[0], `view ${what}`);

export const NAV: readonly NavEntry[] = [
  {
    path: 'overview',
    label: 'Overview',
    icon: IconHome,
    Page: lazy(() => import('./routes/overview.tsx')),
  },
  {
    path: 'members',
    label: 'Members',
    icon: IconUsers,
    Page: lazy(() => import('./routes/members.tsx')),
    access: viewMembers('members'),
  },
  {
    path: 'content',
    label: 'Content',
    icon: IconFiles,
    Page: lazy(() => import('./routes/content.tsx')),
  },
  {
    path: 'recycle-bin',
    label: 'Recycle bin',
    icon: IconTrash,
    // Every member: each sees their own deleted items (administrators with portal:admin:viewItems everyone's).
    Page: lazy(() => import('./routes/recycle-bin.tsx')),
  },
  {
    path: 'dependencies',
    label: 'Dependencies',
    icon: IconGraph,
    // Every member: the answers name only items the member can see (the rest are counted).
    Page: lazy(() => import('./routes/dependencies.tsx')),
  },
  {
    path: 'roles',
    label: 'Roles',
    icon: IconShield,
    Page: lazy(() => import('./routes/roles.tsx')),
    // Roles are read by the members of the organization; managing them is for default administrators.
    access: viewMembers('roles'),
  },
  {
    path: 'groups',
    label: 'Groups',
    icon: IconUsersGroup,
    Page: lazy(() => import('./routes/groups.tsx')),
  },
  {
    path: 'collaborations',
    label: 'Collaborations',
    icon: IconBuilding,
    Page: lazy(() => import('./routes/collaborations.tsx')),
    access: (user) => can(user, 'listCollaborations', undefined, 'manage collaborations'),
  },
  {
    path: 'webhooks',
    label: 'Webhooks',
    icon: IconWebhook,
    Page: lazy(() => import('./routes/webhooks.tsx')),
    access: webhooksAccess,
  },
  {
    path: 'tasks',
    label: 'Scheduled tasks',
    icon: IconClock,
    Page: lazy(() => import('./routes/tasks.tsx')),
    access: tasksAccess,
  },
  {
    path: 'activity',
    label: 'Activity',
    icon: IconRefresh,
    Page: lazy(() => import('./routes/activity.tsx')),
    access: activityAccess,
  },
  {
    path: 'settings',
    label: 'Settings',
    icon: IconSettings,
    Page: lazy(() => import('./routes/settings.tsx')),
    access: settingsAccess,
  },
];

export function visibleNav(user: PortalUser): NavEntry[] {
  return NAV.filter((e) => !e.access || e.access(user).allowed);
}
