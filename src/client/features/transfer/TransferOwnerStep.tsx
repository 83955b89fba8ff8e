/** The wizard's second step: the new owner (a member of the organization) and the folder the items go to. */
import { Button, Group, Paper, Stack } from '@mantine/core';
import { MemberPicker } from '../../components/MemberPicker.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { FolderField } from './FolderField.tsx';
import type { useTransferWizard } from './useTransferWizard.ts';

type Wizard = ReturnType<typeof useTransferWizard>;

export function TransferOwnerStep({
  from,
  wizard: { targetMember, setTargetMember, folderTyped, setFolderTyped, folder, target, selectedIds, goTo, startCheck },
}: {
  from: string;
  wizard: Wizard;
}) {
  const user = useCurrentUser();
  return (
    <>
      <Paper withBorder p="md" radius="md">
        <Stack gap="md" maw={520}>
          <MemberPicker
            orgId={user.orgId}
            label="New owner"
            description="A member of your organization who may own content."
            value={targetMember}
            onChange={setTargetMember}
            exclude={[from]}
            required
          />
          <FolderField value={folderTyped} onChange={setFolderTyped} target={folder} />
        </Stack>
      </Paper>
      <Group justify="space-between" mt="md">
        <Button variant="default" onClick={() => goTo(0)}>
          Back
        </Button>
        <Button onClick={startCheck} disabled={!target || !!folder.problem}>
          Check {selectedIds.length} item{selectedIds.length === 1 ? '' : 's'}
        </Button>
      </Group>
    </>
  );
}
