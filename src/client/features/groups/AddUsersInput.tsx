/** The first "Add users" step: choose names three ways, see what happens to each, and send. */
import { Alert, Button, FileInput, Group, Radio, Stack, Text, Textarea } from '@mantine/core';
import { DialogFooter, DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { IconAlert, IconUpload } from '../../components/icons.tsx';
import { MemberPicker } from '../../components/MemberPicker.tsx';
import { AddUsersNameTable } from './AddUsersNameTable.tsx';
import { describeEligibility, plural } from './addUsersWords.ts';
import { judge } from './eligibility.ts';
import type { AddUsersState } from './useAddUsers.ts';

export function AddUsersInput({ state, onClose }: { state: AddUsersState; onClose: () => void }) {
  const {
    user,
    caller,
    picked,
    setPicked,
    pasted,
    setPasted,
    file,
    csv,
    csvError,
    readFile,
    as,
    setAs,
    access,
    eligibility,
    judged,
    toSend,
    outside,
    fullNameOf,
    summary,
    submit,
  } = state;
  return (
    <DialogLayout>
      <DialogScroll gap="md">
        {csvError ? (
          <Alert color="red" variant="light" icon={<IconAlert />} role="alert">
            {csvError}
          </Alert>
        ) : null}
        {access === 'org' ? (
          <Text size="sm" c="dimmed">
            This group accepts only members of your organization.
          </Text>
        ) : access === 'collaboration' ? (
          <Text size="sm" c="dimmed">
            This group accepts members of your organization and of organizations in a partnered collaboration with it.
          </Text>
        ) : null}
        <MemberPicker
          multiple
          orgId={user.orgId}
          label="Find members"
          description="Search by full name or username; choose as many as you like."
          value={picked}
          onChange={setPicked}
          clearLabel="Clear the chosen members"
          dialogAutoFocus
          describeMember={(m) => {
            const e = judge(m.username, {
              groupUsers: eligibility.groupUsers,
              known: new Map([[m.username.toLowerCase(), m]]),
              lookupFailed: false,
              access,
              caller,
              as,
            });
            return e.kind === 'ok' ? null : describeEligibility(e).detail;
          }}
        />
        <Textarea
          label="Or paste a list"
          description="One username per line, or separated by commas or spaces."
          autosize
          minRows={2}
          maxRows={6}
          value={pasted}
          onChange={(e) => setPasted(e.currentTarget.value)}
          spellCheck={false}
        />
        <FileInput
          label="Or a CSV file"
          description={
            csv
              ? `${plural(csv.names.length, 'username')} read from the first column${csv.headerSkipped ? ' (header row left out)' : ''}.`
              : 'Usernames in the first column; a header row is fine.'
          }
          placeholder="Choose a .csv file"
          accept=".csv,text/csv,text/plain"
          leftSection={<IconUpload size={16} />}
          value={file}
          onChange={(f) => void readFile(f)}
          clearable
        />
        <Radio.Group label="Add them as" value={as} onChange={(v) => setAs(v)}>
          <Group gap="lg" mt={6}>
            <Radio value="members" label="Members" />
            <Radio value="managers" label="Managers" />
          </Group>
        </Radio.Group>
        <Stack gap={6}>
          <Text size="sm" data-testid="names-summary" aria-live="polite" aria-atomic="true">
            {summary}
          </Text>
          {eligibility.lookupFailed ? (
            <Text size="sm" c="dimmed">
              The names could not all be looked up; those are sent as they are and the portal decides.
            </Text>
          ) : null}
          {outside.length && !eligibility.checking ? (
            <Alert color="orange" variant="light" icon={<IconAlert />} title={`${plural(outside.length, 'name is', 'names are')} not in your organization`}>
              Members of other organizations see what is shared with this group. You will be asked to confirm before they are added.
            </Alert>
          ) : null}
          {judged.length ? <AddUsersNameTable judged={judged} fullNameOf={fullNameOf} /> : null}
        </Stack>
      </DialogScroll>
      <DialogFooter>
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button disabled={!toSend.length || eligibility.checking} onClick={submit}>
          {toSend.length ? `Add ${plural(toSend.length, 'user')}` : 'Add users'}
        </Button>
      </DialogFooter>
    </DialogLayout>
  );
}
