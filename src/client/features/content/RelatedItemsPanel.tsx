/**
 * Related items in both directions, each with the relationship that links it; add a relationship
 * (the type's allowed origin and destination types are checked first) or remove one.
 */
import { ActionIcon, Alert, Anchor, Badge, Button, Group, Paper, Select, SegmentedControl, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { RELATIONSHIP_TYPES, findRelationshipType, relationshipVerb } from '../../../shared/relationships.ts';
import { describeError, type Item, type RelationshipDirection } from '../../api/index.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { IconTrash } from '../../components/icons.tsx';
import { ItemTypeIcon } from '../../components/ItemTypeIcon.tsx';
import { LoadingState, ErrorState } from '../../components/states.tsx';
import { capitalize, withArticle } from '../../lib/format.ts';
import { useNarrowScreen } from '../../lib/narrow.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { ItemPicker } from '../../components/ItemPicker.tsx';
import { useAddRelationship, useDeleteRelationship } from './mutations.ts';
import { relatedItemsQuery } from '../../api/queries/items.ts';

export function RelatedItemsPanel({ item }: { item: Item }) {
  return (
    <Stack gap="lg">
      {/* Neither list says "depends on": which end uses the other differs by type (a Map2Service map
          uses its service, but a Map2AppConfig map is used by its app), so each row says it in words. */}
      <RelatedList item={item} direction="forward" title="Related from this item (it is the origin)" />
      <RelatedList item={item} direction="reverse" title="Related to this item (it is the destination)" />
      <AddRelationship item={item} />
    </Stack>
  );
}

interface RelatedRow {
  other: Item;
  type: string;
}

function RelatedList({ item, direction, title }: { item: Item; direction: RelationshipDirection; title: string }) {
  const user = useCurrentUser();
  const related = useQuery(relatedItemsQuery(item.id, direction));
  const remove = useDeleteRelationship(user.username);
  const [error, setError] = useState<string | null>(null);
  const label = direction === 'forward' ? 'Related items: this item is the origin' : 'Related items: this item is the destination';
  return (
    <Stack gap={6}>
      <Text fw={600} size="sm">
        {title}
      </Text>
      {related.isPending ? <LoadingState minHeight={60} /> : null}
      {related.isError ? <ErrorState error={related.error} onRetry={() => related.refetch()} /> : null}
      {related.data && !related.data.relatedItems.length ? (
        <Text size="sm" c="dimmed">
          None.
        </Text>
      ) : null}
      {related.data?.relatedItems.length ? (
        // DataTable: on a phone each relationship becomes a labelled card instead of a row running off the screen.
        <DataTable<RelatedRow>
          label={label}
          itemName="relationship"
          rows={related.data.relatedItems.flatMap((other) => (other.relationshipTypes ?? ['']).map((type) => ({ other, type })))}
          rowKey={(r) => `${r.other.id}-${r.type}`}
          columns={[
            {
              id: 'item',
              header: 'Item',
              stackFirst: true,
              render: ({ other }) => (
                <Anchor component={Link} to={`/content/items/${other.id}`} size="sm">
                  {other.title}
                </Anchor>
              ),
            },
            {
              id: 'type',
              header: 'Type',
              render: ({ other }) => (
                <Group gap={6} wrap="nowrap">
                  <ItemTypeIcon type={other.type} />
                  <Text size="sm">{other.type}</Text>
                </Group>
              ),
            },
            {
              id: 'relationship',
              header: 'Relationship',
              render: ({ type }) =>
                type ? (
                  <Stack gap={2} align="flex-start">
                    <Text size="sm">This item {relationshipVerb(type, direction === 'forward' ? 'origin' : 'destination')} it</Text>
                    <Badge variant="light" tt="none">
                      {type}
                    </Badge>
                  </Stack>
                ) : (
                  '—'
                ),
            },
            {
              id: 'actions',
              header: 'Actions',
              width: 40,
              render: ({ other, type }) =>
                type ? (
                  <Tooltip label="Remove this relationship (only the member who made it can)">
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Remove ${type} relationship with ${other.title}`}
                      loading={remove.isPending}
                      onClick={() => {
                        setError(null);
                        const ends =
                          direction === 'forward'
                            ? { originItemId: item.id, destinationItemId: other.id }
                            : { originItemId: other.id, destinationItemId: item.id };
                        remove.mutate({ ...ends, relationshipType: type }, { onError: (e) => setError(describeError(e)) });
                      }}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                ) : null,
            },
          ]}
        />
      ) : null}
      {error ? (
        <Alert color="red" variant="light" role="alert" title="The relationship was not removed">
          {error}
        </Alert>
      ) : null}
    </Stack>
  );
}

function AddRelationship({ item }: { item: Item }) {
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
