/** A member row's actions: change role, and the less frequent ones in a menu (transfer, status, unlock, history). */
import type { PortalUser } from '../../api/index.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { mayReadHistory } from '../../components/HistorySection.tsx';
import { usePortalCapabilities } from '../../lib/capabilities.ts';
import type { useReturnFocus } from '../../lib/focusReturn.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { MemberMoreMenu } from './MemberMoreMenu.tsx';
import { changeRoleOfPermission, disableMemberPermission, transferPermission, unlockSignInPermission } from './permissions.ts';
import { useConfirmMemberStatus } from './useConfirmMemberStatus.tsx';
import { useConfirmUnlock } from './useConfirmUnlock.tsx';

export interface MemberRowActionsProps {
  member: PortalUser;
  onChangeRole: () => void;
  onHistory: () => void;
  fromMenu: ReturnType<typeof useReturnFocus>;
}

export function MemberRowActions({ member: m, onChangeRole, onHistory, fromMenu }: MemberRowActionsProps) {
  const user = useCurrentUser();
  const caps = usePortalCapabilities();
  const confirmStatus = useConfirmMemberStatus(user.orgId, fromMenu.restore);
  const confirmUnlock = useConfirmUnlock(fromMenu.restore);
  const fromMenuDo = (f: () => void) => () => {
    fromMenu.remember();
    f();
  };
  return (
    <>
      <GuardedButton
        permission={changeRoleOfPermission(user, m)}
        size="xs"
        variant="default"
        aria-label={`Change role of ${m.username}`}
        onClick={onChangeRole}
      >
        Change role
      </GuardedButton>
      <MemberMoreMenu
        username={m.username}
        transfer={transferPermission(user, m)}
        status={{ disabled: !!m.disabled, permission: disableMemberPermission(user, m), onToggle: fromMenuDo(() => confirmStatus(m.username, !m.disabled)) }}
        // A local extra: not offered at all by portals without it.
        unlock={caps.localExtras ? { permission: unlockSignInPermission(user), onUnlock: fromMenuDo(() => confirmUnlock(m.username)) } : undefined}
        onHistory={mayReadHistory(user) ? fromMenuDo(onHistory) : undefined}
      />
    </>
  );
}
