/** The bar that stays in view at the foot of the editor: what has changed, discard, and review and save. */
import { Button, Group, Paper, Text } from '@mantine/core';
import type { RoleEditorState } from './useRoleEditor.ts';

export function RolePendingBar({ state }: { state: RoleEditorState }) {
  const { privilegesChanged, diff, isNew, form, discard, changed } = state;
  return (
    <Paper withBorder shadow="md" radius="md" p="sm" pos="sticky" bottom={12} style={{ zIndex: 5 }}>
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Text size="sm" aria-live="polite" data-testid="pending-changes" style={{ minWidth: 0 }}>
          {privilegesChanged
            ? `${diff.added.length} privilege${diff.added.length === 1 ? '' : 's'} added, ${diff.removed.length} removed`
            : 'Privileges unchanged'}
          {!isNew && form.formState.isDirty ? ' · details changed' : ''}
        </Text>
        <Group gap="sm" wrap="nowrap">
          <Button variant="default" onClick={discard} disabled={!changed || isNew} visibleFrom="sm">
            Discard changes
          </Button>
          <Button type="submit" disabled={!changed}>
            Review and save
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
