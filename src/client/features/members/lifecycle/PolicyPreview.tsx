/** Who a policy would touch today: the members it would warn, act on, and leave out (with why). */
import { Alert, Badge, List, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { InactivityPolicy } from '../../../api/memberLifecycle.ts';
import { previewQuery } from '../../../api/queries/memberLifecycle.ts';
import { ErrorState } from '../../../components/states.tsx';
import { formatDate, plural } from '../../../lib/format.ts';
import { useCurrentUser } from '../../../lib/session.ts';

interface Listed {
  username: string;
  fullName: string;
  inactiveSince: number;
  reason?: string;
}

function Members({ title, count, members, color, id }: { title: string; count: number; members: Listed[]; color: string; id: string }) {
  return (
    <section aria-labelledby={id}>
      <Title order={3} fz="sm" id={id} mb={4}>
        {title}{' '}
        <Badge size="sm" color={color} variant="light" data-testid={`${id}-count`}>
          {count}
        </Badge>
      </Title>
      {members.length ? (
        <List size="sm" spacing={2}>
          {members.map((m) => (
            <List.Item key={m.username}>
              <strong>{m.fullName || m.username}</strong> ({m.username}), last active {formatDate(m.inactiveSince)}
              {m.reason ? ` — ${m.reason}` : ''}
            </List.Item>
          ))}
          {count > members.length ? <List.Item>…and {plural(count - members.length, 'more member')}</List.Item> : null}
        </List>
      ) : (
        <Text size="sm" c="dimmed">
          Nobody.
        </Text>
      )}
    </section>
  );
}

export function PolicyPreview({ policy }: { policy: InactivityPolicy }) {
  const user = useCurrentUser();
  const preview = useQuery(previewQuery(user.orgId, policy.id));
  if (preview.isPending) return <Skeleton h={60} aria-label="Loading the preview" />;
  if (preview.isError) return <ErrorState error={preview.error} title="The preview could not be read" onRetry={() => preview.refetch()} />;
  const p = preview.data;
  const verb = policy.action === 'disable' ? 'Would be disabled' : 'Would be moved';
  const base = `preview-${policy.id}`;
  return (
    <Stack gap="sm" aria-live="polite">
      <Alert variant="light" color="blue" title="If it ran now">
        {plural(p.counts.warn, 'member')} warned, {plural(p.counts.act, 'member')} {policy.action === 'disable' ? 'disabled' : 'moved'}.
      </Alert>
      <Members id={`${base}-act`} title={verb} count={p.counts.act} members={p.act} color="red" />
      <Members id={`${base}-warn`} title="Would be warned" count={p.counts.warn} members={p.warn} color="orange" />
      {p.counts.skipped ? <Members id={`${base}-skipped`} title="Left out" count={p.counts.skipped} members={p.skipped} color="gray" /> : null}
    </Stack>
  );
}
