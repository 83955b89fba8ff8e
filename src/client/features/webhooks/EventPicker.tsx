/**
 * Picks the event URIs of a webhook from the catalogue (src/shared/events.ts), grouped by category:
 * every event, a whole category, a category's verbs, or one specific item, group or member (all
 * its events or one verb). The portal checks that a named item, group or member exists.
 */
import { SimpleGrid, Stack, Switch } from '@mantine/core';
import { ALL_EVENTS, EVENT_CATALOGUE } from '../../../shared/events.ts';
import { EventCategoryFieldset } from './EventCategoryFieldset.tsx';
import { SubscribedEvents } from './SubscribedEvents.tsx';

export interface EventPickerProps {
  value: string[];
  onChange: (value: string[]) => void;
  error?: string;
}

export function EventPicker({ value, onChange, error }: EventPickerProps) {
  const selected = new Set(value);
  const everything = selected.has(ALL_EVENTS);
  const toggle = (uri: string, on: boolean) => onChange(on ? [...value.filter((v) => v !== uri), uri] : value.filter((v) => v !== uri));

  return (
    <Stack gap="sm">
      <Switch
        label="Every event"
        description="Items, groups, users and roles: everything the organization reports."
        checked={everything}
        onChange={(e) => onChange(e.currentTarget.checked ? [ALL_EVENTS] : [])}
      />
      {everything ? null : (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
          {Object.values(EVENT_CATALOGUE).map((category) => (
            <EventCategoryFieldset key={category.source} category={category} selected={selected} toggle={toggle} />
          ))}
        </SimpleGrid>
      )}
      <SubscribedEvents value={value} onRemove={(uri) => toggle(uri, false)} error={error} />
    </Stack>
  );
}
