/**
 * The privilege checklist of the role editor, fed by the shared catalogue: grouped by kind
 * (general / administrative) and area, with a filter box, "select all" per area, privileges that a
 * ticked one includes shown ticked and explained ("Included by Edit with full control"), and the
 * privileges each one needs ticked with it (and unticked with what needs them), said as it happens;
 * a role saved elsewhere without them shows the gap in warning colour.
 *
 * `value` is what the role names; what it holds in effect adds what those imply.
 */
import { Badge, Checkbox, Group, Paper, SimpleGrid, Stack, Switch, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { memo, useId, useMemo, useState } from 'react';
import { privilegeById, type PrivilegeDef } from '../../shared/privileges.ts';
import { capitalize } from '../lib/format.ts';
import {
  CATALOGUE_SECTIONS,
  effectivePrivileges,
  impliedBy,
  KIND_TITLES,
  missingRequirements,
  privilegeMatches,
  PRIVILEGE_KINDS,
  tickPrivileges,
  untickPrivileges,
  type CatalogueSection,
} from '../lib/privilegeSets.ts';
import { IconSearch } from './icons.tsx';

export interface PrivilegeChecklistProps {
  /** The privileges the role names. */
  value: readonly string[];
  onChange?: (next: string[]) => void;
  /** Shows the role as it is: nothing can be ticked. */
  readOnly?: boolean;
  /** Names the checklist for assistive technology. */
  label?: string;
}

const DEPLOYMENT_NOTE = { hosted: 'ArcGIS Online', 'self-hosted': 'ArcGIS Enterprise' } as const;

const labelsOf = (ids: readonly string[]) => ids.map((id) => privilegeById(id)?.label ?? id).join(', ');

export function areaTitle(section: Pick<CatalogueSection, 'area'>): string {
  return capitalize(section.area);
}

/**
 * Memoised: a role editor re-renders on every keystroke in its name or description (the form's
 * dirty state), and the ~100 checkboxes need not follow unless the selection changes.
 */
export const PrivilegeChecklist = memo(function PrivilegeChecklist({ value, onChange, readOnly = false, label = 'Privileges' }: PrivilegeChecklistProps) {
  const [filter, setFilter] = useState('');
  const [onlyGranted, setOnlyGranted] = useState(readOnly);
  const headingId = useId();
  const selected = useMemo(() => new Set(value), [value]);
  const effective = useMemo(() => effectivePrivileges(value), [value]);
  const included = useMemo(() => impliedBy(value), [value]);

  const visible = (p: PrivilegeDef) => privilegeMatches(p, filter) && (!onlyGranted || effective.has(p.id));
  const sections = CATALOGUE_SECTIONS.map((s) => ({ ...s, shown: s.privileges.filter(visible) })).filter((s) => s.shown.length > 0);
  const impliedCount = [...effective].filter((id) => !selected.has(id)).length;

  // What was ticked or unticked along with the user's choice, said beside the count (and spoken).
  const [followNote, setFollowNote] = useState('');
  const set = (ids: readonly string[], on: boolean) => {
    if (readOnly || !onChange) return;
    // A privilege comes with what it needs, and goes with what needs it: the portal refuses a role
    // with an unmet prerequisite, so the checklist never builds one.
    if (on) {
      const { next, added } = tickPrivileges(value, ids);
      setFollowNote(added.length ? `Also ticked, because ${labelsOf(ids.filter((id) => !effective.has(id)))} needs it: ${labelsOf(added)}.` : '');
      onChange(next);
    } else {
      const { next, removed } = untickPrivileges(value, ids);
      setFollowNote(removed.length ? `Also unticked, because it needs ${labelsOf(ids)}: ${labelsOf(removed)}.` : '');
      onChange(next);
    }
  };

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
              <AreaSection
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

interface AreaSectionProps {
  section: CatalogueSection;
  shown: readonly PrivilegeDef[];
  filtered: boolean;
  selected: ReadonlySet<string>;
  effective: ReadonlySet<string>;
  included: ReadonlyMap<string, string[]>;
  readOnly: boolean;
  onSet: (ids: readonly string[], on: boolean) => void;
}

function AreaSection({ section, shown, filtered, selected, effective, included, readOnly, onSet }: AreaSectionProps) {
  const titleId = useId();
  const title = areaTitle(section);
  const granted = section.privileges.filter((p) => effective.has(p.id)).length;
  const shownGranted = shown.filter((p) => effective.has(p.id)).length;
  const all = shownGranted === shown.length;
  // Ticking "all" names every shown privilege; unticking drops those named (included ones follow their source).
  const toggleAll = () =>
    onSet(
      shown.map((p) => p.id),
      !all,
    );

  return (
    // A named group (what a fieldset with a legend is): screen readers say "Members, group" on entering it.
    <Paper withBorder radius="md" p="md" role="group" aria-labelledby={titleId} data-area={`${section.kind}/${section.area}`}>
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Group gap="xs">
          <Title order={4} fz="sm" id={titleId}>
            {title}
          </Title>
          <Badge variant="light" color={section.kind === 'administrative' ? 'grape' : 'blue'} size="sm" tt="none">
            {granted} of {section.privileges.length}
          </Badge>
        </Group>
        {readOnly ? null : (
          <Checkbox
            size="xs"
            label={filtered ? `Select all ${shown.length} shown` : 'Select all'}
            aria-label={`Select all in ${title} (${section.kind})`}
            checked={all}
            indeterminate={!all && shownGranted > 0}
            onChange={toggleAll}
          />
        )}
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" verticalSpacing="sm">
        {shown.map((p) => (
          <PrivilegeRow key={p.id} privilege={p} selected={selected} effective={effective} includedBy={included.get(p.id)} readOnly={readOnly} onSet={onSet} />
        ))}
      </SimpleGrid>
    </Paper>
  );
}

interface PrivilegeRowProps {
  privilege: PrivilegeDef;
  selected: ReadonlySet<string>;
  effective: ReadonlySet<string>;
  includedBy?: string[];
  readOnly: boolean;
  onSet: (ids: readonly string[], on: boolean) => void;
}

function PrivilegeRow({ privilege: p, selected, effective, includedBy, readOnly, onSet }: PrivilegeRowProps) {
  const checked = effective.has(p.id);
  const locked = !!includedBy?.length;
  const missing = checked ? missingRequirements(p.id, effective) : [];
  const notes: { text: string; color?: string; testId: string }[] = [];
  if (locked) notes.push({ text: `Included by ${labelsOf(includedBy)}`, color: 'blue', testId: 'included-by' });
  if (p.requires?.length) {
    notes.push(
      missing.length
        ? { text: `Needs ${labelsOf(missing)}, which is not granted`, color: 'orange', testId: 'requires-missing' }
        : { text: `Requires ${labelsOf(p.requires)}`, testId: 'requires' },
    );
  }
  if (p.deployment !== 'both') notes.push({ text: `${DEPLOYMENT_NOTE[p.deployment]} only`, testId: 'deployment' });

  return (
    <Checkbox
      checked={checked}
      disabled={!readOnly && locked}
      readOnly={readOnly}
      aria-readonly={readOnly || undefined}
      onChange={(e) => {
        if (!readOnly) onSet([p.id], e.currentTarget.checked);
      }}
      label={p.label}
      data-privilege={p.id}
      data-explicit={selected.has(p.id) || undefined}
      styles={{ label: { fontWeight: 500 } }}
      description={
        <Stack gap={2} component="span">
          <Text span size="xs" ff="monospace" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {p.id}
          </Text>
          {notes.map((n) => (
            <Text span key={n.testId} size="xs" c={n.color ?? 'dimmed'} data-testid={n.testId}>
              {n.text}
            </Text>
          ))}
        </Stack>
      }
    />
  );
}
