/**
 * Members' lifecycle at a glance, for whoever may view members: the next expirations (and whether
 * each member was warned), and the members inactivity policies have warned. A portal without the
 * lifecycle extras gets a note instead.
 */
import { Anchor, Badge, Card, Group, List, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { expirationsQuery, policiesQuery } from '../../api/queries/memberLifecycle.ts';
import { ErrorState } from '../../components/states.tsx';
import { can } from '../../lib/can.ts';
import { usePortalCapabilities } from '../../lib/capabilities.ts';
import { formatDate, plural } from '../../lib/format.ts';
import { useCurrentUser } from '../../lib/session.ts';

export function LifecycleCard() {
  const user = useCurrentUser();
  const caps = usePortalCapabilities();
  const allowed = can(user, 'expirations', undefined, 'see expirations').allowed;
  const on = caps.localExtras && allowed;
  const expirations = useQuery({ ...expirationsQuery(user.orgId), enabled: on });
  const policies = useQuery({ ...policiesQuery(user.orgId), enabled: on });
  if (!allowed || !caps.known) return null;
  const warned = (policies.data?.policies ?? []).filter((p) => p.active).reduce((n, p) => n + p.warnedCount, 0);
  const active = (policies.data?.policies ?? []).filter((p) => p.active).length;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="lifecycle-heading">
      <Title order={2} fz="lg" id="lifecycle-heading" mb="md">
        Upcoming expirations
      </Title>
      {!caps.localExtras ? (
        <Text size="sm" c="dimmed">
          {caps.unavailable('member expiration dates or inactivity policies')}
        </Text>
      ) : expirations.isPending ? (
        <Stack gap="sm" aria-busy="true" aria-label="Loading expirations">
          <Skeleton h={14} />
          <Skeleton h={14} w="60%" />
        </Stack>
      ) : expirations.isError ? (
        <ErrorState error={expirations.error} title="Could not load the expirations" onRetry={() => expirations.refetch()} />
      ) : (
        <Stack gap="sm">
          {expirations.data.expirations.length ? (
            <List size="sm" spacing={4} data-testid="upcoming-expirations">
              {expirations.data.expirations.slice(0, 5).map((e) => (
                <List.Item key={e.username}>
                  <Group gap="xs" wrap="wrap">
                    <Anchor component={Link} to={`/members/${encodeURIComponent(e.username)}`} size="sm">
                      {e.fullName || e.username}
                    </Anchor>
                    <span>{formatDate(e.expiration)}</span>
                    {e.warned ? (
                      <Badge size="sm" color="orange" variant="light">
                        Warned
                      </Badge>
                    ) : null}
                  </Group>
                </List.Item>
              ))}
            </List>
          ) : (
            <Text size="sm" c="dimmed">
              No member has an expiration date.
            </Text>
          )}
          {expirations.data.total > 5 ? <Text size="xs">{plural(expirations.data.total - 5, 'more expiration')}</Text> : null}
          <Text size="sm" data-testid="inactivity-warnings">
            {active
              ? `${plural(active, 'inactivity policy', 'inactivity policies')} on; ${plural(warned, 'member')} warned and not signed in since.`
              : 'No inactivity policy is switched on.'}{' '}
            <Anchor component={Link} to="/members/policies" size="sm" underline="always">
              Inactivity policies
            </Anchor>
          </Text>
          <Text size="xs" c="dimmed">
            Members are warned {plural(expirations.data.warningDays, 'day')} before their expiration.
          </Text>
        </Stack>
      )}
    </Card>
  );
}
