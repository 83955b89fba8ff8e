/** One area of the checklist (e.g. Members), named as a group, with how much of it is granted and "select all". */
import { Badge, Checkbox, Group, Paper, SimpleGrid, Title } from '@mantine/core';
import { useId } from 'react';
import type { PrivilegeDef } from '../../shared/privileges.ts';
import { capitalize } from '../lib/format.ts';
import type { CatalogueSection } from '../lib/privilegeSets.ts';
import { PrivilegeRow } from './PrivilegeRow.tsx';

function areaTitle(section: Pick<CatalogueSection, 'area'>): string {
  return capitalize(section.area);
}

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

export function PrivilegeAreaSection({ section, shown, filtered, selected, effective, included, readOnly, onSet }: AreaSectionProps) {
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
