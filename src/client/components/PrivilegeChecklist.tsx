/**
 * The privilege checklist of the role editor, fed by the shared catalogue: grouped by kind
 * (general / administrative) and area, with a filter box, "select all" per area, privileges that a
 * ticked one includes shown ticked and explained ("Included by Edit with full control"), and the
 * privileges each one needs ticked with it (and unticked with what needs them), said as it happens;
 * a role saved elsewhere without them shows the gap in warning colour.
 *
 * `value` is what the role names; what it holds in effect adds what those imply.
 */
import { Group, Stack, Switch, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { memo, useId } from 'react';
import { KIND_TITLES, PRIVILEGE_KINDS } from '../lib/privilegeSets.ts';
import { IconSearch } from './icons.tsx';
import { PrivilegeAreaSection } from './PrivilegeAreaSection.tsx';
import { usePrivilegeChecklist } from './usePrivilegeChecklist.ts';

export interface PrivilegeChecklistProps {
  /** The privileges the role names. */
  value: readonly string[];
  onChange?: (next: string[]) => void;
  /** Shows the role as it is: nothing can be ticked. */
  readOnly?: boolean;
  /** Names the checklist for assistive technology. */
  label?: string;
}

/**
 * Memoised: a role editor re-renders on every keystroke in its name or description (the form's
 * dirty state), and the ~100 checkboxes need not follow unless the selection changes.
 */
export const PrivilegeChecklist = memo(function PrivilegeChecklist({ value, onChange, readOnly = false, label = 'Privileges' }: PrivilegeChecklistProps) {
  const { filter, setFilter, onlyGranted, setOnlyGranted, selected, effective, included, sections, impliedCount, followNote, set } = usePrivilegeChecklist({
    value,
    onChange,
    readOnly,
  });
  const headingId = useId();

  return (
    <Stack gap="md" role="group" aria-labelledby={headingId}>
      <VisuallyHidden id={headingId}>{label}</VisuallyHidden>
      <Group gap="md" align="center" wrap="wrap">
        <TextInput
          aria-label="Filter privileges"
          placeholder="Filter by name or id"
          type="search"
          leftSection={<IconSearch size={16} />}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          // Inside a form, Enter in the filter must not submit it.
          onKeyDown={(e) => {
            if (e.key === 'Enter') e.preventDefault();
          }}
          style={{ flex: '1 1 240px' }}
          maw={380}
        />
        <Switch label="Only granted" checked={onlyGranted} onChange={(e) => setOnlyGranted(e.currentTarget.checked)} />
        <Text size="sm" c="dimmed" aria-live="polite" data-testid="privilege-count">
          {effective.size} granted{impliedCount ? ` (${impliedCount} included by others)` : ''}
        </Text>
      </Group>
      <Text size="sm" c="blue" aria-live="polite" data-testid="prerequisite-note">
        {followNote}
      </Text>

      {sections.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg">
          {filter.trim() ? `No privileges match “${filter.trim()}”.` : 'This role grants no privileges.'}
        </Text>
      ) : null}

      {PRIVILEGE_KINDS.map((kind) => {
        const ofKind = sections.filter((s) => s.kind === kind);
        if (!ofKind.length) return null;
        return (
          <Stack gap="sm" key={kind}>
            <Title order={3} fz="md">
              {KIND_TITLES[kind]}
            </Title>
            {ofKind.map((s) => (
              <PrivilegeAreaSection
                key={`${s.kind}/${s.area}`}
                section={s}
                shown={s.shown}
                filtered={s.shown.length !== s.privileges.length}
                selected={selected}
                effective={effective}
                included={included}
                readOnly={readOnly}
                onSet={set}
              />
            ))}
          </Stack>
        );
      })}
    </Stack>
  );
});
