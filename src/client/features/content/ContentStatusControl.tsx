/**
 * The content status of an item: none, deprecated, authoritative (and public authoritative in a
 * public, verified organization). Choosing one first explains what it will change — search order,
 * deletion, what happens when the item is shared publicly — and applies it only when confirmed.
 */
import { Alert, Button, Group, List, Modal, Radio, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { describeError, type ContentStatus, type Item } from '../../api/index.ts';
import { ConfirmActions } from '../../components/ConfirmActions.tsx';
import { DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { ImpactCheckSlot, ReplaceDialogSlot, useReplaceAvailable } from '../../components/ImpactSlot.tsx';
import { portalQuery } from '../../api/queries/portal.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { CONTENT_STATUS_LABELS, ContentStatusBadge } from './badges.tsx';
import { useSetContentStatus } from './mutations.ts';
import { contentStatusPermission } from './permissions.ts';

type Choice = ContentStatus | 'none';
const AUTHORITATIVE = new Set<Choice>(['org_authoritative', 'public_authoritative']);

/** What setting `next` on the item will do, in words (spec §3 Item content status). */
export function statusSideEffects(
  item: Pick<Item, 'contentStatus' | 'access'>,
  next: Choice,
  org: { access: string; isVerified: boolean } | undefined,
): string[] {
  const out: string[] = [];
  const was = item.contentStatus ?? 'none';
  if (next === was) return out;
  if (AUTHORITATIVE.has(next)) {
    out.push('It is listed first in search results across the organization.');
    out.push('It cannot be deleted while it is authoritative.');
    if (item.access === 'private') out.push('It is shared with its owner only, so nobody else sees it yet: the authoritative mark matters once it is shared.');
    if (next === 'org_authoritative' && org?.isVerified && item.access === 'public')
      out.push('The organization is verified and the item is public, so the portal makes it public authoritative.');
    else if (next === 'org_authoritative' && org?.isVerified)
      out.push('If it is later shared with everyone, it becomes public authoritative (and back when unshared).');
    if (next === 'public_authoritative') out.push('Everyone outside the organization sees it as authoritative.');
  }
  if (next === 'deprecated') {
    out.push('It is marked deprecated wherever it is listed, so people move to a replacement.');
    if (AUTHORITATIVE.has(was)) out.push('It loses its authoritative status, its place first in search, and its protection from deletion.');
  }
  if (next === 'none') {
    if (AUTHORITATIVE.has(was)) out.push('It loses its place first in search and can be deleted again.');
    if (was === 'deprecated') out.push('The deprecated mark is removed.');
  }
  return out;
}

export function ContentStatusControl({ item }: { item: Item }) {
  const user = useCurrentUser();
  const portal = useQuery(portalQuery());
  const setStatus = useSetContentStatus(item.id);
  const current: Choice = item.contentStatus ?? 'none';
  const [choice, setChoice] = useState<Choice>(current);
  const [error, setError] = useState<string | null>(null);
  const publicAllowed = portal.data?.access === 'public' && portal.data?.isVerified;
  const touchesAuthoritative = AUTHORITATIVE.has(choice) || AUTHORITATIVE.has(current);
  const permission = contentStatusPermission(user, item, touchesAuthoritative);
  const effects = statusSideEffects(item, choice, portal.data);
  const canAuthoritative = contentStatusPermission(user, item, true).allowed;
  const reasonId = useId();
  const refused = !permission.allowed && choice !== current ? permission.reason : null;
  // Deprecating asks first, with what shows the deprecated item; from there (or directly) the replace flow.
  const [confirmingDeprecate, setConfirmingDeprecate] = useState(false);
  const [replacing, setReplacing] = useState(false);
  const replaceAvailable = useReplaceAvailable();
  const mayDeprecate = contentStatusPermission(user, item, AUTHORITATIVE.has(current));

  const apply = () => {
    setError(null);
    setStatus.mutate(choice === 'none' ? null : choice, {
      onSuccess: () =>
        notifications.show({
          color: 'green',
          title: 'Content status changed',
          message: choice === 'none' ? 'The status was removed.' : `The item is now ${CONTENT_STATUS_LABELS[choice].toLowerCase()}.`,
        }),
      onError: (e) => setError(describeError(e)),
    });
  };

  return (
    <Stack gap="sm">
      <Group gap="xs">
        <Text size="sm">Current status:</Text>
        {item.contentStatus ? (
          <ContentStatusBadge status={item.contentStatus} />
        ) : (
          <Text size="sm" c="dimmed">
            None
          </Text>
        )}
      </Group>
      <Radio.Group label="Set the content status" value={choice} onChange={(v) => setChoice(v)}>
        <Stack gap={6} mt={6}>
          <Radio value="none" label="None" />
          <Radio value="deprecated" label="Deprecated" description="Still works, but people should move to something else." />
          {/* Selectable by everyone, so an owner can read what it would change and who can apply it. */}
          <Radio
            value="org_authoritative"
            label="Authoritative"
            description={`The organization's trusted source. Administrators only${canAuthoritative ? '' : ': you can read what it changes, an administrator applies it'}.`}
          />
          <Radio
            value="public_authoritative"
            label="Authoritative (public)"
            description={publicAllowed ? 'Trusted by everyone, inside and outside the organization.' : 'Needs a public and verified organization.'}
            disabled={!publicAllowed}
          />
        </Stack>
      </Radio.Group>
      {/* One polite live region, in the page from the start: arrowing to a choice speaks what it
          would change and, for someone who may not apply it, why not (the button stays disabled). */}
      <Stack gap="sm" aria-live="polite" data-testid="status-consequences">
        {effects.length ? (
          <Alert variant="light" color="blue" title="What this will change">
            <List size="sm" spacing={2}>
              {effects.map((e) => (
                <List.Item key={e}>{e}</List.Item>
              ))}
            </List>
          </Alert>
        ) : null}
        {refused ? (
          <Text size="sm" c="orange" id={reasonId} data-testid="status-refusal">
            {refused}
          </Text>
        ) : null}
      </Stack>
      {error ? (
        <Alert color="red" variant="light" role="alert" title="The status was not changed">
          {error}
        </Alert>
      ) : null}
      <Group>
        <Button
          onClick={choice === 'deprecated' ? () => setConfirmingDeprecate(true) : apply}
          disabled={choice === current || !permission.allowed}
          loading={setStatus.isPending}
          aria-describedby={refused ? reasonId : undefined}
        >
          Apply status
        </Button>
        {replaceAvailable && mayDeprecate.allowed ? (
          <Button variant="default" onClick={() => setReplacing(true)}>
            Deprecate and point to a replacement…
          </Button>
        ) : null}
      </Group>
      <Modal opened={confirmingDeprecate} onClose={() => setConfirmingDeprecate(false)} title={`Deprecate “${item.title}”?`} size="lg" centered>
        <DialogLayout>
          <DialogScroll>
            <Text size="sm">It is marked deprecated wherever it is listed; it keeps working.</Text>
            {confirmingDeprecate ? (
              <ImpactCheckSlot
                items={[item]}
                change={{ kind: 'deprecate' }}
                onReplace={() => {
                  setConfirmingDeprecate(false);
                  setReplacing(true);
                }}
              />
            ) : null}
          </DialogScroll>
          <ConfirmActions
            color="blue"
            confirmLabel="Deprecate"
            loading={setStatus.isPending}
            onCancel={() => setConfirmingDeprecate(false)}
            onConfirm={() => {
              setConfirmingDeprecate(false);
              apply();
            }}
          />
        </DialogLayout>
      </Modal>
      <ReplaceDialogSlot item={item} opened={replacing} onClose={() => setReplacing(false)} />
    </Stack>
  );
}
