/**
 * The filters of a list page, in one place for every list: on a wide screen the controls sit in
 * a row; on a phone (lib/narrow.ts) the always-needed controls (`leading`: search, scope) stay and
 * the rest fold behind a "Filters" button that says how many are in use, so the list is on the
 * first screen. The folded filters stay mounted (their typed values survive closing).
 */
import { Button, Collapse, Group, Stack } from '@mantine/core';
import { useId, useState, type ReactNode } from 'react';
import { useNarrowScreen } from '../lib/narrow.ts';
import { IconChevronDown, IconChevronUp } from './icons.tsx';

export interface FilterBarProps {
  /** Names the group of filters, e.g. "Filter content". */
  label: string;
  /** Shown on every screen, before the button (search box, scope). */
  leading?: ReactNode;
  /** How many filters are in use, for the button's text ("Filters (2)"). */
  active: number;
  /** The filters that fold away on a phone. */
  children: ReactNode;
}

export function FilterBar({ label, leading, active, children }: FilterBarProps) {
  const narrow = useNarrowScreen();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  if (!narrow)
    return (
      <Group gap="sm" align="flex-end" wrap="wrap" role="group" aria-label={label}>
        {leading}
        {children}
      </Group>
    );
  const Chevron = open ? IconChevronUp : IconChevronDown;
  return (
    <Stack gap="sm" className="filter-bar-narrow">
      {leading}
      <Button
        variant="default"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        rightSection={<Chevron size={16} />}
        justify="space-between"
        fullWidth
      >
        {active ? `Filters (${active} in use)` : 'Filters'}
      </Button>
      <Collapse expanded={open}>
        <Stack gap="sm" id={panelId} role="group" aria-label={label} className="filter-bar-panel">
          {children}
        </Stack>
      </Collapse>
    </Stack>
  );
}
