/** Whether a webhook delivers, and when it does not, why (its policy, a 410 Gone, or an administrator). */
import { Badge, Tooltip } from '@mantine/core';
import type { WebhookRecord } from '../../api/index.ts';

export function StateBadge({ webhook }: { webhook: Pick<WebhookRecord, 'isActive' | 'deactivationReason'> }) {
  if (webhook.isActive)
    return (
      <Badge color="green" variant="light">
        Active
      </Badge>
    );
  const byPolicy = webhook.deactivationReason?.startsWith('Deactivated by its policy');
  const badge = (
    <Badge color={byPolicy ? 'red' : 'gray'} variant="light">
      {byPolicy ? 'Deactivated by policy' : 'Deactivated'}
    </Badge>
  );
  return webhook.deactivationReason ? (
    <Tooltip label={webhook.deactivationReason} multiline w={280} withArrow>
      {badge}
    </Tooltip>
  ) : (
    badge
  );
}
