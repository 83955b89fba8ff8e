/**
 * A button that, when the member may not take its action, stays visible but disabled and says why —
 * naming the missing privilege — in a line of text under it (touch screens never show a tooltip),
 * which is also its accessible description, and in a tooltip. It remains focusable (aria-disabled
 * rather than disabled) so keyboard and screen-reader users find the reason.
 */
import { Box, Button, Text, Tooltip, type ButtonProps } from '@mantine/core';
import { useId, type MouseEvent, type ReactNode } from 'react';
import type { Permission } from '../lib/privileges.ts';

export interface GuardedButtonProps extends ButtonProps {
  permission: Permission;
  onClick?: (event: MouseEvent<HTMLButtonElement>) => void;
  children: ReactNode;
  type?: 'button' | 'submit';
  'aria-label'?: string;
}

export function GuardedButton({ permission, onClick, children, type = 'button', ...rest }: GuardedButtonProps) {
  const reasonId = useId();
  if (permission.allowed) {
    return (
      <Button type={type} onClick={onClick} {...rest}>
        {children}
      </Button>
    );
  }
  return (
    <Box component="span" display="inline-flex" style={{ flexDirection: 'column', gap: 2, maxWidth: 280, verticalAlign: 'top' }}>
      <Tooltip label={permission.reason} multiline w={280} withArrow events={{ hover: true, focus: true, touch: true }}>
        <Button
          type="button"
          {...rest}
          data-disabled
          aria-disabled="true"
          aria-describedby={reasonId}
          data-missing-privilege={permission.missing}
          onClick={(event) => event.preventDefault()}
        >
          {children}
        </Button>
      </Tooltip>
      <Text component="span" id={reasonId} size="xs" c="dimmed" data-testid="disabled-reason">
        {permission.reason}
      </Text>
    </Box>
  );
}
