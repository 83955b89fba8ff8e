/** Less frequent actions on one member, kept in a menu so the members table keeps its width. */
import { ActionIcon, Menu } from '@mantine/core';
import { GuardedMenuItem } from '../../components/GuardedMenuItem.tsx';
import { IconChevronDown } from '../../components/icons.tsx';
import type { Permission } from '../../lib/privileges.ts';

export interface MemberMoreMenuProps {
  username: string;
  transfer: Permission;
  /** Disable or enable the account, whichever it is not. */
  status: { disabled: boolean; permission: Permission; onToggle: () => void };
  /** A local extra: absent on portals without it. */
  unlock?: { permission: Permission; onUnlock: () => void };
  onHistory?: () => void;
}

export function MemberMoreMenu({ username, transfer, status, unlock, onHistory }: MemberMoreMenuProps) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon size={30} variant="default" aria-label={`More actions for ${username}`}>
          <IconChevronDown size={16} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <GuardedMenuItem permission={transfer} to={`/members/transfer?from=${encodeURIComponent(username)}`}>
          Transfer content
        </GuardedMenuItem>
        <GuardedMenuItem permission={status.permission} onClick={status.onToggle}>
          {status.disabled ? 'Enable account' : 'Disable account'}
        </GuardedMenuItem>
        {unlock ? (
          <GuardedMenuItem permission={unlock.permission} onClick={unlock.onUnlock}>
            Unlock sign-in
          </GuardedMenuItem>
        ) : null}
        {onHistory ? <Menu.Item onClick={onHistory}>History</Menu.Item> : null}
      </Menu.Dropdown>
    </Menu>
  );
}
