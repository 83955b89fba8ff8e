import { useDocumentTitle } from '@mantine/hooks';
import { EmptyPanel } from '../components/states.tsx';
import { IconLock } from '../components/icons.tsx';
import { useCurrentUser } from '../lib/session.ts';
import type { NavEntry } from './navEntry.ts';

/** One area's page, or the reason the member may not open it. */
export function NavPage({ entry }: { entry: NavEntry }) {
  const user = useCurrentUser();
  const permission = entry.access ? entry.access(user) : { allowed: true as const };
  useDocumentTitle(`${entry.label} · Portal Admin Console`);
  if (!permission.allowed) return <EmptyPanel title={`You cannot open ${entry.label}`} description={permission.reason} icon={<IconLock size={28} />} />;
  return <entry.Page />;
}

export function NotFound() {
  useDocumentTitle('Not found · Portal Admin Console');
  return <EmptyPanel title="There is nothing at this address" description="Pick an area from the navigation." />;
}
