/** A relationship made with the new item: none, or its type and the item at the other end. */
import { Fieldset, Group, Radio, SimpleGrid, Text } from '@mantine/core';
import { Controller, useWatch } from 'react-hook-form';
import { RELATIONSHIP_TYPES } from '../../../shared/relationships.ts';
import { ControlledSelect } from '../../components/ControlledSelect.tsx';
import { ItemPicker } from '../../components/ItemPicker.tsx';
import type { AddItemSourceProps } from './useAddItemForm.tsx';

export function AddItemRelationFields({ form, err }: AddItemSourceProps) {
  const relate = useWatch({ control: form.control, name: 'relate' });
  return (
    <Fieldset legend="Relate it to another item">
      <Controller
        control={form.control}
        name="relate"
        render={({ field }) => (
          <Radio.Group value={field.value} onChange={field.onChange} aria-label="Relationship">
            <Group gap="lg">
              <Radio value="none" label="No relationship" />
              <Radio value="origin" label="The new item is the origin" />
              <Radio value="destination" label="The new item is the destination" />
            </Group>
          </Radio.Group>
        )}
      />
      {relate !== 'none' ? (
        <SimpleGrid cols={{ base: 1, sm: 2 }} mt="sm">
          <ControlledSelect
            control={form.control}
            name="relationshipType"
            label="Relationship type"
            searchable
            data={RELATIONSHIP_TYPES.map((r) => ({ value: r.name, label: `${r.name} — ${r.description}` }))}
            error={err('relationshipType')}
          />
          <Controller
            control={form.control}
            name="relatedItemId"
            render={({ field }) => (
              <ItemPicker
                label={relate === 'destination' ? 'Origin item' : 'Destination item'}
                value={field.value}
                onChange={field.onChange}
                error={err('relatedItemId')}
              />
            )}
          />
        </SimpleGrid>
      ) : null}
      {relate === 'destination' ? (
        <Text size="xs" c="dimmed" mt="xs">
          The new item takes on the origin's sharing. If the relationship cannot be made, the item is not added.
        </Text>
      ) : null}
    </Fieldset>
  );
}
