/** Adds a relationship from or to this item: only the types whose allowed ends take its type, and no second add of one that exists. */
import { Alert, Button, Group, Paper, Select, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { RELATIONSHIP_TYPES, findRelationshipType } from '../../../shared/relationships.ts';
import { describeError, type Item } from '../../api/index.ts';
import { ItemPicker } from '../../components/ItemPicker.tsx';
import { capitalize, withArticle } from '../../lib/format.ts';
import { useNarrowScreen } from '../../lib/narrow.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useAddRelationship } from './mutations.ts';
import { relatedItemsQuery } from '../../api/queries/items.ts';

export function AddRelationship({ item }: { item: Item }) {
  const user = useCurrentUser();
  const narrow = useNarrowScreen();
  const add = useAddRelationship(user.username);
  const [role, setRole] = useState<'origin' | 'destination'>('origin');
  const [type, setType] = useState<string>('');
  const [other, setOther] = useState('');
  const [otherTitle, setOtherTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  const rel = findRelationshipType(type);
  // The lists above (same queries, so no new request): a second add of the same relationship would
  // succeed without changing anything, so it is named here instead of sent.
  const existing = useQuery(relatedItemsQuery(item.id, role === 'origin' ? 'forward' : 'reverse'));
  const already = !!other && !!type && !!existing.data?.relatedItems.some((r) => r.id === other && (r.relationshipTypes ?? []).includes(type));
  // Only the types whose allowed ends take this item's type at the chosen end.
  const fits = (allowed: readonly string[]) => allowed.includes('*') || allowed.some((a) => a.toLowerCase() === item.type.toLowerCase());
  const types = RELATIONSHIP_TYPES.filter((r) => fits(role === 'origin' ? r.origin : r.destination));
  const submit = () => {
    setError(null);
    const ends = role === 'origin' ? { originItemId: item.id, destinationItemId: other } : { originItemId: other, destinationItemId: item.id };
    const added = otherTitle ? `“${otherTitle}”` : 'the other item';
    add.mutate(
      { ...ends, relationshipType: type },
      {
        onSuccess: () => {
          setOther('');
          setOtherTitle('');
          notifications.show({
            color: 'green',
            title: 'Relationship added',
            message:
              role === 'origin'
                ? `“${item.title}” now has ${withArticle(type)} relationship to ${added}.`
                : `${capitalize(added)} now has ${withArticle(type)} relationship to “${item.title}”.`,
          });
        },
        onError: (e) => setError(describeError(e)),
      },
    );
  };
  return (
    <Paper withBorder p="sm" radius="md">
      <Stack gap="sm">
        <Text fw={600} size="sm">
          Add a relationship
        </Text>
        <SegmentedControl
          // On a phone the two long choices stack instead of running off the card.
          orientation={narrow ? 'vertical' : 'horizontal'}
          fullWidth={narrow}
          aria-label="This item is the"
          value={role}
          onChange={(v) => {
            setRole(v);
            setType('');
          }}
          data={[
            { value: 'origin', label: 'This item is the origin' },
            { value: 'destination', label: 'This item is the destination' },
          ]}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label="Relationship type"
            searchable
            data={types.map((r) => ({ value: r.name, label: `${r.name} — ${r.description}` }))}
            value={type || null}
            onChange={(v) => setType(v ?? '')}
            nothingFoundMessage={`No relationship type takes a ${item.type} as its ${role}`}
          />
          <ItemPicker
            label={role === 'origin' ? 'Destination item' : 'Origin item'}
            value={other}
            onChange={(id, picked) => {
              setOther(id);
              setOtherTitle(picked?.title ?? '');
            }}
            exclude={[item.id]}
          />
        </SimpleGrid>
        {rel ? (
          <Text size="xs" c="dimmed" data-testid="relationship-hint">
            {rel.description}: {role === 'origin' ? `this item ${rel.originVerb} the other` : `this item ${rel.destinationVerb} the other`}. The{' '}
            {role === 'origin' ? 'destination' : 'origin'} must be: {(role === 'origin' ? rel.destination : rel.origin).join(', ').replace('*', 'any type')}.
            {rel.mustOwnOrigin || rel.mustOwnDestination
              ? ` You must own the ${[rel.mustOwnOrigin && 'origin', rel.mustOwnDestination && 'destination'].filter(Boolean).join(' and ')}.`
              : ''}
          </Text>
        ) : null}
        {error ? (
          <Alert color="red" variant="light" role="alert" title="The relationship was not added">
            {error}
          </Alert>
        ) : null}
        <div aria-live="polite">
          {already ? (
            <Text size="sm" c="orange.8" fw={500} data-testid="already-related">
              Already related: {role === 'origin' ? 'this item already has' : 'that item already has'} {withArticle(type)} relationship to{' '}
              {role === 'origin' ? 'that item' : 'this one'}.
            </Text>
          ) : null}
        </div>
        <Group>
          <Button onClick={submit} disabled={!type || !other || already} loading={add.isPending}>
            Add relationship
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
