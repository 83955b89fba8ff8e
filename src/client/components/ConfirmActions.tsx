/**
 * The footer of a confirmation: Cancel, and the action it confirms (red: it cannot be undone). It is
 * a DialogFooter, so the buttons stay in view while a long confirmation scrolls.
 */
import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { DialogFooter } from './DialogFooter.tsx';

export interface ConfirmActionsProps {
  onCancel: () => void;
  onConfirm: () => void;
  confirmLabel: ReactNode;
  loading?: boolean;
  disabled?: boolean;
  color?: string;
  /** Shown at the far left (e.g. a link to what the change touches). */
  aside?: ReactNode;
}

export function ConfirmActions({ onCancel, onConfirm, confirmLabel, loading, disabled, color = 'red', aside }: ConfirmActionsProps) {
  const buttons = (
    <Group gap="sm">
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      <Button color={color} loading={loading} disabled={disabled} onClick={onConfirm}>
        {confirmLabel}
      </Button>
    </Group>
  );
  return aside ? (
    <DialogFooter justify="space-between">
      {aside}
      {buttons}
    </DialogFooter>
  ) : (
    <DialogFooter>{buttons}</DialogFooter>
  );
}
