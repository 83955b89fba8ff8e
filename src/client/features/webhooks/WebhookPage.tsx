/** One organization webhook: its state (and why it is off), what it subscribes to, its actions, and its deliveries. */
import { Alert, Anchor, Badge, Code, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { describeError, type WebhookRecord } from '../../api/index.ts';
import { HistorySection } from '../../components/HistorySection.tsx';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { IconArrowLeft } from '../../components/icons.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ErrorState, LoadingState } from '../../components/states.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { DeliveriesPanel } from './DeliveriesPanel.tsx';
import { eventLabel } from './eventWords.ts';
import { localOnly, usePortalCapabilities } from '../../lib/capabilities.ts';
import { useDeleteWebhook, useSendTest, useSetWebhookActive } from './mutations.ts';
import { webhookAction } from './permissions.ts';
import { webhookQuery } from '../../api/queries/webhooks.ts';
import { DEFAULT_POLICY } from './schemas.ts';
import { StateBadge } from './StateBadge.tsx';
import { WebhookFormModal } from './WebhookFormModal.tsx';
import { LabeledValue } from '../../components/LabeledValue.tsx';

export default function WebhookPage() {
  const { webhookId = '' } = useParams();
  const user = useCurrentUser();
  const hook = useQuery(webhookQuery(user.orgId, webhookId));
  if (hook.isPending) return <LoadingState />;
  if (hook.isError) return <ErrorState error={hook.error} title="The webhook could not be read" onRetry={() => hook.refetch()} />;
  return <WebhookView webhook={hook.data} />;
}

function WebhookView({ webhook: w }: { webhook: WebhookRecord }) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const setActive = useSetWebhookActive(user.orgId, w.id);
  const sendTest = useSendTest(user.orgId, w.id);
  const caps = usePortalCapabilities();
  const remove = useDeleteWebhook(user.orgId);
  const policy = w.config.deactivationPolicy ?? DEFAULT_POLICY;
  const fail = (title: string) => (err: unknown) => notifications.show({ color: 'red', title, message: describeError(err) });

  const confirmDelete = () =>
    modals.openConfirmModal({
      title: `Delete ${w.name}?`,
      children: <Text size="sm">Its delivery log goes with it. Events already sent are not recalled.</Text>,
      labels: { confirm: 'Delete webhook', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        remove.mutate(w.id, {
          onSuccess: () => {
            notifications.show({ color: 'green', title: 'Webhook deleted', message: `“${w.name}” was deleted.` });
            void navigate('/webhooks');
          },
          onError: fail('The webhook was not deleted'),
        }),
    });

  return (
    <>
      <Anchor component={Link} to="/webhooks" size="sm" mb="xs" style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
        <IconArrowLeft size={14} /> Webhooks
      </Anchor>
      <PageHeader
        title={w.name}
        description={<Code>{w.payloadUrl}</Code>}
        actions={
          <Group gap="xs">
            <GuardedButton variant="default" permission={webhookAction(user, 'updateWebhook', 'edit webhooks')} onClick={() => setEditing(true)}>
              Edit
            </GuardedButton>
            <GuardedButton
              variant="default"
              permission={localOnly(caps, 'a test delivery', webhookAction(user, 'testWebhook', 'send test events'))}
              loading={sendTest.isPending}
              onClick={() =>
                sendTest.mutate(undefined, {
                  onSuccess: () => notifications.show({ color: 'green', title: 'Test event queued', message: 'It appears in the deliveries below once sent.' }),
                  onError: fail('The test event was not sent'),
                })
              }
            >
              Send test event
            </GuardedButton>
            <GuardedButton
              variant="default"
              permission={
                w.isActive ? webhookAction(user, 'deactivateWebhook', 'deactivate webhooks') : webhookAction(user, 'activateWebhook', 'activate webhooks')
              }
              loading={setActive.isPending}
              onClick={() => setActive.mutate(!w.isActive, { onError: fail(w.isActive ? 'Not deactivated' : 'Not activated') })}
            >
              {w.isActive ? 'Deactivate' : 'Activate'}
            </GuardedButton>
            <GuardedButton color="red" variant="light" permission={webhookAction(user, 'deleteWebhook', 'delete webhooks')} onClick={confirmDelete}>
              Delete
            </GuardedButton>
          </Group>
        }
      />
      <Stack gap="lg">
        {!w.isActive ? (
          <Alert
            color={w.deactivationReason?.startsWith('Deactivated by its policy') ? 'red' : 'gray'}
            variant="light"
            title="This webhook is off: nothing is delivered"
          >
            {/* deactivationReason is a local extra: another portal does not say why. */}
            {w.deactivationReason ?? 'It was deactivated; the portal does not say why.'} {w.deactivatedAt ? `(${formatDateTime(w.deactivatedAt)})` : ''}{' '}
            Activate it to deliver new events again; events that happened while it was off are not sent.
          </Alert>
        ) : null}
        <Paper withBorder p="md">
          <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
            <LabeledValue label="State">
              <StateBadge webhook={w} />
            </LabeledValue>
            <LabeledValue label="Secret">{w.secret ? 'Set (never shown again)' : 'None: deliveries are not signed'}</LabeledValue>
            <LabeledValue label="Deactivation policy">
              {policy.numberOfFailures} failed deliveries within {policy.daysInPast} days
            </LabeledValue>
            <LabeledValue label="Changed">{formatDateTime(w.modified)}</LabeledValue>
          </SimpleGrid>
          <Text size="xs" c="dimmed" mt="md">
            Events
          </Text>
          <Group gap={6} mt={4} role="list" aria-label="Subscribed events">
            {w.events.map((e) => (
              <Badge key={e} role="listitem" variant="light" tt="none" title={e}>
                {eventLabel(e)}
              </Badge>
            ))}
          </Group>
        </Paper>
        <div>
          <Text fw={600} mb="xs">
            Deliveries
          </Text>
          <DeliveriesPanel orgId={user.orgId} webhookId={w.id} />
        </div>
        <HistorySection id={w.id} type="w" name={`the webhook “${w.name}”`} heading />
      </Stack>
      <WebhookFormModal opened={editing} onClose={() => setEditing(false)} orgId={user.orgId} webhook={w} />
    </>
  );
}
