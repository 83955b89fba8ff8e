/**
 * The organization to invite, chosen by name from the ones the portal offers
 * (`participantCandidates`, a local extra), searchable as one types. A portal without that list
 * (or one that refuses it) gets the documented way instead: the guest's portal ID, typed.
 */
import { Select, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { candidatesQuery } from '../../api/queries/collaborations.ts';
import { usePortalCapabilities } from '../../lib/capabilities.ts';

export interface GuestOrganizationFieldProps {
  orgId: string;
  value: string;
  onChange: (portalId: string) => void;
  onBlur: () => void;
  error?: string;
  /** Organizations not to offer: the ones already taking part or invited. */
  exclude: readonly string[];
}

export function GuestOrganizationField({ orgId, value, onChange, onBlur, error, exclude }: GuestOrganizationFieldProps) {
  const caps = usePortalCapabilities();
  const candidates = useQuery({ ...candidatesQuery(orgId), enabled: caps.localExtras, retry: false });
  if (!caps.localExtras || candidates.isError) {
    return (
      <TextInput
        label="Guest portal ID"
        description="This portal does not list organizations by name: enter the ID of the portal to invite, as its administrator gives it to you."
        required
        maxLength={64}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        onBlur={onBlur}
        error={error}
        data-autofocus
      />
    );
  }
  const taken = new Set(exclude);
  const data = (candidates.data?.portals ?? []).filter((p) => !taken.has(p.id)).map((p) => ({ value: p.id, label: p.name }));
  // An empty list is not offered as one (a list box without options): the field says why instead.
  if (candidates.isSuccess && !data.length) {
    return (
      <TextInput
        label="Guest organization"
        description="Every other organization of this portal already takes part in this collaboration or is invited."
        value=""
        placeholder="No organization to invite"
        readOnly
        error={error}
      />
    );
  }
  return (
    <Select
      label="Guest organization"
      description="The organization whose administrators are invited. Type to search by name."
      placeholder={candidates.isPending ? 'Loading organizations…' : 'Choose an organization'}
      required
      searchable
      nothingFoundMessage="No organization by that name can be invited"
      data={data}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      onBlur={onBlur}
      error={error}
      data-autofocus
    />
  );
}
