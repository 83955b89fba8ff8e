/**
 * A member's expiration on their page: the date (and whether the warning went out), and the action
 * that sets or clears it. On a portal without the lifecycle extras, a note says so instead.
 */
import { Badge, Card, Group, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { expirationsQuery } from '../../../api/queries/memberLifecycle.ts';
import { GuardedButton } from '../../../components/GuardedButton.tsx';
import { usePortalCapabilities } from '../../../lib/capabilities.ts';
import { formatDate } from '../../../lib/format.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { ExpiryDialog } from './ExpiryDialog.tsx';
import { expiryPermission, viewLifecyclePermission } from './permissions.ts';

export function MemberExpiry({ username }: { username: string }) {
  const user = useCurrentUser();
  const caps = usePortalCapabilities();
  const mayView = viewLifecyclePermission(user).allowed;
  const expiry = useQuery({ ...expirationsQuery(user.orgId, [username]), enabled: caps.localExtras && mayView });
  const [open, setOpen] = useState(false);
  if (!mayView || !caps.known) return null;
  const current = expiry.data?.expirations[0];
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="expiry-heading">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <div>
          <Title order={2} fz="md" id="expiry-heading">
            Expiration
          </Title>
          {!caps.localExtras ? (
            <Text size="sm" c="dimmed">
              {caps.unavailable('member expiration dates')}
            </Text>
          ) : (
            <Group gap="xs">
              <Text size="sm" data-testid="member-expiration">
                {current ? `Disabled on ${formatDate(current.expiration)}` : 'No expiration'}
              </Text>
              {current?.warned ? (
                <Badge size="sm" color="orange" variant="light">
                  Warned
                </Badge>
              ) : null}
            </Group>
          )}
        </div>
        {caps.localExtras ? (
          <GuardedButton permission={expiryPermission(user)} variant="default" size="xs" onClick={() => setOpen(true)}>
            {current ? 'Change expiration' : 'Set expiration'}
          </GuardedButton>
        ) : null}
      </Group>
      <ExpiryDialog usernames={open ? [username] : null} current={current?.expiration} onClose={() => setOpen(false)} />
    </Card>
  );
}
