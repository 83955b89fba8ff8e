/** On the sign-in page after signing out of one portal: the portals this tab is still signed in to. */
import { Button, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { useNavigate } from 'react-router';
import { portalHost, portalLabel } from '../../lib/portals.ts';
import type { Session } from '../../lib/session.ts';
import { useSwitchPortal } from './mutations.ts';

/** The area of a console path (/members/transfer → /members): another portal has other objects. */
export function areaOf(path: string): string {
  const first = path.split(/[?#]/)[0].split('/').filter(Boolean)[0];
  return first ? `/${first}` : '/overview';
}

export function SignedInPortals({ sessions, returnTo }: { sessions: readonly Session[]; returnTo: string }) {
  const headingId = useId();
  const switchTo = useSwitchPortal();
  const navigate = useNavigate();
  return (
    <Stack component="section" aria-labelledby={headingId} gap="xs">
      <Text id={headingId} size="sm" fw={600}>
        Still signed in, in this tab
      </Text>
      {sessions.map((s) => (
        <Button
          key={s.portalUrl}
          variant="light"
          fullWidth
          justify="space-between"
          onClick={() => {
            if (switchTo(s.portalUrl)) void navigate(areaOf(returnTo), { replace: true });
          }}
          rightSection={
            <Text span size="xs" c="dimmed">
              {portalHost(s.portalUrl)}
            </Text>
          }
        >
          Continue with {portalLabel(s)} as {s.user.username}
        </Button>
      ))}
    </Stack>
  );
}
