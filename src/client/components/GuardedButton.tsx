/**
 * A button that, when the member may not take its action, stays visible but disabled and says why —
 * naming the missing privilege — in a tooltip and in its accessible description. It remains
 * focusable (aria-disabled rather than disabled) so keyboard and screen-reader users find the reason.
 */
import { Button, Tooltip, VisuallyHidden, type ButtonProps } from '@mantine/core';
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
    <>
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
      <VisuallyHidden id={reasonId}>{permission.reason}</VisuallyHidden>
    </>
  );
}
