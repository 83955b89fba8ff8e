/**
 * The plan's rows: each folder, then each item, with its own "new owner" choice. An empty choice
 * follows the row above it (an item its folder, a folder the one-member choice), and says whom.
 */
import { Paper, Stack, Text } from '@mantine/core';
import type { Folder, Item } from '../../../api/index.ts';
import { MemberPicker, type PickedMember } from '../../../components/MemberPicker.tsx';
import { plural } from '../../../lib/format.ts';
import { newOwnerOf, type OwnershipPlan } from './ownershipPlan.ts';

export interface PlanRowsProps {
  orgId: string;
  from: string;
  items: readonly Item[];
  folders: readonly Folder[];
  plan: OwnershipPlan;
  onChange: (plan: OwnershipPlan) => void;
  disabled?: boolean;
}

const follows = (m: PickedMember | null | undefined, of: string) =>
  m ? `Empty: goes to ${m.username}, as ${of}.` : `Empty: follows ${of} (nobody chosen yet).`;

export function PlanRows({ orgId, from, items, folders, plan, onChange, disabled }: PlanRowsProps) {
  const sections = [
    { id: null as string | null, title: 'Root folder', items: items.filter((i) => !i.ownerFolder || !folders.some((f) => f.id === i.ownerFolder)) },
    ...folders.map((f) => ({ id: f.id, title: f.title, items: items.filter((i) => i.ownerFolder === f.id) })),
  ].filter((s) => s.items.length);
  const setFolder = (id: string, m: PickedMember | null) => onChange({ ...plan, byFolder: { ...plan.byFolder, [id]: m } });
  const setItem = (id: string, m: PickedMember | null) => onChange({ ...plan, byItem: { ...plan.byItem, [id]: m } });
  return (
    <Stack gap="xs" data-testid="plan-rows">
      {sections.map((s) => (
        <Paper key={s.id ?? 'root'} withBorder radius="md" p="sm" component="section" aria-label={s.id ? `Folder ${s.title}` : s.title}>
          <Text fw={600} size="sm">
            {s.id ? `Folder “${s.title}”` : s.title} · {plural(s.items.length, 'item')}
          </Text>
          {s.id ? (
            <MemberPicker
              orgId={orgId}
              label={`New owner of the folder “${s.title}”`}
              description={plan.byFolder[s.id] ? 'Its items go here, into a folder of the same name.' : follows(plan.everything, 'everything')}
              value={plan.byFolder[s.id] ?? null}
              onChange={(m) => setFolder(s.id!, m)}
              exclude={[from]}
              disabled={disabled}
            />
          ) : null}
          <Stack gap={6} mt={6} pl={s.id ? 'md' : 0}>
            {s.items.map((item) => (
              <MemberPicker
                key={item.id}
                orgId={orgId}
                label={`New owner of “${item.title}”`}
                description={plan.byItem[item.id] ? undefined : follows(newOwnerOf({ ...item, id: '' }, plan), s.id ? 'its folder' : 'everything')}
                value={plan.byItem[item.id] ?? null}
                onChange={(m) => setItem(item.id, m)}
                exclude={[from]}
                disabled={disabled}
              />
            ))}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
