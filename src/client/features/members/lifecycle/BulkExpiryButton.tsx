/**
 * The selection's "Expiration…" action on the Members page: set or clear the expiration of the
 * ticked members (at most 100 a request, as the portal takes them). Every member matching a filter
 * is not offered: pick the rows instead.
 */
import { useState } from 'react';
import { GuardedButton } from '../../../components/GuardedButton.tsx';
import { localOnly, usePortalCapabilities } from '../../../lib/capabilities.ts';
import type { Permission } from '../../../lib/privileges.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { LIFECYCLE_LIMITS } from '../../../../shared/contract/memberLifecycle.ts';
import { ExpiryDialog } from './ExpiryDialog.tsx';
import { expiryPermission } from './permissions.ts';

export function BulkExpiryButton({ usernames, allMatching }: { usernames: string[]; allMatching: boolean }) {
  const user = useCurrentUser();
  const caps = usePortalCapabilities();
  const [open, setOpen] = useState<string[] | null>(null);
  const max = LIFECYCLE_LIMITS.usernamesPerRequest;
  const refusal: Permission | null = allMatching
    ? { allowed: false, missing: '', reason: 'Expiration dates are set on ticked rows, not on every matching member.' }
    : usernames.length > max
      ? { allowed: false, missing: '', reason: `At most ${max} members at a time.` }
      : null;
  const permission = refusal ?? localOnly(caps, 'member expiration dates', expiryPermission(user));
  if (!usernames.length && !allMatching) return null;
  return (
    <>
      <GuardedButton permission={permission} size="xs" variant="default" onClick={() => setOpen(usernames)}>
        Expiration…
      </GuardedButton>
      <ExpiryDialog usernames={open} onClose={() => setOpen(null)} />
    </>
  );
}
