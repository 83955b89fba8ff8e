/** Two roles side by side: what only one of them grants, and what both do. */
import { Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { PrivilegeComparisonView } from '../../components/PrivilegeSets.tsx';
import { comparePrivileges } from '../../lib/privilegeSets.ts';
import { toSelectData, type RoleOption } from './roleOptions.ts';

export interface CompareRolesModalProps {
  opened: boolean;
  onClose: () => void;
  options: readonly RoleOption[];
  /** The role compared first (e.g. the one being edited). */
  initialA?: string;
  initialB?: string;
}

export function CompareRolesModal({ opened, onClose, options, initialA, initialB }: CompareRolesModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Compare roles" size="min(1100px, 96vw)" centered>
      {opened ? <Comparison options={options} initialA={initialA} initialB={initialB} /> : null}
    </Modal>
  );
}

function Comparison({ options, initialA, initialB }: Pick<CompareRolesModalProps, 'options' | 'initialA' | 'initialB'>) {
  const [a, setA] = useState<string | null>(initialA ?? options[0]?.value ?? null);
  const [b, setB] = useState<string | null>(initialB ?? null);
  const data = toSelectData(options);
  const roleA = options.find((o) => o.value === a);
  const roleB = options.find((o) => o.value === b);
  // Role B takes focus when the dialog opens; its list opens on typing, ArrowDown or a click, not on
  // focus — an open list would cover the dialog and, holding nothing focusable, scroll where the
  // keyboard cannot (WCAG 2.1.1; axe scrollable-region-focusable).
  return (
    <Stack gap="md">
      <Group grow align="flex-end" wrap="wrap">
        <Select
          label="Role A"
          data={data}
          value={a}
          onChange={setA}
          allowDeselect={false}
          searchable
          openOnFocus={false}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label="Role B"
          placeholder="Pick a role to compare with"
          data={data}
          value={b}
          onChange={setB}
          allowDeselect={false}
          searchable
          openOnFocus={false}
          data-autofocus
        />
      </Group>
      {roleA && roleB ? (
        <PrivilegeComparisonView nameA={roleA.label} nameB={roleB.label} comparison={comparePrivileges(roleA.privileges, roleB.privileges)} />
      ) : (
        <Text c="dimmed" size="sm" ta="center" py="lg">
          Pick two roles to see what each grants that the other does not.
        </Text>
      )}
    </Stack>
  );
}
