/**
 * One inactivity policy: its rule, whether it is switched on, who it would touch now (the preview,
 * shown before switching on), and its recent runs with their undo.
 */
import { Badge, Button, Card, Group, List, Modal, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError } from '../../../api/index.ts';
import type { InactivityPolicy } from '../../../api/memberLifecycle.ts';
import { runsQuery } from '../../../api/queries/memberLifecycle.ts';
import { ConfirmActions } from '../../../components/ConfirmActions.tsx';
import { DialogLayout, DialogScroll } from '../../../components/DialogFooter.tsx';
import { formatDateTime, plural } from '../../../lib/format.ts';
import { licenseLabel } from '../../../lib/licenses.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { useDeletePolicy, useSetPolicyActive, useUndoRun } from './mutations.ts';
import { PolicyPreview } from './PolicyPreview.tsx';

export function policySummary(p: InactivityPolicy, roleName: (role: string) => string): string {
  const then = p.action === 'disable' ? 'disabled' : `moved to ${roleName(p.role ?? '')} (${licenseLabel(p.userLicenseType ?? '')})`;
  return `Warned after ${plural(p.warnAfterDays, 'day')} without signing in, ${then} after ${plural(p.actAfterDays, 'day')}.`;
}

interface PolicyCardProps {
  policy: InactivityPolicy;
  roleName: (role: string) => string;
  mayManage: boolean;
  onEdit: () => void;
}

export function PolicyCard({ policy: p, roleName, mayManage, onEdit }: PolicyCardProps) {
  const user = useCurrentUser();
  const [showPreview, setShowPreview] = useState(!p.active);
  const [deleting, setDeleting] = useState(false);
  const toggle = useSetPolicyActive(user.orgId);
  const remove = useDeletePolicy(user.orgId);
  const previewId = `policy-preview-${p.id}`;
  const fail = (title: string) => (error: unknown) => notifications.show({ color: 'red', title, message: describeError(error) });

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={`policy-${p.id}`} data-testid="inactivity-policy">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="xs">
            <Title order={2} fz="lg" id={`policy-${p.id}`}>
              {p.title}
            </Title>
            <Badge color={p.active ? 'green' : 'gray'} variant="light">
              {p.active ? 'On' : 'Off'}
            </Badge>
            {p.warnedCount ? <Badge color="orange" variant="light">{`${plural(p.warnedCount, 'member')} warned`}</Badge> : null}
          </Group>
          <Switch
            label="Switched on"
            checked={p.active}
            disabled={!mayManage || toggle.isPending}
            onChange={(e) => toggle.mutate({ id: p.id, active: e.currentTarget.checked }, { onError: fail('The policy was not switched') })}
          />
        </Group>
        <Text size="sm">{policySummary(p, roleName)}</Text>
        {p.active && p.nextRun ? (
          <Text size="xs" c="dimmed">
            Next run {formatDateTime(p.nextRun)}
          </Text>
        ) : null}
        <Group gap="xs">
          <Button size="xs" variant="light" aria-expanded={showPreview} aria-controls={previewId} onClick={() => setShowPreview((s) => !s)}>
            {showPreview ? 'Hide who it would touch' : 'Who it would touch today'}
          </Button>
          {mayManage ? (
            <>
              <Button size="xs" variant="default" onClick={onEdit}>
                Edit
              </Button>
              <Button size="xs" variant="subtle" color="red" onClick={() => setDeleting(true)}>
                Delete
              </Button>
            </>
          ) : null}
        </Group>
        <div id={previewId} hidden={!showPreview}>
          {showPreview ? <PolicyPreview policy={p} /> : null}
        </div>
        <PolicyRuns policy={p} mayManage={mayManage} />
      </Stack>
      <Modal opened={deleting} onClose={() => setDeleting(false)} title={`Delete ${p.title}?`} centered>
        <DialogLayout>
          <DialogScroll>
            <Text size="sm">The policy stops and its run history goes with it. Members it disabled or moved stay as they are.</Text>
          </DialogScroll>
          <ConfirmActions
            onCancel={() => setDeleting(false)}
            confirmLabel="Delete policy"
            loading={remove.isPending}
            onConfirm={() => remove.mutate(p.id, { onSuccess: () => setDeleting(false), onError: fail('The policy was not deleted') })}
          />
        </DialogLayout>
      </Modal>
    </Card>
  );
}

function PolicyRuns({ policy, mayManage }: { policy: InactivityPolicy; mayManage: boolean }) {
  const user = useCurrentUser();
  const runs = useQuery(runsQuery(user.orgId, policy.id));
  const undo = useUndoRun(user.orgId);
  const recent = runs.data?.runs.slice(0, 5) ?? [];
  if (!recent.length) return null;
  return (
    <section aria-labelledby={`runs-${policy.id}`}>
      <Title order={3} fz="sm" id={`runs-${policy.id}`} mb={4}>
        Recent runs
      </Title>
      <List size="sm" spacing={4}>
        {recent.map((r) => (
          <List.Item key={r.id}>
            <Group gap="xs" wrap="wrap">
              <span>
                {formatDateTime(r.ranAt)}: {plural(r.warned.length, 'member')} warned, {plural(r.acted.length, 'member')}{' '}
                {policy.action === 'disable' ? 'disabled' : 'moved'}
                {r.undone ? ` — undone by ${r.undoneBy ?? 'someone'}` : ''}
              </span>
              {mayManage && !r.undone && r.acted.length ? (
                <Button
                  size="compact-xs"
                  variant="light"
                  loading={undo.isPending && undo.variables?.runId === r.id}
                  onClick={() =>
                    undo.mutate(
                      { id: policy.id, runId: r.id },
                      {
                        onSuccess: ({ results }) =>
                          notifications.show({
                            color: 'green',
                            title: 'Run undone',
                            message: `${plural(results.filter((x) => x.status).length, 'member')} put back.`,
                          }),
                        onError: (error) => notifications.show({ color: 'red', title: 'The run was not undone', message: describeError(error) }),
                      },
                    )
                  }
                >
                  Undo
                </Button>
              ) : null}
            </Group>
          </List.Item>
        ))}
      </List>
    </section>
  );
}
