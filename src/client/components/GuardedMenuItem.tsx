/**
 * A menu entry that, when the member may not take its action, stays in the menu disabled with the
 * reason under its label (naming the missing privilege) — the menu counterpart of GuardedButton.
 */
import { Menu, Text, type MenuItemProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Permission } from '../lib/privileges.ts';

export interface GuardedMenuItemProps extends MenuItemProps {
  permission: Permission;
  onClick?: () => void;
  /** A console address the entry leads to (a link rather than an action). */
  to?: string;
  children: ReactNode;
}

export function GuardedMenuItem({ permission, onClick, to, children, ...rest }: GuardedMenuItemProps) {
  if (permission.allowed && to) {
    return (
      <Menu.Item component={Link} to={to} {...rest}>
        {children}
      </Menu.Item>
    );
  }
  if (permission.allowed) {
    return (
      <Menu.Item onClick={onClick} {...rest}>
        {children}
      </Menu.Item>
    );
  }
  return (
    <Menu.Item {...rest} disabled title={permission.reason} data-missing-privilege={permission.missing}>
      {children}
      <Text size="xs" c="dimmed" maw={260}>
        {permission.reason}
      </Text>
    </Menu.Item>
  );
}
