/** A role's name and description; a new role can start from another role's privileges. */
import { Card, Select, SimpleGrid, Stack } from '@mantine/core';
import { LIMITS } from '../../../shared/limits.ts';
import { CountedTextarea, CountedTextInput } from '../../components/CountedField.tsx';
import { toSelectData } from './roleOptions.ts';
import type { RoleEditorState } from './useRoleEditor.ts';

export function RoleDetailsCard({ state }: { state: RoleEditorState }) {
  const { isNew, readOnly, err, form, options, startFrom, setStartFrom, setSelection } = state;
  return (
    <Card withBorder radius="md" padding="lg">
      <SimpleGrid cols={{ base: 1, md: isNew ? 2 : 1 }} spacing="md">
        <Stack gap="md">
          <CountedTextInput
            label="Name"
            required
            readOnly={readOnly}
            error={err('name')}
            data-autofocus
            autoFocus={isNew}
            {...form.register('name')}
            max={LIMITS.roleNameChars}
          />
          <CountedTextarea
            label="Description"
            readOnly={readOnly}
            autosize
            minRows={2}
            maxRows={5}
            error={err('description')}
            {...form.register('description')}
            max={LIMITS.roleDescriptionChars}
          />
        </Stack>
        {isNew ? (
          <Select
            label="Start from"
            description="Tick the privileges of an existing role, then change what you need."
            placeholder="Nothing ticked"
            data={toSelectData(options)}
            value={startFrom}
            onChange={(v) => {
              setStartFrom(v);
              setSelection([...(options.find((o) => o.value === v)?.privileges ?? [])]);
            }}
            clearable
            searchable
          />
        ) : null}
      </SimpleGrid>
    </Card>
  );
}
