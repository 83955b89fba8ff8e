/**
 * One delivery attempt in full: when, the receiver's answer, where the delivery stands (with the
 * time of its next attempt while a retry waits), the request and the answer's body; a finished
 * delivery can be sent again (same webhook-id).
 */
import { Alert, Badge, Code, Group, ScrollArea, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { describeError, type WebhookAttemptRecord } from '../../api/index.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { LabeledValue } from '../../components/LabeledValue.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { localOnly, usePortalCapabilities } from '../../lib/capabilities.ts';
import { useRedeliver } from './mutations.ts';
import { webhookAction } from './permissions.ts';

/**
 * Whether an attempt succeeded. The attempt details (success, status, duration, state, headers) are
 * the local portal's extras; elsewhere an entry has only the public id, isInvoked, time, responseText
 * and payload, so "answered" is all that can be said.
 */
export const succeeded = (a: WebhookAttemptRecord): boolean | undefined => a.success ?? (a.isInvoked === false ? false : undefined);
export const orDash = (v: unknown, unit = '') => (v === undefined || v === null ? '—' : `${String(v)}${unit}`);

/** Pretty JSON when the text is JSON. */
function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function AttemptBadge({ a }: { a: WebhookAttemptRecord }) {
  if (succeeded(a) === undefined) {
    return (
      <Badge color="gray" variant="light">
        {a.isInvoked ? 'Answered' : 'Unknown'}
      </Badge>
    );
  }
  return a.success ? (
    <Badge color="green" variant="light">
      {a.responseStatus}
    </Badge>
  ) : (
    <Badge color="red" variant="light">
      {a.responseStatus ?? 'No answer'}
    </Badge>
  );
}

/** Where the delivery stands; a retry waiting says when it is due. */
export function DeliveryState({ a }: { a: WebhookAttemptRecord }) {
  if (a.deliveryState === 'pending' && a.nextAttemptAt)
    return (
      <Text size="sm" data-testid="next-attempt">
        Retry pending: next attempt {formatDateTime(a.nextAttemptAt)}
      </Text>
    );
  return <Text size="sm">{orDash(a.deliveryState)}</Text>;
}

export function AttemptDetail({ orgId, webhookId, attempt: a }: { orgId: string; webhookId: string; attempt: WebhookAttemptRecord }) {
  const user = useCurrentUser();
  const redeliver = useRedeliver(orgId, webhookId);
  const caps = usePortalCapabilities();
  const finished = a.deliveryState === 'delivered' || a.deliveryState === 'failed';
  const permission = localOnly(
    caps,
    'redelivery',
    finished
      ? webhookAction(user, 'redeliverWebhookNotification', 'redeliver')
      : { allowed: false as const, missing: '', reason: `This delivery is still ${a.deliveryState}.` },
  );
  return (
    <Stack gap="md">
      <SimpleGrid cols={3}>
        <LabeledValue label="Sent">{formatDateTime(a.invokedTimestamp)}</LabeledValue>
        <LabeledValue label="Answer">
          <AttemptBadge a={a} />
        </LabeledValue>
        <LabeledValue label="Took">{orDash(a.durationMs, ' ms')}</LabeledValue>
        <LabeledValue label="Attempt">{orDash(a.attempt)}</LabeledValue>
        <LabeledValue label="Delivery">
          <DeliveryState a={a} />
        </LabeledValue>
        <LabeledValue label="Delivery id">
          <Code>{a.deliveryId ?? a.id}</Code>
        </LabeledValue>
      </SimpleGrid>
      {a.error ? (
        <Alert color="red" variant="light" title="Why it failed">
          {a.error}
        </Alert>
      ) : null}
      <Group>
        <GuardedButton
          permission={permission}
          loading={redeliver.isPending}
          onClick={() =>
            redeliver.mutate(a.deliveryId, {
              onSuccess: () =>
                notifications.show({ color: 'green', title: 'Redelivery queued', message: 'The delivery is sent again with the same webhook-id.' }),
              onError: (err) => notifications.show({ color: 'red', title: 'Not redelivered', message: describeError(err) }),
            })
          }
        >
          Redeliver
        </GuardedButton>
      </Group>
      {a.requestHeaders ? (
        <Section
          title="Request headers"
          text={Object.entries(a.requestHeaders)
            .map(([k, v]) => `${k}: ${v}`)
            .join('\n')}
        />
      ) : null}
      <Section title="Request body" text={pretty(a.payload)} />
      <Section title="Response body (first 2 KB)" text={(a.responseBody ?? a.responseText) ? pretty(a.responseBody ?? a.responseText) : '(empty)'} />
    </Stack>
  );
}

function Section({ title, text }: { title: string; text: string }) {
  return (
    <div>
      <Title order={3} size="sm" mb={4}>
        {title}
      </Title>
      {/* The scrolling viewport takes focus so a long body can be scrolled with the keyboard. */}
      <ScrollArea.Autosize mah={320} viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': title }}>
        <Code block>{text}</Code>
      </ScrollArea.Autosize>
    </div>
  );
}
