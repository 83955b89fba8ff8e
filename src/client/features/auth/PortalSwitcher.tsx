/**
 * The header's portal switcher: which portal every page is acting on (name and host), the other
 * portals this tab is signed in to, and "Sign in to another portal…". Switching drops everything
 * read from the previous portal and opens the same area on the other one (its objects differ).
 */
import { Box, Button, Menu, Stack, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useLocation, useNavigate } from 'react-router';
import { IconBuilding, IconCheck, IconPlus, IconSelector } from '../../components/icons.tsx';
import { portalHost, portalLabel } from '../../lib/portals.ts';
import { useSessionState } from '../../lib/session.ts';
import { useSwitchPortal } from './mutations.ts';
import { areaOf } from './SignedInPortals.tsx';

export function PortalSwitcher() {
  const { session, sessions } = useSessionState();
  const navigate = useNavigate();
  const location = useLocation();
  const switchTo = useSwitchPortal();
  if (!session) return null;
  const label = portalLabel(session);
  const host = portalHost(session.portalUrl);
  const area = areaOf(location.pathname);

  return (
    <Menu position="bottom-end" width={320} withinPortal>
      <Menu.Target>
        <Button variant="default" size="sm" px={8} rightSection={<IconSelector size={14} />} title={session.portalUrl}>
          <Box component="span" visibleFrom="xs" mr={6} lh={0}>
            <IconBuilding size={16} />
          </Box>
          <VisuallyHidden>Portal: </VisuallyHidden>
          <Text span size="sm" fw={600} truncate maw={{ base: 76, xs: 160, md: 220 }} style={{ display: 'inline-block', verticalAlign: 'middle' }}>
            {label}
          </Text>
          {label !== host ? (
            <Text span size="xs" c="dimmed" ml={6} visibleFrom="sm">
              {host}
            </Text>
          ) : null}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Signed in to, in this tab</Menu.Label>
        {sessions.map((s) => {
          const current = s.portalUrl === session.portalUrl;
          return (
            <Menu.Item
              key={s.portalUrl}
              leftSection={current ? <IconCheck size={16} /> : <span style={{ display: 'inline-block', width: 16 }} />}
              aria-current={current ? 'true' : undefined}
              onClick={() => {
                if (current) return;
                if (!switchTo(s.portalUrl)) {
                  notifications.show({ color: 'red', title: 'Not switched', message: `The session with ${portalLabel(s)} has ended. Sign in to it again.` });
                  return;
                }
                void navigate(area);
                notifications.show({
                  title: 'Portal switched',
                  message: `Now acting on ${portalLabel(s)} (${portalHost(s.portalUrl)}) as ${s.user.username}.`,
                });
              }}
            >
              <Stack gap={0}>
                <Text size="sm" fw={current ? 600 : 500}>
                  {portalLabel(s)}
                  {current ? <VisuallyHidden> (current)</VisuallyHidden> : null}
                </Text>
                <Text size="xs" c="dimmed">
                  {portalHost(s.portalUrl)} · {s.user.username}
                </Text>
              </Stack>
            </Menu.Item>
          );
        })}
        <Menu.Divider />
        <Menu.Item leftSection={<IconPlus size={16} />} onClick={() => navigate(`/sign-in?another=1&returnTo=${encodeURIComponent(area)}`)}>
          Sign in to another portal…
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
