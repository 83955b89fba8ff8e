/** One specific item, group or member: all its events, or one of them. */
import { Button, Group, Select, TextInput } from '@mantine/core';
import { useState } from 'react';
import { EVENT_CATALOGUE, type EventSource } from '../../../shared/events.ts';
import { CATEGORY_LABEL, verbLabel } from './eventWords.ts';

export function EventSubjectAdder({ source, onAdd }: { source: EventSource; onAdd: (uri: string) => void }) {
  const category = EVENT_CATALOGUE[source];
  const label = CATEGORY_LABEL[source];
  const [subject, setSubject] = useState('');
  const [verb, setVerb] = useState<string>('');
  const trimmed = subject.trim();
  const valid = /^[^/\s]+$/.test(trimmed);
  return (
    <Group gap={6} align="flex-end" wrap="nowrap">
      <TextInput
        size="xs"
        label={`One ${label.one}`}
        placeholder={label.subjectLabel}
        value={subject}
        onChange={(e) => setSubject(e.currentTarget.value)}
        style={{ flex: 1 }}
      />
      <Select
        size="xs"
        label="Event"
        aria-label={`Event of one ${label.one}`}
        data={[{ value: '', label: 'All its events' }, ...category.subjectVerbs.map((v) => ({ value: v, label: verbLabel(v) }))]}
        value={verb}
        onChange={(v) => setVerb(v ?? '')}
        allowDeselect={false}
        w={150}
      />
      <Button
        size="xs"
        variant="light"
        disabled={!valid}
        aria-label={`Add one ${label.one}`}
        onClick={() => {
          onAdd(`${category.root}/${trimmed}${verb ? `/${verb}` : ''}`);
          setSubject('');
        }}
      >
        Add
      </Button>
    </Group>
  );
}
