/** One privilege of the checklist: its name and id, and why it is ticked, what it needs, or where it applies. */
import { Checkbox, Stack, Text } from '@mantine/core';
import type { PrivilegeDef } from '../../shared/privileges.ts';
import { missingRequirements } from '../lib/privilegeSets.ts';
import { labelsOf } from './usePrivilegeChecklist.ts';

const DEPLOYMENT_NOTE = { hosted: 'ArcGIS Online', 'self-hosted': 'ArcGIS Enterprise' } as const;

interface PrivilegeRowProps {
  privilege: PrivilegeDef;
  selected: ReadonlySet<string>;
  effective: ReadonlySet<string>;
  includedBy?: string[];
  readOnly: boolean;
  onSet: (ids: readonly string[], on: boolean) => void;
}

export function PrivilegeRow({ privilege: p, selected, effective, includedBy, readOnly, onSet }: PrivilegeRowProps) {
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
