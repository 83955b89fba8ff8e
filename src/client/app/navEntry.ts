/**
 * The shape of one navigation entry. Apart from nav.tsx (the registry) because the pages the
 * registry loads use it too, through NavPage; importing nav.tsx from there would be a circle.
 */
import type { ComponentType, LazyExoticComponent } from 'react';
import type { PortalUser } from '../api/index.ts';
import type { Permission } from '../lib/privileges.ts';

export interface NavEntry {
  /** Route path below the app root, e.g. "members". */
  path: string;
  label: string;
  icon: ComponentType<{ size?: number }>;
  /** The page, loaded on first visit. */
  Page: LazyExoticComponent<ComponentType>;
  access?: (user: PortalUser) => Permission;
}
