/** The signed-in frame: header (portal switcher, theme, account menu), navigation from the registry, the page. */
import { ActionIcon, AppShell, Avatar, Burger, Group, Menu, NavLink, ScrollArea, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { getSelf } from '../api/index.ts';
import { ColorSchemeToggle } from '../components/ColorSchemeToggle.tsx';
import { IconBuilding, IconLogout } from '../components/icons.tsx';
import { LoadingState } from '../components/states.tsx';
import { useSignOut } from '../features/auth/mutations.ts';
import { PortalSwitcher } from '../features/auth/PortalSwitcher.tsx';
import { needsRoleName, roleLabel } from '../lib/roles.ts';
import { orgRolesQuery } from '../api/queries/roles.ts';
import { updateSessionUser, useSession } from '../lib/session.ts';
import { visibleNav } from './nav.tsx';
import { JobTray } from '../features/content/JobTray.tsx';
import { userKeys } from '../api/queries/users.ts';

function initials(name: string): string {
  const parts = name.split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? parts[parts.length - 1][0] : '')).toUpperCase() || '?';
}

export function AppLayout() {
  const session = useSession()!;
  const user = session.user;
  const [opened, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  const navigate = useNavigate();
  const signOut = useSignOut();

  // Privileges may change while signed in (a role change): read community/self again now and then.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps -- see the key's comment
  useQuery({
    // The key is the member's own record (userKeys.self); the answer is applied to the portal it
    // was read from (below), so the portal URL need not be part of it.
    queryKey: userKeys.self,
    queryFn: async ({ signal }) => {
      // Applied to the portal it was read from, even if the member switched portals meanwhile.
      const portalUrl = session.portalUrl;
      const fresh = await getSelf({ signal });
      updateSessionUser(fresh, portalUrl);
      return fresh;
    },
    staleTime: 60_000,
  });

  // A custom role is shown by name; only the roles list knows it.
  const roles = useQuery({ ...orgRolesQuery(user.orgId), enabled: needsRoleName(user), retry: false });

  const entries = visibleNav(user);
  const name = user.fullName || user.username;

  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding={{ base: 'md', sm: 'xl' }}>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={opened ? 'Close navigation' : 'Open navigation'} />
            <UnstyledButton component={Link} to="/overview" aria-label="Portal Admin Console, go to overview">
              <Group gap={8} wrap="nowrap">
                <IconBuilding size={22} />
                <Text fw={700} size="lg" visibleFrom="xs">
                  Portal Admin Console
                </Text>
              </Group>
            </UnstyledButton>
          </Group>
          <Group gap="xs" wrap="nowrap">
            {/* Uploads and downloads keep running (and showing, as a chip here) whichever page is open. */}
            <JobTray />
            <PortalSwitcher />
            <ColorSchemeToggle />
            <Menu position="bottom-end" width={240} withinPortal>
              <Menu.Target>
                {/* Named by its content, hidden words then the initials shown ("Account menu for Ann Lee, AL"):
                    an aria-label would have to start with the initials to contain the visible text (WCAG 2.5.3). */}
                <ActionIcon variant="subtle" size="lg" radius="xl">
                  <VisuallyHidden>{`Account menu for ${name}, `}</VisuallyHidden>
                  <Avatar size={32} radius="xl" color="blue">
                    {initials(name)}
                  </Avatar>
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>
                  <Stack gap={0}>
                    <Text size="sm" fw={600} c="var(--mantine-color-text)">
                      {name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {user.username} · {roleLabel(user, roles.data?.roles)}
                    </Text>
                  </Stack>
                </Menu.Label>
                <Menu.Divider />
                <Menu.Item
                  leftSection={<IconLogout size={16} />}
                  onClick={() =>
                    signOut.mutate(undefined, {
                      onSettled: () => navigate('/sign-in', { replace: true }),
                    })
                  }
                >
                  Sign out
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm" aria-label="Main navigation" component="nav">
        <AppShell.Section grow component={ScrollArea}>
          <VisuallyHidden component="h2">Areas</VisuallyHidden>
          {entries.map((e) => {
            const active = location.pathname === `/${e.path}` || location.pathname.startsWith(`/${e.path}/`);
            return (
              <NavLink
                key={e.path}
                component={Link}
                to={`/${e.path}`}
                label={e.label}
                leftSection={<e.icon size={18} />}
                active={active}
                aria-current={active ? 'page' : undefined}
                onClick={close}
                variant="light"
                style={{ borderRadius: 'var(--mantine-radius-md)' }}
                mb={4}
              />
            );
          })}
        </AppShell.Section>
        <AppShell.Section>
          <Text size="xs" c="dimmed" px="sm" pb="xs">
            Signed in as {user.username}
          </Text>
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main id="main" tabIndex={-1} style={{ outline: 'none' }}>
        <Suspense fallback={<LoadingState label="Loading page…" minHeight={240} />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
