/**
 * Picks the event URIs of a webhook from the catalogue (src/shared/events.ts), grouped by category:
 * every event, a whole category, a category's verbs, or one specific item, group or member (all
 * its events or one verb). The portal checks that a named item, group or member exists.
 */
import { Button, Checkbox, Fieldset, Group, Pill, Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { ALL_EVENTS, EVENT_CATALOGUE, parseEventUri, type EventSource } from '../../../shared/events.ts';

const CATEGORY_LABEL: Record<EventSource, { title: string; one: string; subjectLabel: string }> = {
  item: { title: 'Items', one: 'item', subjectLabel: 'Item id' },
  group: { title: 'Groups', one: 'group', subjectLabel: 'Group id' },
  user: { title: 'Users', one: 'member', subjectLabel: 'Username' },
  role: { title: 'Roles', one: 'role', subjectLabel: '' },
};

const VERB_LABEL: Record<string, string> = {
  add: 'Added',
  delete: 'Deleted',
  update: 'Updated',
  move: 'Moved or owner changed',
  publish: 'Published',
  share: 'Shared',
  unshare: 'Unshared',
  reassign: 'Ownership reassigned',
  protect: 'Delete protection on',
  unprotect: 'Delete protection off',
  addComment: 'Comment added',
  deleteComment: 'Comment deleted',
  updateComment: 'Comment updated',
  invite: 'Member invited',
  addUsers: 'Members added',
  removeUsers: 'Members removed',
  updateUsers: 'Member roles changed',
  join: 'Join requested',
  leave: 'Member left',
  enableUsers: 'Accounts enabled (list)',
  disableUsers: 'Accounts disabled (list)',
  disable: 'Account disabled',
  enable: 'Account enabled',
  updateUserRole: 'Role changed',
  updateUserLicenseType: 'User type changed',
  signin: 'Signed in',
  signout: 'Signed out',
  expirationWarning: 'Expiry warning',
  inactivityWarning: 'Inactivity warning',
};
export const verbLabel = (verb: string) => VERB_LABEL[verb] ?? verb;

/** A subscription URI in words, with the picker's labels (`/items/update` → "Items: Updated"); an unknown one as it is. */
export function eventLabel(uri: string): string {
  const parsed = parseEventUri(uri);
  switch (parsed.kind) {
    case 'all':
      return 'Every event';
    case 'category':
      return `All ${CATEGORY_LABEL[parsed.source].title.toLowerCase()} events`;
    case 'verb':
      return `${CATEGORY_LABEL[parsed.source].title}: ${verbLabel(parsed.verb)}`;
    case 'subject': {
      const one = `${CATEGORY_LABEL[parsed.source].one} ${parsed.subject}`;
      return parsed.verb ? `One ${one}: ${verbLabel(parsed.verb)}` : `All events of ${one}`;
    }
    case 'invalid':
      return uri;
  }
}

export interface EventPickerProps {
  value: string[];
  onChange: (value: string[]) => void;
  error?: string;
}

export function EventPicker({ value, onChange, error }: EventPickerProps) {
  const selected = new Set(value);
  const everything = selected.has(ALL_EVENTS);
  const toggle = (uri: string, on: boolean) => onChange(on ? [...value.filter((v) => v !== uri), uri] : value.filter((v) => v !== uri));
  // A removed pill takes its focused button with it: focus goes to the pill now in its place (or the
  // last one), else to the list's heading, instead of the dialog's body.
  const pillsRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLParagraphElement>(null);
  const refocus = useRef<number | null>(null);
  useEffect(() => {
    if (refocus.current === null) return;
    const buttons = pillsRef.current?.querySelectorAll<HTMLButtonElement>('button') ?? [];
    (buttons[Math.min(refocus.current, buttons.length - 1)] ?? headingRef.current)?.focus();
    refocus.current = null;
  }, [value]);

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
          {Object.values(EVENT_CATALOGUE).map((category) => {
            const label = CATEGORY_LABEL[category.source];
            const all = selected.has(category.root);
            return (
              <Fieldset key={category.source} legend={label.title} variant="filled" p="sm">
                <Stack gap={6}>
                  <Checkbox label={`All ${label.title.toLowerCase()} events`} checked={all} onChange={(e) => toggle(category.root, e.currentTarget.checked)} />
                  <SimpleGrid cols={2} spacing={4} verticalSpacing={8}>
                    {category.verbs.map((verb) => {
                      const uri = `${category.root}/${verb}`;
                      return (
                        <Checkbox
                          key={verb}
                          label={verbLabel(verb)}
                          aria-label={`${label.title}: ${verbLabel(verb)}`}
                          checked={all || selected.has(uri)}
                          disabled={all}
                          onChange={(e) => toggle(uri, e.currentTarget.checked)}
                        />
                      );
                    })}
                  </SimpleGrid>
                  {category.subjectVerbs.length ? <SubjectAdder source={category.source} onAdd={(uri) => toggle(uri, true)} /> : null}
                </Stack>
              </Fieldset>
            );
          })}
        </SimpleGrid>
      )}
      <div>
        <Text size="sm" fw={500} mb={4} ref={headingRef} tabIndex={-1}>
          Subscribed events
        </Text>
        {value.length ? (
          <Pill.Group role="group" aria-label="Subscribed events" ref={pillsRef}>
            {value.map((uri, index) => (
              // Mantine leaves a pill's remove button out of the tab order (tabindex -1, aria-hidden): here it is the
              // only way to drop one item's, group's or member's events, so it is a real button, 24 px or more (size md).
              // aria-hidden is removed, not set to false: the dialog's focus trap skips any element that has it.
              <Pill
                key={uri}
                size="md"
                withRemoveButton
                onRemove={() => {
                  toggle(uri, false);
                  refocus.current = index;
                }}
                removeButtonProps={{ 'aria-label': `Remove ${uri}`, tabIndex: 0, 'aria-hidden': undefined }}
                ff="monospace"
              >
                {uri}
              </Pill>
            ))}
          </Pill.Group>
        ) : (
          <Text size="sm" c="dimmed">
            None yet.
          </Text>
        )}
        {error ? (
          <Text size="sm" c="red" mt={4} role="alert">
            {error}
          </Text>
        ) : null}
      </div>
    </Stack>
  );
}

/** One specific item, group or member: all its events, or one of them. */
function SubjectAdder({ source, onAdd }: { source: EventSource; onAdd: (uri: string) => void }) {
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
