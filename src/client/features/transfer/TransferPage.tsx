/**
 * Transfer content: the page, for whoever may transfer the member's content — the wizard
 * (TransferWizard.tsx) does the work; anyone else is told which privilege it takes.
 */
import { Alert, Button } from '@mantine/core';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { EmptyPanel } from '../../components/states.tsx';
import { canOn } from '../../lib/can.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { TransferWizard } from './TransferWizard.tsx';

export default function TransferPage() {
  const user = useCurrentUser();
  const [params] = useSearchParams();
  const from = (params.get('from') ?? '').trim();
  // As the service decides reassignItems on the member (a member of the caller's organization, listed on the Members page):
  // an administrator of the organization, or the owner holding what it asks of owners.
  const owned = from.toLowerCase() === user.username.toLowerCase();
  const mayTransfer = canOn(user, 'reassignItems', { orgId: user.orgId, owned }, 'transfer').allowed;
  const preset = useMemo(
    () =>
      (params.get('items') ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    [params],
  );

  const header = (
    <PageHeader title="Transfer content" description={from ? `Give ${from}'s items to another member.` : 'Give a member’s items to another member.'} />
  );
  if (!from) {
    return (
      <>
        {header}
        <EmptyPanel title="Choose whose content to transfer" description="Open Transfer content from a member on the Members page.">
          <Button component={Link} to="/members" variant="light">
            Go to Members
          </Button>
        </EmptyPanel>
      </>
    );
  }
  if (!mayTransfer) {
    return (
      <>
        {header}
        <Alert color="red" variant="light" title="Not allowed" role="alert">
          To transfer another member’s content you need the privilege “Transfer any content” (portal:admin:reassignItems); to transfer your own, “Transfer own
          content to other members” (portal:user:reassignItems).
        </Alert>
      </>
    );
  }
  return (
    <>
      {header}
      <TransferWizard from={from} preset={preset} />
    </>
  );
}
