/** The items related to this one in one direction, each row with the relationship in words and its removal. */
import { ActionIcon, Alert, Anchor, Badge, Group, Stack, Text, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { relationshipVerb } from '../../../shared/relationships.ts';
import { describeError, type Item, type RelationshipDirection } from '../../api/index.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { IconTrash } from '../../components/icons.tsx';
import { ItemTypeIcon } from '../../components/ItemTypeIcon.tsx';
import { LoadingState, ErrorState } from '../../components/states.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { useDeleteRelationship } from './mutations.ts';
import { relatedItemsQuery } from '../../api/queries/items.ts';

interface RelatedRow {
  other: Item;
  type: string;
}

export function RelatedList({ item, direction, title }: { item: Item; direction: RelationshipDirection; title: string }) {
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
